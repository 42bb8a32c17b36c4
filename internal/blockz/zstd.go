package blockz

import (
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/zstdframe"
)

// Zstd frames (RFC 8878, section 3.1) decode on their own: a file of
// several, as pzstd and the seekable format write, or as cat makes, has
// them as pieces, found by walking each frame's header and block headers.
// A frame's content size is in its header when the writer knew it (zstd
// does, pzstd does not), or in the seek table of the seekable format
// (contrib/seekable_format: a skippable frame at the end listing every
// frame's compressed and decompressed sizes). Skippable frames (pzstd puts
// one before every frame) are stepped over. Frames a sequential decoder
// would refuse or treat specially (a dictionary, a window beyond
// decompress.MaxWindow, a reserved bit) end the pieces: they are read
// sequentially, which reports them as it does.
type zstdScanner struct {
	f   *file
	off int64 // the start of the next frame
	// table is the seek table's decompressed sizes, read as the frames are
	// found; nil without one.
	table *seekSizes
	// frames counts the frames found, the index of the next one in table.
	frames int64
}

func newZstdScanner(f *file) *zstdScanner {
	return &zstdScanner{f: f, table: findSeekTable(f)}
}

func (s *zstdScanner) format() decompress.Format { return decompress.Zstd }
func (s *zstdScanner) rest() int64               { return s.off }
func (s *zstdScanner) err() error                { return s.f.err }

func (s *zstdScanner) next() (Piece, bool) {
	for {
		h, ok := s.f.has(s.off, 8)
		switch {
		case !ok:
			return Piece{}, false
		case zstdframe.IsSkippable(h):
			n, _ := zstdframe.SkippableLen(h)
			if s.off+n > s.f.size {
				return Piece{}, false
			}
			s.off += n
			continue
		case !zstdframe.IsFrame(h):
			return Piece{}, false
		}
		p, ok := s.frame(s.off)
		if !ok {
			return Piece{}, false
		}
		if size, ok := s.table.size(s.frames); ok && p.Size < 0 {
			p.Size, p.bound = size, size
		}
		s.frames++
		s.off += p.Length
		return p, true
	}
}

// frame reads the frame header at off and walks its blocks, returning the
// frame as a piece, and false for a frame the pieces stop at: a header the
// sequential reader must judge (a dictionary, a reserved bit, a window
// beyond decompress.MaxWindow), or blocks that do not reach their end.
func (s *zstdScanner) frame(off int64) (Piece, bool) {
	h, err := zstdframe.ParseHeader(s.f.peek(off, zstdframe.MaxHeaderLen))
	if err != nil || h.DictID != 0 || h.Window > decompress.MaxWindow {
		return Piece{}, false
	}
	pos, bound, ok := s.blocks(off+int64(h.Len), int64(min(h.Window, zstdframe.BlockMax)))
	if !ok {
		return Piece{}, false
	}
	if h.Checksum {
		pos += 4
	}
	if pos > s.f.size {
		return Piece{}, false
	}
	if h.ContentSize >= 0 {
		bound = h.ContentSize
	}
	return Piece{Offset: off, Length: pos - off, Size: h.ContentSize, bound: bound, stream: &stream{offset: off}}, true
}

// blocks walks the blocks of a frame from pos, returning where the last one
// ends and the most bytes they decompress to; false for a block header the
// format does not allow or a block beyond the end of the file.
func (s *zstdScanner) blocks(pos, blockMax int64) (end, bound int64, ok bool) {
	for {
		b, err := zstdframe.ParseBlock(s.f.peek(pos, zstdframe.BlockHeaderLen))
		if err != nil || b.Size > blockMax {
			return 0, 0, false
		}
		pos += zstdframe.BlockHeaderLen + b.Bytes()
		bound += b.Bound(blockMax)
		if pos > s.f.size {
			return 0, 0, false
		}
		if b.Last {
			return pos, bound, true
		}
	}
}

// seekSizes are the decompressed sizes of the frames a seek table at the
// end of the file lists, read as they are asked for, through a window of
// their own: a table of any length costs a window of memory (a sparse
// file of a terabyte can claim four billion frames for nothing).
type seekSizes struct {
	f     file
	table zstdframe.SeekTable
}

// findSeekTable returns the seek table at the end of f, or nil when there
// is none.
func findSeekTable(f *file) *seekSizes {
	foot, ok := f.has(f.size-zstdframe.SeekFooterLen, zstdframe.SeekFooterLen)
	if !ok {
		return nil
	}
	t, ok := zstdframe.ParseSeekFooter(foot, f.size)
	if !ok {
		return nil
	}
	if h, ok := f.has(t.Start, zstdframe.SkippableHeaderLen); !ok || !t.CheckSeekHeader(h) {
		return nil
	}
	return &seekSizes{f: file{ra: f.ra, size: f.size}, table: t}
}

// size returns the decompressed size of frame i, if the table lists it.
func (t *seekSizes) size(i int64) (int64, bool) {
	if t == nil || i >= t.table.Frames {
		return 0, false
	}
	e, ok := t.f.has(t.table.Entries+i*t.table.EntrySize, int(t.table.EntrySize))
	if !ok {
		return 0, false
	}
	_, size := t.table.Entry(e)
	return size, true
}

// zstdPieces decodes zstd frames with the project's zstd decoder
// (zstdframe.NewDecoder, as decompress sets it), in the worker's goroutine.
type zstdPieces struct {
	in *input
	d  *zstd.Decoder
	// whole is the largest frame decoded at once into out; larger ones, those
	// of unknown size, and those of more than maxSpan compressed bytes (which
	// are not read whole into memory) are decoded as a stream.
	whole int64
	out   byteReader
}

func newZstdPieces(in *input, whole int64) pieceDecoder {
	d, err := zstdframe.NewDecoder(nil, decompress.MaxWindow)
	if err != nil {
		panic(err) // the options are fixed
	}
	return &zstdPieces{in: in, d: d, whole: whole}
}

func (z *zstdPieces) open(p *Piece) (io.Reader, error) {
	if p.bound < 0 || p.bound > z.whole || p.Length > maxSpan {
		if err := z.d.Reset(z.in.reader(p.Offset, p.Length)); err != nil {
			return nil, err
		}
		return z.d, nil
	}
	out, err := z.appendPiece(p, z.out.b[:0])
	z.out.reset(out)
	return &z.out, err
}

// appendPiece decodes p whole, appending its bytes to dst, whose capacity
// holds p's bound. A frame of more than maxSpan compressed bytes is decoded
// as a stream into dst: its compressed bytes are not held.
func (z *zstdPieces) appendPiece(p *Piece, dst []byte) ([]byte, error) {
	if p.Length > maxSpan {
		if err := z.d.Reset(z.in.reader(p.Offset, p.Length)); err != nil {
			return dst, err
		}
		return appendAll(dst, z.d, p)
	}
	in, err := z.in.bytes(p.Offset, p.Length)
	if err != nil {
		return dst, err
	}
	return z.d.DecodeAll(in, dst)
}

// appendAll appends what r gives to dst up to its capacity, and an error if
// r gives more: piece p decodes to more than its bound.
func appendAll(dst []byte, r io.Reader, p *Piece) ([]byte, error) {
	var extra [1]byte
	for {
		buf := dst[len(dst):cap(dst)]
		if len(buf) == 0 {
			buf = extra[:]
		}
		n, err := r.Read(buf)
		if len(dst) == cap(dst) && n > 0 {
			return dst, fmt.Errorf("blockz: a piece at %d decodes to more than the %d bytes its structure gives", p.Offset, p.bound)
		}
		dst = dst[:len(dst)+n]
		switch {
		case err == io.EOF:
			return dst, nil
		case err != nil:
			return dst, err
		}
	}
}

func (z *zstdPieces) result() pieceResult { return pieceResult{} }

// byteReader reads a slice it owns, kept for reuse.
type byteReader struct {
	b []byte
	i int
}

func (r *byteReader) reset(b []byte) { r.b, r.i = b, 0 }

func (r *byteReader) Read(p []byte) (int, error) {
	if r.i == len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.i:])
	r.i += n
	return n, nil
}
