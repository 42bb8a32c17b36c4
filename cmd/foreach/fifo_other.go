//go:build !unix

package main

import "os"

// openFIFO opens name to follow it as a stream.
func openFIFO(name string) (*os.File, error) { return os.Open(name) }
