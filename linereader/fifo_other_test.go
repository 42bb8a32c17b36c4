//go:build !unix

package linereader

import "errors"

// mkfifo fails where there are no FIFOs: the tests that need one skip.
func mkfifo(name string) error { return errors.ErrUnsupported }
