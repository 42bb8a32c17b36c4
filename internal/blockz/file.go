package blockz

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// file is the compressed file as the scanners read it: small reads at
// offsets, which end at its size. Reads that follow one another closely (a
// BGZF member's header after the last, a zstd block's) are served from a
// window of the file read at once, so that scanning a file of many small
// pieces costs a few large reads and not a system call per piece; a read
// far from the last is made alone.
type file struct {
	ra   io.ReaderAt
	size int64
	// err is the first error of ra other than io.EOF: the scanners stop
	// there, and the sequential read of the rest meets it again.
	err error
	// win holds the file's bytes from winOff on.
	win    []byte
	winOff int64
	buf    [maxPeek]byte
}

const (
	// maxPeek is the most bytes one peek returns.
	maxPeek = 1024
	// windowSize is the size of the window, and the distance after its end
	// within which a read fills a new one.
	windowSize = 256 << 10
)

// peek returns up to n bytes (n <= maxPeek) at off: fewer when the file
// ends before them or ra fails. They are valid until the next call.
func (f *file) peek(off int64, n int) []byte {
	if off < 0 || off >= f.size || f.err != nil {
		return nil
	}
	n = int(min(int64(n), f.size-off))
	if off >= f.winOff && off+int64(n) <= f.winOff+int64(len(f.win)) {
		return f.win[off-f.winOff:][:n]
	}
	if end := f.winOff + int64(len(f.win)); len(f.win) == 0 || off >= f.winOff && off < end+windowSize {
		return f.fill(off, n)
	}
	k, err := f.ra.ReadAt(f.buf[:n], off)
	if err != nil && err != io.EOF {
		f.err = err
	}
	return f.buf[:k]
}

// fill reads the window at off and returns its first n bytes (or fewer).
func (f *file) fill(off int64, n int) []byte {
	if f.win == nil || cap(f.win) < windowSize {
		f.win = make([]byte, windowSize)
	}
	f.win = f.win[:min(windowSize, f.size-off)]
	k, err := f.ra.ReadAt(f.win, off)
	if err != nil && err != io.EOF {
		f.err = err
	}
	f.win, f.winOff = f.win[:k], off
	return f.win[:min(n, k)]
}

// has returns the n bytes at off and true, or false when the file does not
// hold them all. They are valid until the next call.
func (f *file) has(off int64, n int) ([]byte, bool) {
	b := f.peek(off, n)
	return b, len(b) == n
}

// input is where a worker's decoder gets a piece's compressed bytes: from
// the span of the file read for the whole job (one read for a run of small
// pieces, not one per piece), or read for the piece alone.
type input struct {
	ra io.ReaderAt
	// span holds the file's bytes from spanOff on, read for the job.
	span    []byte
	spanOff int64
	own     []byte // the buffer of a piece read alone
	// body and buf read a piece as a stream: from the span, or from the
	// file through a buffer (decoders make small reads, which must not be
	// a system call each).
	body bytes.Reader
	buf  *bufio.Reader
}

// reader returns a reader of the n bytes of the file at off, valid until
// the next call.
func (in *input) reader(off, n int64) io.Reader {
	if b, ok := in.spanned(off, n); ok {
		in.body.Reset(b)
		return &in.body
	}
	if in.buf == nil {
		in.buf = bufio.NewReaderSize(nil, 256<<10)
	}
	in.buf.Reset(io.NewSectionReader(in.ra, off, n))
	return in.buf
}

// load reads the bytes of the file from off to end into the span, for
// the pieces of a job.
func (in *input) load(off, end int64) error {
	if int64(cap(in.span)) < end-off {
		in.span = make([]byte, end-off)
	}
	in.span, in.spanOff = in.span[:end-off], off
	if err := readFull(in.ra, in.span, off); err != nil {
		in.span = in.span[:0]
		return err
	}
	return nil
}

// spanned returns the n bytes at off when the span holds them.
func (in *input) spanned(off, n int64) ([]byte, bool) {
	if off >= in.spanOff && off+n <= in.spanOff+int64(len(in.span)) {
		return in.span[off-in.spanOff:][:n], true
	}
	return nil, false
}

// bytes returns the n bytes of the file at off: from the span when it
// holds them, read otherwise. They are valid until the next call. More
// than maxSpan bytes are refused, not allocated: a piece's length comes
// from its headers, which a crafted (or sparse) file makes as large as it
// likes; the decoders read longer pieces as streams.
func (in *input) bytes(off, n int64) ([]byte, error) {
	if b, ok := in.spanned(off, n); ok {
		return b, nil
	}
	if n > maxSpan {
		return nil, fmt.Errorf("blockz: a piece of %d compressed bytes at %d, more than the %d read at once", n, off, int64(maxSpan))
	}
	if int64(cap(in.own)) < n {
		in.own = make([]byte, n)
	}
	b := in.own[:n]
	return b, readFull(in.ra, b, off)
}
