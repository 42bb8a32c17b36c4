package blockz

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
)

// BGZF (the SAM/BAM specification, section 4.1) is a series of gzip
// members, each with an extra subfield "BC" giving the member's size
// (BSIZE, the size minus one), and ending with its decompressed size
// (ISIZE) as every gzip member does: the members are found by their sizes,
// one header after another, without decoding. A gzip member without the
// subfield (a plain .gz, or one appended to a BGZF file) ends the pieces:
// it is read sequentially.
type bgzfScanner struct {
	f   *file
	off int64 // the start of the next member
}

func newBgzfScanner(f *file) *bgzfScanner { return &bgzfScanner{f: f} }

func (s *bgzfScanner) format() decompress.Format { return decompress.Gzip }
func (s *bgzfScanner) rest() int64               { return s.off }
func (s *bgzfScanner) err() error                { return s.f.err }

// maxDeflateRatio bounds how many bytes deflate decodes from one compressed
// byte (258 bytes from a 2-bit code, with some slack): a member shorter
// than 4 GiB / maxDeflateRatio has the true size in its 32-bit ISIZE.
const maxDeflateRatio = 1032

func (s *bgzfScanner) next() (Piece, bool) {
	length, ok := s.member(s.off)
	if !ok {
		return Piece{}, false
	}
	tail, ok := s.f.has(s.off+length-4, 4)
	if !ok {
		return Piece{}, false
	}
	size := int64(binary.LittleEndian.Uint32(tail))
	p := Piece{Offset: s.off, Length: length, Size: size, bound: size, stream: &stream{offset: s.off}}
	if length >= 1<<32/maxDeflateRatio {
		p.Size, p.bound = -1, -1
	}
	s.off += length
	return p, true
}

// member returns the length of the BGZF member at off, as its header says,
// and whether there is one, whole in the file.
func (s *bgzfScanner) member(off int64) (int64, bool) {
	h, ok := s.f.has(off, 12)
	if !ok || h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 || h[3]&0x04 == 0 || h[3]&0xe0 != 0 {
		return 0, false // not a gzip member with an extra field
	}
	xlen := int(binary.LittleEndian.Uint16(h[10:]))
	extra, ok := s.f.has(off+12, min(xlen, maxPeek))
	if !ok {
		return 0, false
	}
	for len(extra) >= 4 {
		slen := int(binary.LittleEndian.Uint16(extra[2:]))
		if slen > len(extra)-4 {
			break
		}
		if extra[0] == 'B' && extra[1] == 'C' && slen == 2 {
			length := int64(binary.LittleEndian.Uint16(extra[4:])) + 1
			// The header, an empty deflate block and the trailer at least.
			if length < int64(12+xlen+2+8) || off+length > s.f.size {
				return 0, false
			}
			return length, true
		}
		extra = extra[4+slen:]
	}
	return 0, false
}

// gzipPieces decodes gzip members with internal/inflate, as decompress
// does, reading each member's bytes in place.
type gzipPieces struct {
	in  *input
	src sliceSource
	m   inflate.Member
	// piece is the member being decoded.
	piece gzipPiece
}

func (d *gzipPieces) open(p *Piece) (io.Reader, error) {
	b, err := d.in.bytes(p.Offset, p.Length)
	if err != nil {
		return nil, err
	}
	d.src = sliceSource{b: b}
	if _, err := inflate.ReadHeader(&d.src); err != nil {
		return nil, err
	}
	d.m.Reset(&d.src)
	d.piece = gzipPiece{d: d, p: p}
	return &d.piece, nil
}

func (d *gzipPieces) result() pieceResult { return pieceResult{} }

// gzipPiece reads one member, which must end at the end of its bytes.
type gzipPiece struct {
	d *gzipPieces
	p *Piece
}

var errShortMember = errors.New("blockz: a gzip member ends before the size in its header")

func (g *gzipPiece) Read(b []byte) (int, error) {
	n, err := g.d.m.Read(b)
	if err == io.EOF && g.d.src.Buffered() != 0 {
		err = errShortMember
	}
	return n, err
}

// sliceSource is a byte slice as an inflate.Source: the decoder reads it
// in place.
type sliceSource struct{ b []byte }

func (s *sliceSource) Peek(n int) ([]byte, error) {
	if n > len(s.b) {
		return s.b, io.EOF
	}
	return s.b[:n], nil
}

func (s *sliceSource) Discard(n int) (int, error) {
	if n > len(s.b) {
		n = len(s.b)
		s.b = s.b[n:]
		return n, io.EOF
	}
	s.b = s.b[n:]
	return n, nil
}

func (s *sliceSource) Buffered() int { return len(s.b) }

// readFull reads len(b) bytes at off: the file ending before them is an
// unexpected end of data.
func readFull(ra io.ReaderAt, b []byte, off int64) error {
	n, err := ra.ReadAt(b, off)
	switch {
	case n == len(b):
		return nil
	case err == io.EOF || err == nil:
		return fmt.Errorf("blockz: %d bytes at %d: %w", len(b), off, io.ErrUnexpectedEOF)
	}
	return err
}
