//go:build !unix

package main

import "os"

// openRegular opens name for reading: a regular file, unless it was not looked at.
func openRegular(name string) (*os.File, error) { return os.Open(name) }
