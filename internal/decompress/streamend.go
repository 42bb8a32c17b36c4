package decompress

import (
	"bufio"
	"io"
)

// after is what follows a complete stream.
type after uint8

const (
	nextStream after = iota // another stream of the format starts here
	endOfInput              // nothing, or zero bytes (padding) to the end of the input
)

// afterStream decides what follows a complete stream of format f, whose end is
// at offset at of the input, read from r, which is at the byte after the
// stream (every decoder consumes exactly its streams' bytes). The rules are
// gzip's, for every format:
//
//   - the end of the input, or zero bytes up to it (the padding of tapes and
//     block devices): endOfInput, the bytes consumed;
//   - the start of one of f's magic numbers (for xz also after stream
//     padding, zero bytes in a multiple of four, which the format defines):
//     nextStream, the magic number left in r (the padding consumed);
//   - a proper prefix of one of f's magic numbers, then the end of the input:
//     a stream cut short, io.ErrUnexpectedEOF, the bytes consumed;
//   - anything else: trailing data, an *Error at offset at wrapping
//     ErrTrailingData. Its bytes are not read further.
//
// An error of r's source is returned as it is.
//
// afterStream reads one byte at a time until it knows, as detection does, so
// that a pipe that pauses between two streams is not waited on for bytes
// that are not needed.
func afterStream(f Format, r *bufio.Reader, at int64) (after, error) {
	var head [maxMagic]byte
	n := 0
	for {
		g, more := match(f, head[:n])
		switch {
		case n == 0:
		case g != None:
			return nextStream, nil
		case !more:
			return zeros(f, r, head[:n], at)
		}
		b, err := r.Peek(n + 1)
		if len(b) < n+1 {
			if err != io.EOF {
				return 0, err
			}
			if _, err := r.Discard(len(b)); err != nil {
				return 0, err
			}
			if n == 0 {
				return endOfInput, nil
			}
			return 0, io.ErrUnexpectedEOF // a magic number cut short (no magic number starts with 0)
		}
		head[n] = b[len(b)-1]
		n++
	}
}

// zeros goes on from afterStream once head (the bytes after the end of a
// stream, peeked at r's front) can start no magic number of f:
// zero bytes up to the end of the input are padding, anything else is
// trailing data. For xz, zero bytes in a multiple of four followed by a
// stream are stream padding.
func zeros(f Format, r *bufio.Reader, head []byte, at int64) (after, error) {
	trailing := &Error{Format: f, Offset: at, Err: ErrTrailingData}
	if !isZero(head) {
		return 0, trailing
	}
	// Only a nonzero byte ends the padding: consume the zero bytes as they
	// come (r holds the peeked ones too, at its front).
	var count int64
	for {
		b, err := r.Peek(1)
		if len(b) == 0 {
			if err == io.EOF {
				return endOfInput, nil
			}
			return 0, err
		}
		buffered, _ := r.Peek(r.Buffered())
		k := 0
		for k < len(buffered) && buffered[k] == 0 {
			k++
		}
		r.Discard(k)
		count += int64(k)
		if k == len(buffered) {
			continue
		}
		if f == Xz && count%4 == 0 {
			// The next stream, if its magic number follows.
			next, err := afterStream(Xz, r, at)
			if err == nil && next == nextStream {
				return nextStream, nil
			}
			if err != nil && !isTrailing(err) {
				return 0, err // a stream cut in its magic number, or an error of the source
			}
		}
		return 0, trailing
	}
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// isTrailing reports whether err is a trailing-data *Error.
func isTrailing(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Err == ErrTrailingData
}
