package main

import "io"

// outBufferSize is the size of the buffer over standard output.
const outBufferSize = 256 << 10

// directWrite is the size from which a write skips the buffer: once what is pending
// is written, a block this large goes to standard output as it is, without a copy.
// (A buffer smaller than that, which the printer's tests use, lowers it to its size.)
const directWrite = 32 << 10

// output is the one buffer over standard output. It is bufio.Writer with its buffer
// in the open: the loops that print records append to buf themselves, a few bytes at
// a time, which a Write call per prefix would cost more than the append.
type output struct {
	w   io.Writer
	buf []byte // what is pending; cap(buf) is fixed by newOutput and never changes
	// direct is the length from which Write skips buf: min(directWrite, cap(buf)), so
	// that what Write appends after a flush always fits.
	direct int
	err    error // the first write error; once set, nothing more is written
}

// newOutput returns the buffer of size bytes over w.
func newOutput(w io.Writer, size int) *output {
	return &output{w: w, buf: make([]byte, 0, size), direct: min(directWrite, size)}
}

// Write appends p, writing what is pending first when p does not fit, and writing a
// large p straight through. Its error is the first write error of o.
func (o *output) Write(p []byte) (int, error) {
	if len(p) > cap(o.buf)-len(o.buf) || len(p) >= o.direct {
		if o.Flush() != nil {
			return 0, o.err
		}
		if len(p) >= o.direct {
			var n int
			n, o.err = o.w.Write(p)
			return n, o.err
		}
	}
	o.buf = append(o.buf, p...)
	return len(p), o.err
}

// room returns buf with space for at least n more bytes, writing what is pending
// first if needed; it returns nil when that failed, or when n is more than the buffer
// holds (the caller then writes with Write).
func (o *output) room(n int) []byte {
	if n > cap(o.buf)-len(o.buf) {
		if n > cap(o.buf) || o.Flush() != nil {
			return nil
		}
	}
	return o.buf
}

// Flush writes what is pending.
func (o *output) Flush() error {
	if o.err == nil && len(o.buf) > 0 {
		_, o.err = o.w.Write(o.buf)
	}
	o.buf = o.buf[:0]
	return o.err
}

// Buffered is the number of bytes pending.
func (o *output) Buffered() int { return len(o.buf) }
