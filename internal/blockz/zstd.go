package blockz

import (
	"encoding/binary"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/decompress"
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
	f     *file
	off   int64    // the start of the next frame
	table []uint32 // the seek table's decompressed sizes, nil without one
	// frames counts the frames found, the index of the next one in table.
	frames int
}

const (
	zstdBlockMax  = 128 << 10  // the largest block's decompressed size
	seekableMagic = 0x8F92EAB1 // ends the seek table
	seekTableTag  = 0x184D2A5E // the magic of the skippable frame that holds it
)

func newZstdScanner(f *file) *zstdScanner {
	s := &zstdScanner{f: f}
	s.table = seekTable(f)
	return s
}

func (s *zstdScanner) format() decompress.Format { return decompress.Zstd }
func (s *zstdScanner) rest() int64               { return s.off }
func (s *zstdScanner) err() error                { return s.f.err }

func (s *zstdScanner) next() (Piece, bool) {
	for {
		h, ok := s.f.has(s.off, 8)
		if !ok {
			return Piece{}, false
		}
		magic := binary.LittleEndian.Uint32(h)
		if magic&0xfffffff0 == 0x184D2A50 { // a skippable frame
			end := s.off + 8 + int64(binary.LittleEndian.Uint32(h[4:]))
			if end > s.f.size {
				return Piece{}, false
			}
			s.off = end
			continue
		}
		if magic != 0xFD2FB528 {
			return Piece{}, false
		}
		p, ok := s.frame(s.off)
		if !ok {
			return Piece{}, false
		}
		if p.Size < 0 && s.table != nil && s.frames < len(s.table) {
			p.Size = int64(s.table[s.frames])
			p.bound = p.Size
		}
		s.frames++
		s.off += p.Length
		return p, true
	}
}

// frame reads the frame header at off and walks its blocks, returning the
// frame as a piece, and false for a frame the pieces stop at.
func (s *zstdScanner) frame(off int64) (Piece, bool) {
	h, ok := s.f.has(off, 4+14)
	if !ok {
		h = s.f.peek(off, 4+14)
	}
	n, window, size, ok := frameHeader(h)
	if !ok || window > decompress.MaxWindow {
		return Piece{}, false
	}
	checksum := h[4]&0x04 != 0
	pos, bound, ok := s.blocks(off+int64(n), int64(min(window, zstdBlockMax)))
	if !ok {
		return Piece{}, false
	}
	if checksum {
		pos += 4
	}
	if pos > s.f.size {
		return Piece{}, false
	}
	if size >= 0 {
		bound = size
	}
	return Piece{Offset: off, Length: pos - off, Size: size, bound: bound, stream: &stream{offset: off}}, true
}

// frameHeader reads a frame header (h starts with the magic number): its
// length, the frame's window and its content size (-1 when it has none);
// false for a header the pieces stop at (the reserved bit, a dictionary,
// too short).
func frameHeader(h []byte) (n int, window uint64, size int64, ok bool) {
	if len(h) < 5 {
		return 0, 0, 0, false
	}
	fhd := h[4]
	single := fhd&0x20 != 0
	if fhd&0x08 != 0 || fhd&3 != 0 {
		return 0, 0, 0, false
	}
	n = 5
	if !single {
		if len(h) < 6 {
			return 0, 0, 0, false
		}
		wd := h[5]
		base := uint64(1) << (10 + wd>>3)
		window = base + base/8*uint64(wd&7)
		n++
	}
	fcsSize := [4]int{0, 2, 4, 8}[fhd>>6]
	if single && fcsSize == 0 {
		fcsSize = 1
	}
	if len(h) < n+fcsSize {
		return 0, 0, 0, false
	}
	size = -1
	switch fcsSize {
	case 1:
		size = int64(h[n])
	case 2:
		size = int64(binary.LittleEndian.Uint16(h[n:])) + 256
	case 4:
		size = int64(binary.LittleEndian.Uint32(h[n:]))
	case 8:
		size = int64(binary.LittleEndian.Uint64(h[n:]))
	}
	if single {
		window = uint64(max(size, 1<<10))
	}
	return n + fcsSize, window, size, size >= -1
}

// blocks walks the blocks of a frame from pos, returning where the last one
// ends and the most bytes they decompress to; false for a block header the
// format does not allow or a block beyond the end of the file.
func (s *zstdScanner) blocks(pos, blockMax int64) (end, bound int64, ok bool) {
	for {
		h, ok := s.f.has(pos, 3)
		if !ok {
			return 0, 0, false
		}
		v := uint32(h[0]) | uint32(h[1])<<8 | uint32(h[2])<<16
		size := int64(v >> 3)
		pos += 3
		switch v >> 1 & 3 {
		case 0: // raw
			bound += size
			pos += size
		case 1: // RLE: one byte, size times
			bound += size
			pos++
		case 2: // compressed
			bound += blockMax
			pos += size
		case 3:
			return 0, 0, false
		}
		if size > blockMax || pos > s.f.size {
			return 0, 0, false
		}
		if v&1 != 0 {
			return pos, bound, true
		}
	}
}

// seekTable returns the decompressed sizes of the frames listed in the
// seek table at the end of the file, or nil when there is none.
func seekTable(f *file) []uint32 {
	foot, ok := f.has(f.size-9, 9)
	if !ok || binary.LittleEndian.Uint32(foot[5:]) != seekableMagic || foot[4]&0x7c != 0 {
		return nil
	}
	frames := int64(binary.LittleEndian.Uint32(foot))
	entry := int64(8)
	if foot[4]&0x80 != 0 {
		entry = 12 // with a checksum
	}
	tableSize := frames*entry + 9
	start := f.size - tableSize - 8
	if frames > f.size/entry || start < 0 {
		return nil
	}
	h, ok := f.has(start, 8)
	if !ok || binary.LittleEndian.Uint32(h) != seekTableTag || int64(binary.LittleEndian.Uint32(h[4:])) != tableSize {
		return nil
	}
	table := make([]byte, frames*entry)
	if readFull(f.ra, table, start+8) != nil {
		return nil
	}
	sizes := make([]uint32, frames)
	for i := range sizes {
		sizes[i] = binary.LittleEndian.Uint32(table[int64(i)*entry+4:])
	}
	return sizes
}

// zstdPieces decodes zstd frames with klauspost/compress's decoder, set as
// decompress sets it, in the worker's goroutine.
type zstdPieces struct {
	in *input
	d  *zstd.Decoder
	// whole is the largest frame decoded at once into out; larger ones, and
	// those of unknown size, are decoded as a stream.
	whole int64
	out   byteReader
}

func newZstdPieces(in *input, whole int64) pieceDecoder {
	d, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(decompress.MaxWindow),
		zstd.WithDecoderMaxMemory(decompress.MaxWindow))
	if err != nil {
		panic(err) // the options are fixed
	}
	return &zstdPieces{in: in, d: d, whole: whole}
}

func (z *zstdPieces) open(p *Piece) (io.Reader, error) {
	if p.bound < 0 || p.bound > z.whole {
		if err := z.d.Reset(z.in.reader(p.Offset, p.Length)); err != nil {
			return nil, err
		}
		return z.d, nil
	}
	out, err := z.appendPiece(p, z.out.b[:0])
	z.out.reset(out)
	return &z.out, err
}

// appendPiece decodes p whole, appending its bytes to dst.
func (z *zstdPieces) appendPiece(p *Piece, dst []byte) ([]byte, error) {
	in, err := z.in.bytes(p.Offset, p.Length)
	if err != nil {
		return dst, err
	}
	return z.d.DecodeAll(in, dst)
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
