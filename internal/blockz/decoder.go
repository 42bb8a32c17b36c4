package blockz

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/zstdframe"
)

// Stream returns the offset of the stream the piece belongs to: where a
// sequential read of it would start (the piece's own offset for a BGZF
// member or a zstd frame, its stream's header for an xz block). An index
// that keeps a piece by its offsets keeps this one too (Decoder.Open).
func (p *Piece) Stream() int64 { return p.stream.offset }

// Decoder decodes single pieces of a file whose structure gives their
// sizes (BGZF members, xz blocks, zstd frames) at the offsets an index kept
// of them, without a Layout: each piece is found again from its own headers,
// as Scan found it, and decoded by the decoder a Reader's worker uses, with
// the same checks. Its decoders serve piece after piece. A Decoder is not
// safe for concurrent use.
type Decoder struct {
	format decompress.Format
	f      *file // the headers, read through a window
	d      pieceDecoder
	// piece is the piece opened last; its stream is st, whose xz flags were
	// read from the header at st.offset.
	piece Piece
	st    stream
}

// NewDecoder returns a Decoder of the pieces of ra[0:size), a file of the
// given format; ErrNoStructure for a format whose pieces do not say their
// sizes (bzip2, lz4) or none.
func NewDecoder(ra io.ReaderAt, size int64, format decompress.Format) (*Decoder, error) {
	switch format {
	case decompress.Gzip, decompress.Xz, decompress.Zstd:
	default:
		return nil, ErrNoStructure
	}
	d := &Decoder{format: format, f: &file{ra: ra, size: size}, st: stream{offset: -1}}
	d.d = newPieceDecoder(format, &input{ra: ra}, size, DefaultJobMemory)
	return d, nil
}

// Open returns a reader of the decompressed bytes of the piece at offset
// off, in the stream that starts at stream (Piece.Stream), which the index
// says decompress to size bytes. Reading it to io.EOF means the piece passed
// its checks (its checksum, its size, its end where its headers say); a
// piece whose headers are not there, or give another size, is an error. The
// reader is valid until the next Open.
func (d *Decoder) Open(stream, off, size int64) (io.Reader, error) {
	p, err := d.find(stream, off)
	if err != nil {
		return nil, err
	}
	if p.Size >= 0 && p.Size != size {
		return nil, fmt.Errorf("blockz: the %s piece at %d decodes to %d bytes, not %d", d.format, off, p.Size, size)
	}
	p.Size, p.bound = size, size
	d.piece = p
	r, err := d.d.open(&d.piece)
	if err != nil {
		return nil, err
	}
	return &checkedPiece{r: r, p: &d.piece}, nil
}

// find returns the piece at off as its headers give it.
func (d *Decoder) find(stream, off int64) (Piece, error) {
	d.f.err = nil
	var p Piece
	ok := false
	switch d.format {
	case decompress.Gzip:
		s := bgzfScanner{f: d.f, off: off}
		p, ok = s.next()
	case decompress.Zstd:
		if h, has := d.f.has(off, 4); has && zstdframe.IsFrame(h) {
			s := zstdScanner{f: d.f}
			p, ok = s.frame(off)
		}
	case decompress.Xz:
		p, ok = d.xzBlock(stream, off)
	}
	switch {
	case d.f.err != nil:
		return Piece{}, d.f.err
	case !ok:
		return Piece{}, fmt.Errorf("blockz: no %s piece at %d", d.format, off)
	}
	return p, nil
}

// xzBlock returns the xz block at off in the stream whose header is at at:
// its sizes
// from its header, its check from the stream's.
func (d *Decoder) xzBlock(at, off int64) (Piece, bool) {
	if d.st.offset != at {
		h, ok := d.f.has(at, 12)
		if !ok || !bytes.Equal(h[:6], xzMagic) || h[6] != 0 || !xzKnownCheck(h[7]) ||
			crc32.ChecksumIEEE(h[6:8]) != binary.LittleEndian.Uint32(h[8:]) {
			return Piece{}, false
		}
		d.st = stream{offset: at, xzFlags: [2]byte{h[6], h[7]}}
	}
	if b, ok := d.f.has(off, 1); !ok || b[0] == 0 {
		return Piece{}, false // the index, not a block
	}
	s := xzScanner{f: d.f}
	hsize, csize, usize, ok := s.blockHeader(off)
	if !ok {
		return Piece{}, false
	}
	u := hsize + csize + xzCheckSize(d.st.xzFlags[1])
	length := u + (4-u%4)%4
	if off+length > d.f.size {
		return Piece{}, false
	}
	st := d.st
	return Piece{Offset: off, Length: length, Size: usize, bound: usize, stream: &st, unpadded: u}, true
}
