package decompress

import (
	"bufio"
	"io"
)

// NewReaderAfter returns a Reader of the rest of an input whose first base
// bytes are complete streams of format f that were read some other way (a
// parallel decoder that read them piece by piece): src yields the input from
// offset base on, and the Reader reads it exactly as a Reader made by
// NewReader reads what follows a complete stream ending at base. Zero
// padding to the end of the input ends it cleanly; another stream of f is
// decoded, and what follows it again by the same rules; other bytes are
// trailing data (an *Error wrapping ErrTrailingData); a magic number cut
// short is a truncated stream. Every *Error gives its offset from the start
// of the input, not of src, and CompressedBytes counts from base.
//
// With base 0 and the format NewReader would detect, the Reader reads the
// input as NewReader's does, but for an input that does not start with a
// stream of f, which is trailing data here and passed on unchanged there.
// f must be one of the formats (not None). Like NewReader, it reads nothing
// until the first Read.
func NewReaderAfter(src io.Reader, f Format, base int64) *Reader {
	if f == None {
		panic("decompress: NewReaderAfter without a format")
	}
	return &Reader{src: source{r: src, n: base}, after: f}
}

// startAfter is start for a Reader made by NewReaderAfter: what follows the
// streams before the input is decided as after any complete stream (afterStream),
// and when it is another stream, that stream's decoder is created. An input
// that ends cleanly gives io.EOF at once.
func (r *Reader) startAfter() error {
	r.started = true
	r.format = r.after
	r.buf = bufio.NewReaderSize(&r.src, readSize)
	next, err := afterStream(r.format, r.buf, r.consumed())
	switch {
	case err != nil:
		return r.wrap(err)
	case next == endOfInput:
		return io.EOF
	}
	return r.newDecoder()
}

// MaxWindow is the largest zstd window and xz dictionary a Reader accepts
// (128 MiB, as the zstd command's decoder by default): a parallel decoder
// of the same streams refuses, or leaves to a Reader, what goes beyond it.
const MaxWindow = maxWindow
