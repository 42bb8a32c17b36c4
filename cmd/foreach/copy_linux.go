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
// is refused. It reports whether src was copied to its end. When it was not (dst
// opened with O_APPEND, a terminal, a file system or kernel that refuses, or an error
// midway), both files' offsets stand after the bytes copied, for the caller to go on
// by reading and writing. progress, if not nil, is told of the bytes of every call.
func kernelCopy(dst *os.File, dstRegular bool, src *os.File, progress func(int64)) bool {
	dc, err := dst.SyscallConn()
	if err != nil {
		return false
	}
	sc, err := src.SyscallConn()
	if err != nil {
		return false
	}
	k := &kernelCopier{chunk: maxKernelCopy, ranged: dstRegular}
	if progress != nil {
		k.chunk = progressChunk
	}
	done := false
	err = sc.Control(func(sfd uintptr) {
		k.sfd = int(sfd)
		done = k.copy(dc, progress)
	})
	return err == nil && done
}

// kernelCopier is one kernelCopy: the calls it makes and what the last one did. Its
// state lives here rather than in closures made for every call: over a tree of small
// files their allocations were most of the copy's.
type kernelCopier struct {
	sfd    int   // src's descriptor, held by its RawConn's Control
	chunk  int   // bytes asked of one call
	ranged bool  // copy_file_range; else sendfile
	n      int   // the bytes of the last call
	err    error // the error of the last call
}

// copy makes calls onto dc until src's end or a failure; see kernelCopy.
func (k *kernelCopier) copy(dc syscall.RawConn, progress func(int64)) bool {
	call := k.call
	copied := false // some call has copied bytes
	for {
		werr := dc.Write(call)
		err := k.err
		if err == nil {
			err = werr
		}
		switch {
		case errors.Is(err, syscall.EINTR):
		case err == nil && k.n > 0:
			copied = true
			if progress != nil {
				progress(int64(k.n))
			}
		case k.ranged && !copied:
			// copy_file_range refused these files (EXDEV, EINVAL, EOPNOTSUPP, ...) or
			// said it copied nothing, as some file systems did before Linux 5.19
			// instead of failing: sendfile may still copy them.
			k.ranged = false
		case err == nil:
			// The end of src. At the first call, a file that has a size and sends
			// nothing is left to the caller to read.
			return copied
		default:
			return false
		}
	}
}

// call makes one system call onto dfd. It is dc.Write's callback, so that a dst the
// runtime polls (a non-blocking pipe) is waited for when it is full.
func (k *kernelCopier) call(dfd uintptr) bool {
	if k.ranged {
		k.n, k.err = unix.CopyFileRange(k.sfd, nil, int(dfd), nil, k.chunk, 0)
	} else {
		k.n, k.err = unix.Sendfile(int(dfd), k.sfd, nil, k.chunk)
	}
	return k.err != unix.EAGAIN
}
