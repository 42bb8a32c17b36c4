//go:build !linux

package main

import "io"

// drain reads r to its end; splice(2), which hyperfine uses, is Linux's only.
func drain(r io.Reader) error { return drainRead(r) }
