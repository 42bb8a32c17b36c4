//go:build !unix

package testfifo

import "errors"

// There are no FIFOs here: the tests that need one skip.
func mkfifo(string) error { return errors.ErrUnsupported }
