//go:build !unix

package main

import "os"

// openRegular opens name, a regular file when it was looked at, for reading.
func openRegular(name string) (*os.File, error) { return os.Open(name) }
