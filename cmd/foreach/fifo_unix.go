//go:build unix

package main

import "os"

// openFIFO opens the FIFO name to follow it: for reading and writing, so that the open
// does not wait for a writer, and the last writer closing it is no end of the data
// (reads wait for the next one, as tail -f's do).
func openFIFO(name string) (*os.File, error) { return os.OpenFile(name, os.O_RDWR, 0) }
