package blockz

import (
	"fmt"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
)

// The text of an index (zindex's ReaderAt: a gzip file's spans between
// access points, each decoded from its own point) is read in order by the
// same fetcher as a file of pieces: each span is a piece whose bytes are the
// text itself, read by a worker through the text's ReadAt, so that the
// spans ahead are decoded while the reader takes the one before.

// NewSpanReader returns a Reader of text[0:size), the text of a compressed
// file at any offset (safe for concurrent ReadAt calls, as io.ReaderAt
// requires), read in order by opt.Workers goroutines: each takes a run of
// the spans between points (the offsets where a read of text decodes
// nothing before it, increasing), of at least 4 MiB where the points allow,
// and reads it with ReadAt, while the reader takes the runs in order. It
// yields the text's bytes, then end (io.EOF when nil): the error a
// sequential read of the file ends with after its text (trailing data after
// the last gzip member), which text does not give. A ReadAt that fails ends
// the stream there: every byte before the failure, then its error. Window,
// memory bound, panics and Close are as for NewReader.
func NewSpanReader(text io.ReaderAt, size int64, points []int64, end error, opt Options) *Reader {
	if end == nil {
		end = io.EOF
	}
	opt = opt.withDefaults()
	src := source{
		ra:      text,
		size:    size,
		scan:    &spanScanner{points: points, size: size},
		seq:     plainSequencer{},
		decoder: func(*input) pieceDecoder { return &spanPieces{text: text} },
		after: func(off int64) io.ReadCloser {
			return io.NopCloser(io.MultiReader(&textReader{text: text, off: off, size: size}, errorReader{end}))
		},
	}
	return start(src, opt)
}

// spanScanner gives the spans between points as pieces, each a stream of
// its own (a span that fails is read again alone, from its start).
type spanScanner struct {
	points []int64
	size   int64
	// off is where the next span starts (size once there are none); the
	// points before at are at or before it.
	off int64
	at  int
}

func (s *spanScanner) next() (Piece, bool) {
	if s.off >= s.size {
		return Piece{}, false
	}
	end := s.size
	for ; s.at < len(s.points); s.at++ {
		if p := s.points[s.at]; p > s.off && p < s.size {
			end = p
			break
		}
	}
	p := Piece{Offset: s.off, Length: end - s.off, Size: end - s.off, bound: end - s.off, stream: &stream{offset: s.off}}
	s.off = end
	return p, true
}

func (s *spanScanner) rest() int64               { return s.size }
func (s *spanScanner) err() error                { return nil }
func (s *spanScanner) format() decompress.Format { return decompress.None }

// spanPieces reads spans of the text: their bytes are the text's.
type spanPieces struct {
	text io.ReaderAt
	r    textReader
}

func (d *spanPieces) open(p *Piece) (io.Reader, error) {
	d.r = textReader{text: d.text, off: p.Offset, size: p.Offset + p.Length}
	return &d.r, nil
}

// appendPiece reads span p into dst, whose capacity holds it.
func (d *spanPieces) appendPiece(p *Piece, dst []byte) ([]byte, error) {
	b := dst[len(dst) : len(dst)+int(p.Length)]
	if err := readFull(d.text, b, p.Offset); err != nil {
		return dst, err
	}
	return dst[:len(dst)+len(b)], nil
}

func (d *spanPieces) result() pieceResult { return pieceResult{} }

// textReader reads text[off:size) in order; a text that ends before size
// is an unexpected end of data.
type textReader struct {
	text      io.ReaderAt
	off, size int64
}

func (t *textReader) Read(p []byte) (int, error) {
	if t.off >= t.size {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), t.size-t.off)]
	n, err := t.text.ReadAt(p, t.off)
	t.off += int64(n)
	switch {
	case n == len(p):
		return n, nil
	case err == nil || err == io.EOF:
		err = fmt.Errorf("blockz: the text ends at %d, before its size %d: %w", t.off, t.size, io.ErrUnexpectedEOF)
	}
	return n, err
}

// errorReader reads nothing and returns err.
type errorReader struct{ err error }

func (e errorReader) Read([]byte) (int, error) { return 0, e.err }
