package decompress

import (
	"bufio"
	"io"

	"github.com/klauspost/compress/gzip"
)

// gzipDecoder decodes the members of a gzip file one at a time, so that
// what follows each is decided here (see follow) and not by the gzip
// reader, which takes anything after a member for the header of another.
type gzipDecoder struct {
	z      *gzip.Reader
	r      *bufio.Reader
	offset func() int64 // the input offset of r's next byte

	// between: the last member has ended and what follows it is not yet
	// known. The gzip reader reads r as a byte reader, so that it consumes
	// exactly the bytes of its member.
	between bool
}

func newGzipDecoder(r *bufio.Reader, offset func() int64) (*gzipDecoder, error) {
	z, err := gzip.NewReader(r) // reads the first member's header
	if err != nil {
		return nil, err
	}
	z.Multistream(false)
	return &gzipDecoder{z: z, r: r, offset: offset}, nil
}

func (g *gzipDecoder) Read(p []byte) (int, error) {
	for {
		if g.between {
			next, err := follow(Gzip, g.r, nil, g.offset())
			if err != nil {
				return 0, err
			}
			if next == endOfInput {
				return 0, io.EOF
			}
			if err := g.z.Reset(g.r); err != nil {
				return 0, err
			}
			g.z.Multistream(false)
			g.between = false
		}
		n, err := g.z.Read(p)
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
