package zindex

import (
	"errors"
	"io"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

// pieceState is a cursor's state in an index of pieces (FromStructure's):
// every point is a piece that decodes on its own, so that the cursor reads
// the piece of one point to its end, then the next point's.
type pieceState struct {
	ix  *Index
	dec *blockz.Decoder // the pieces' decoder, over the compressed file
	// point is the point whose piece r reads.
	point int
	r     io.Reader
	skip  []byte // scratch for the bytes a read discards before its offset
}

// start opens the piece of point i.
func (s *pieceState) start(src io.ReaderAt, ix *Index, i int) error {
	if s.dec == nil || s.ix != ix {
		dec, err := blockz.NewDecoder(src, ix.file.size, decompress.Format(ix.format))
		if err != nil {
			return err
		}
		s.dec, s.ix = dec, ix
	}
	return s.open(i)
}

// open opens the piece of point i, which decodes to the text up to the next
// point (or the end).
func (s *pieceState) open(i int) error {
	pt := &s.ix.points[i]
	end := s.ix.size
	if i+1 < len(s.ix.points) {
		end = s.ix.points[i+1].out
	}
	s.point, s.r = i, nil
	r, err := s.dec.Open(pt.stream, pt.in/8, end-pt.out)
	if err != nil {
		return s.fault(err)
	}
	s.r = r
	return nil
}

// readAt fills p with the text at off, from where *pos stands (*pos <=
// off, off+len(p) <= the size), moving *pos on.
func (s *pieceState) readAt(pos *int64, p []byte, off int64) (int, error) {
	for *pos < off {
		if s.skip == nil {
			s.skip = make([]byte, 32<<10)
		}
		n, err := s.read(pos, s.skip[:min(int64(len(s.skip)), off-*pos)])
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, s.fault(io.ErrUnexpectedEOF)
		}
	}
	done := 0
	for done < len(p) {
		n, err := s.read(pos, p[done:])
		done += n
		if err != nil {
			return done, err
		}
		if n == 0 {
			return done, s.fault(io.ErrUnexpectedEOF)
		}
	}
	return done, nil
}

// read reads what the current piece gives into p, going on to the next
// point's piece at the end of one; 0 bytes only at the end of the text.
func (s *pieceState) read(pos *int64, p []byte) (int, error) {
	for empty := 0; empty < 100; empty++ {
		n, err := s.r.Read(p)
		*pos += int64(n)
		switch {
		case err == io.EOF && s.point+1 < len(s.ix.points):
			if err := s.open(s.point + 1); err != nil || n > 0 {
				return n, err
			}
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, s.fault(err)
		case n > 0:
			return n, nil
		}
	}
	return 0, s.fault(io.ErrNoProgress)
}

// fault returns the error of a piece that does not decode: damage in the
// file (its structure was not checked by decoding when the index was made)
// or a file that changed in the middle, reported as decompress reports
// damage, with the piece's compressed offset.
func (s *pieceState) fault(err error) error {
	var de *decompress.Error
	if errors.As(err, &de) {
		err = de.Err // an xz block's decoder's, at an offset in the block
	}
	return &decompress.Error{Format: decompress.Format(s.ix.format), Offset: s.ix.points[s.point].in / 8, Err: err}
}
