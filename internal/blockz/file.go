package blockz

import (
	"io"
)

// file is the compressed file as the scanners read it: small reads at
// offsets, which end at its size.
type file struct {
	ra   io.ReaderAt
	size int64
	// err is the first error of ra other than io.EOF: the scanners stop
	// there, and the sequential read of the rest meets it again.
	err error
	buf [maxPeek]byte
}

// maxPeek is the most bytes one peek returns.
const maxPeek = 1024

// peek returns up to n bytes (n <= maxPeek) at off: fewer when the file
// ends before them or ra fails. They are valid until the next call.
func (f *file) peek(off int64, n int) []byte {
	if off < 0 || off >= f.size || f.err != nil {
		return nil
	}
	n = int(min(int64(n), f.size-off))
	k, err := f.ra.ReadAt(f.buf[:n], off)
	if err != nil && err != io.EOF {
		f.err = err
	}
	return f.buf[:k]
}

// has returns the n bytes at off and true, or false when the file does not
// hold them all. They are valid until the next call.
func (f *file) has(off int64, n int) ([]byte, bool) {
	b := f.peek(off, n)
	return b, len(b) == n
}
