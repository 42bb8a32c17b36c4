package decompress

import (
	"bufio"
	"io"

	"github.com/foreachio/foreach/internal/inflate"
)

// gzipDecoder decodes the members of a gzip file one at a time, with the
// project's own deflate decoder (internal/inflate), so that what follows
// each is decided here (see afterStream): the decoder reads its member's bytes
// in place in r and consumes exactly them, leaving r at the byte after the
// member's trailer.
type gzipDecoder struct {
	m      inflate.Member
	r      *bufio.Reader
	offset func() int64 // the input offset of r's next byte

	// between: the last member has ended and what follows it is not yet
	// known.
	between bool
}

func newGzipDecoder(r *bufio.Reader, offset func() int64) (*gzipDecoder, error) {
	if _, err := inflate.ReadHeader(r); err != nil { // the first member's header
		return nil, err
	}
	g := &gzipDecoder{r: r, offset: offset}
	g.m.Reset(r)
	return g, nil
}

func (g *gzipDecoder) Read(p []byte) (int, error) {
	for {
		if g.between {
			next, err := afterStream(Gzip, g.r, g.offset())
			if err != nil {
				return 0, err
			}
			if next == endOfInput {
				return 0, io.EOF
			}
			if _, err := inflate.ReadHeader(g.r); err != nil {
				return 0, err
			}
			g.m.Reset(g.r)
			g.between = false
		}
		n, err := g.m.Read(p)
		if err == io.EOF {
			// The member is complete (its CRC and size checked). Its last
			// bytes go out before anything after it is read, which on a
			// pipe may wait.
			g.between = true
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

func (g *gzipDecoder) close() {}

// GzipFollows decides what follows a complete gzip member in r, whose end
// is at offset at of the input, by the rule a Reader applies (afterStream): true
// when another member starts there (its magic number left in r), false when
// the input ends there or zero padding runs to its end. Other bytes are
// trailing data: an *Error wrapping ErrTrailingData at offset at. A member
// cut inside its magic number is an *Error wrapping io.ErrUnexpectedEOF. An
// error of r's source is returned as it is. Package zindex walks a file's
// members with it, so that an index and a Reader agree on where they end.
func GzipFollows(r *bufio.Reader, at int64) (bool, error) {
	next, err := afterStream(Gzip, r, at)
	if err == io.ErrUnexpectedEOF {
		return false, &Error{Format: Gzip, Offset: at, Err: err}
	}
	return err == nil && next == nextStream, err
}
