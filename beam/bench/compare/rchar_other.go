//go:build !linux

package main

// processReadBytes is -1 where the process's read count is not known (it is read from
// /proc on Linux).
func processReadBytes() int64 { return -1 }
