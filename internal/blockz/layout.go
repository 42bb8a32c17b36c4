package blockz

import (
	"errors"
	"fmt"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
)

// ErrNoStructure is returned by NewReader for a file whose structure gives
// fewer than two pieces to decode in parallel (a plain single-member gzip
// file, a one-block xz file, a one-frame zstd file, plain text): the caller
// decodes it sequentially, as decompress.NewReader does.
var ErrNoStructure = errors.New("blockz: no pieces to decode in parallel")

// Piece is one independently decodable piece of a compressed file: a BGZF
// member, a bzip2 block, an xz block, a zstd frame, an lz4 frame or an
// independent lz4 block.
type Piece struct {
	// Offset and Length are the compressed bytes of the piece: its first byte
	// and how many follow from there. A bzip2 block starts and ends inside
	// bytes: it starts at bit Bit of the byte at Offset (0 is the most
	// significant bit), and its Length reaches the next block found.
	Offset int64
	Length int64
	Bit    uint8

	// Size is the decompressed size, or -1 when the structure does not give
	// it (a zstd frame without a content size and no seek table, an lz4
	// frame without one, a bzip2 block).
	Size int64

	// stream is the stream the piece belongs to: where a sequential read of
	// it would start, and what its decoder needs to know of its header.
	stream *stream
	// bound is the most bytes the piece can decompress to, as its structure
	// says (Size when known; a zstd frame's blocks times the largest block);
	// -1 when there is no such bound.
	bound int64
	// flags are the format's marks of the piece (lz4's: a whole frame, a
	// stored block, a checksum after it, the frame's last block).
	flags uint8
	// unpadded is an xz block's unpadded size (its index record's: the
	// block without its padding).
	unpadded int64
}

// end is the offset after the piece's bytes, an lz4 block's checksum
// included.
func (p *Piece) end() int64 {
	if p.flags&lz4Checked != 0 {
		return p.Offset + p.Length + 4
	}
	return p.Offset + p.Length
}

// stream is a stream of the file, as the formats define it (a gzip member,
// a zstd or lz4 frame, an xz or bzip2 stream): the unit a sequential reader
// restarts at, since what it reads after a complete stream does not depend
// on what came before.
type stream struct {
	offset int64 // where the stream starts in the file

	// xzFlags are an xz stream's flags (its check's type).
	xzFlags [2]byte
	// bzLevel is a bzip2 stream's level ('1' to '9'), its largest block in
	// units of 100,000 bytes.
	bzLevel int
	// lz4 is an lz4 frame's descriptor, for the checks made on the whole
	// frame when its blocks are pieces.
	lz4 lz4Frame
}

// Layout is the structure of a compressed file: the pieces that decode on
// their own, in file order, found without decoding them.
//
// The pieces are every piece of the streams from the start of the file up
// to Rest. What follows Rest is read as a sequential decoder reads what
// follows a complete stream (decompress.NewReaderAfter): nothing, zero
// padding or trailing data when the structure was followed to the end, or
// the streams the structure could not be followed through (a plain gzip
// member among BGZF ones, an xz stream without block sizes, damage), which
// a sequential decoder then reads.
//
// For bzip2 the pieces are every match of the 48-bit block magic within the
// streams; a match inside compressed data, which happens by chance once in
// about 2^48 bits, is told apart only by decoding (Reader does): the blocks
// are the matches where the previous block's decoding ends.
type Layout struct {
	Format decompress.Format
	Pieces []Piece
	Rest   int64 // the offset where the pieces' streams end
	Size   int64 // the size of the file
}

// Covers reports whether the pieces are every stream of the file: what
// follows Rest is nothing or zero bytes. (A Layout that does not cover its
// file still decodes it: the rest is read sequentially.)
func (l *Layout) Covers(ra io.ReaderAt) bool {
	buf := make([]byte, 64<<10)
	for off := l.Rest; off < l.Size; {
		n, err := ra.ReadAt(buf[:min(int64(len(buf)), l.Size-off)], off)
		for _, c := range buf[:n] {
			if c != 0 {
				return false
			}
		}
		off += int64(n)
		if err != nil && off < l.Size {
			return false
		}
	}
	return true
}

// PieceReader returns a reader of the decompressed bytes of piece i alone
// (ra is the file l was scanned from): reading it to io.EOF means the piece
// passed its own checks (its checksum, its size, that it ends where its
// structure says). The checks of a stream as a whole are not the piece's:
// an lz4 frame's content checksum, a bzip2 stream's CRC, whether a bzip2
// match is a block (a false match fails to decode, almost always). zindex
// reads a block format's pieces with it. Each call makes a decoder (a few
// hundred KiB of tables and buffers); a PieceDecoder keeps one for many
// pieces.
func (l *Layout) PieceReader(ra io.ReaderAt, i int) (io.Reader, error) {
	return l.Decoder(ra).Open(i)
}

// PieceDecoder reads a Layout's pieces one at a time, as PieceReader does,
// with one decoder whose state serves piece after piece. It is not safe for
// concurrent use; the reader Open returns is valid until the next Open.
type PieceDecoder struct {
	l *Layout
	d pieceDecoder
}

// Decoder returns a PieceDecoder of l's pieces in ra, the file l was
// scanned from.
func (l *Layout) Decoder(ra io.ReaderAt) *PieceDecoder {
	pd := &PieceDecoder{l: l}
	if l.Format != decompress.None {
		pd.d = newPieceDecoder(l.Format, &input{ra: ra}, l.Size, DefaultJobMemory)
	}
	return pd
}

// Open returns a reader of piece i's decompressed bytes.
func (pd *PieceDecoder) Open(i int) (io.Reader, error) {
	if pd.d == nil {
		return nil, ErrNoStructure
	}
	p := &pd.l.Pieces[i]
	r, err := pd.d.open(p)
	if err != nil {
		return nil, err
	}
	return &checkedPiece{r: r, p: p}, nil
}

// checkedPiece reads a piece, checking its size at the end.
type checkedPiece struct {
	r io.Reader
	p *Piece
	n int64
}

func (c *checkedPiece) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	if c.p.bound >= 0 && c.n > c.p.bound {
		return n, fmt.Errorf("blockz: a piece at %d decodes to more than the %d bytes its structure gives", c.p.Offset, c.p.bound)
	}
	if err == io.EOF {
		if e := checkSize(c.p, c.n); e != nil {
			return n, e
		}
	}
	return n, err
}

// Scan returns the layout of the compressed file ra[0:size), found from its
// format's own structure without decoding it: BGZF members from the sizes
// in their headers, xz blocks from their headers and the stream's index,
// zstd frames from their frame and block headers (with their content sizes
// from the headers or the seek table of the seekable format), lz4 frames and
// their independent blocks, bzip2 blocks from their magic numbers. A file of
// no format decompress recognises, or one whose first stream's structure
// cannot be followed, has no pieces (Rest is 0). An error of ra other than
// io.EOF ends the scan where it happened; the pieces before it are
// returned with it.
func Scan(ra io.ReaderAt, size int64) (*Layout, error) {
	s := newScanner(ra, size)
	l := &Layout{Format: s.format(), Size: size}
	for {
		p, ok := s.next()
		if !ok {
			break
		}
		l.Pieces = append(l.Pieces, p)
	}
	l.Rest = s.rest()
	return l, s.err()
}

// A scanner finds one format's pieces, in file order.
type scanner interface {
	// next returns the next piece, or false when there are no more: the
	// pieces' streams end at rest.
	next() (Piece, bool)
	rest() int64
	// err is the error of the file's ReaderAt that stopped the scan, if one
	// did.
	err() error
	format() decompress.Format
}

// newScanner returns the scanner of the format of ra's first bytes, or one
// that finds nothing.
func newScanner(ra io.ReaderAt, size int64) scanner {
	f := &file{ra: ra, size: size}
	head := f.peek(0, 64)
	switch decompress.Detect(head) {
	case decompress.Gzip:
		return newBgzfScanner(f)
	case decompress.Zstd:
		return newZstdScanner(f)
	case decompress.Xz:
		return newXzScanner(f)
	case decompress.Lz4:
		return newLz4Scanner(f)
	case decompress.Bzip2:
		return newBzip2Scanner(f)
	}
	return &noScanner{f: f}
}

// noScanner finds no pieces in a file of no format.
type noScanner struct{ f *file }

func (s *noScanner) next() (Piece, bool)       { return Piece{}, false }
func (s *noScanner) rest() int64               { return 0 }
func (s *noScanner) err() error                { return s.f.err }
func (s *noScanner) format() decompress.Format { return decompress.None }
