//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// openRegular opens name for reading: a regular file, unless it was not looked at
// (see open). os.Open would offer the descriptor to the runtime's poller, which
// refuses regular files, and set and clear O_NONBLOCK around the attempt: five system
// calls per file that cost as much as reading a small one. Opened here and given to
// os.NewFile, it costs one. Reads of a regular file never wait, so the poller has
// nothing to do for it; anything else opened here (a FIFO named while no output was
// pending) is read by blocking reads, which is all the command needs of it.
func openRegular(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
