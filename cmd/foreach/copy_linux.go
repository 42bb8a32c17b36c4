package main

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxKernelCopy is the most bytes Linux copies in one system call (MAX_RW_COUNT), and
// progressChunk what kernelCopy asks of one call when a progress bar is to move.
const (
	maxKernelCopy = 0x7ffff000
	progressChunk = 8 << 20
)

// kernelCopy copies src, from its offset to its end, onto dst inside the kernel:
// copy_file_range(2) when dst is a regular file (dstRegular), as cat does, and
// sendfile(2) to anything else (a pipe, /dev/null, a socket) or where copy_file_range
// is refused. It
// reports whether src was copied to its end. When it was not (dst opened with
// O_APPEND, a terminal, a file system or kernel that refuses, or an error midway),
// both files' offsets stand after the bytes copied, for the caller to go on by reading
// and writing. progress, if not nil, is told of the bytes of every call.
func kernelCopy(dst *os.File, dstRegular bool, src *os.File, progress func(int64)) bool {
	dc, err := dst.SyscallConn()
	if err != nil {
		return false
	}
	sc, err := src.SyscallConn()
	if err != nil {
		return false
	}
	chunk := maxKernelCopy
	if progress != nil {
		chunk = progressChunk
	}
	ranged := dstRegular // copy_file_range; else sendfile
	copied := false      // some call has copied bytes
	for {
		step := func(dfd, sfd int) (int, error) { return unix.Sendfile(dfd, sfd, nil, chunk) }
		if ranged {
			step = func(dfd, sfd int) (int, error) { return unix.CopyFileRange(sfd, nil, dfd, nil, chunk, 0) }
		}
		n, err := copyStep(dc, sc, step)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err == nil && n > 0:
			copied = true
			if progress != nil {
				progress(int64(n))
			}
		case ranged && !copied:
			// copy_file_range refused these files (EXDEV, EINVAL, EOPNOTSUPP, ...) or
			// said it copied nothing, as some file systems did before Linux 5.19
			// instead of failing: sendfile may still copy them.
			ranged = false
		case err == nil:
			// The end of src. At the first call, a file that has a size and sends
			// nothing is left to the caller to read.
			return copied
		default:
			return false
		}
	}
}

// copyStep runs one call of step between the descriptors of dst and src. A dst that
// the runtime polls (a non-blocking pipe) is waited for when it is full.
func copyStep(dc, sc syscall.RawConn, step func(dfd, sfd int) (int, error)) (n int, err error) {
	cerr := sc.Control(func(sfd uintptr) {
		werr := dc.Write(func(dfd uintptr) bool {
			n, err = step(int(dfd), int(sfd))
			return err != unix.EAGAIN
		})
		if err == nil {
			err = werr
		}
	})
	if err == nil {
		err = cerr
	}
	return n, err
}
