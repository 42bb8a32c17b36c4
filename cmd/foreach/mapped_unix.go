//go:build linux || darwin || freebsd || netbsd || openbsd

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// mapped is a regular file mapped into memory for reading, an io.ReaderAt for CountAt:
// its workers copy from the page cache as it is, without a read system call per block.
// Where threads that read one file at once by pread slow each other down in the kernel,
// copies from a mapping do not.
type mapped struct {
	data []byte // the mapping, the file's first len(data) bytes; nil once closed
}

// mapFile maps the first size bytes of f, or returns nil where it cannot (an empty file,
// a file system that cannot map, a size beyond the address space): the caller then reads
// f itself.
func mapFile(f *os.File, size int64) *mapped {
	if size <= 0 || int64(int(size)) != size {
		return nil
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var data []byte
	cerr := sc.Control(func(fd uintptr) {
		data, err = unix.Mmap(int(fd), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	})
	if cerr != nil || err != nil {
		return nil
	}
	return &mapped{data: data}
}

// errShrank is the error of a read from the part of a mapping the file no longer has;
// like CountAt's own, it wraps io.ErrUnexpectedEOF.
var errShrank = fmt.Errorf("the file shrank while it was read: %w", io.ErrUnexpectedEOF)

// ReadAt copies from the mapping, and then drops from the process the pages it copied
// (the page cache keeps them), so that the resident memory stays that of the buffers,
// not of the file. A file cut shorter meanwhile makes the copy fault: that is errShrank,
// not a crash.
func (m *mapped) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= int64(len(m.data)) {
		return 0, io.EOF
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			n, err = 0, errShrank
		}
	}()
	n = copy(p, m.data[off:])
	page := int64(os.Getpagesize())
	unix.Madvise(m.data[off/page*page:off+int64(n)], unix.MADV_DONTNEED)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Close unmaps the file.
func (m *mapped) Close() error {
	data := m.data
	m.data = nil
	return unix.Munmap(data)
}
