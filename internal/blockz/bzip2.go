package blockz

import (
	"bytes"
	"io"
	"slices"

	"github.com/foreachio/foreach/internal/bzblock"
	"github.com/foreachio/foreach/internal/decompress"
)

// Bzip2 blocks (of at most 900,000 bytes before the final run-length
// coding) decode on their own, but nothing says where they are: a block
// starts at any bit, with a 48-bit magic number, and ends where the next
// block's magic (or the stream's end marker) starts. The scanner finds
// every match of the block magic, chunk by chunk, as lbzip2 does; a match
// may lie inside a block's compressed data (once in about 2^48 bits by
// chance, or on purpose), which only decoding tells. So each match is a
// piece, decoded by internal/bzblock, which says where its block ends; the
// sequencer takes the pieces in order, keeping the one that starts where
// the block before ended and dropping the others, checks each stream's CRC
// at its end marker and follows the streams that come after it. The
// stream's level (its largest block) comes from the "BZh1"-"BZh9" header
// before the first block; the sequencer checks it too.
type bzip2Scanner struct {
	f *file
	// scanned is the file offset up to which matches have been looked
	// for; found holds the matches found and not yet given.
	scanned int64
	found   []Piece
	// st is the stream the matches being found belong to, as the scanner
	// sees it: the last header followed by a block.
	st *stream
}

// scanChunk is the number of bytes looked through for matches at once.
const scanChunk = 1 << 20

func newBzip2Scanner(f *file) *bzip2Scanner {
	s := &bzip2Scanner{f: f, st: &stream{bzLevel: 9}}
	if level, ok := bzblock.Level(f.peek(0, bzblock.HeaderSize)); ok {
		s.st.bzLevel = level
	}
	return s
}

func (s *bzip2Scanner) format() decompress.Format { return decompress.Bzip2 }
func (s *bzip2Scanner) err() error                { return s.f.err }

// rest is never used: the sequencer decides where the bzip2 streams end.
func (s *bzip2Scanner) rest() int64 { return s.scanned }

func (s *bzip2Scanner) next() (Piece, bool) {
	// Two matches at hand, so that the first's length reaches the second.
	for len(s.found) < 2 && s.scanned < s.f.size && s.f.err == nil {
		s.scan()
	}
	if len(s.found) == 0 {
		return Piece{}, false
	}
	p := s.found[0]
	s.found = s.found[1:]
	if len(s.found) > 0 {
		// The piece reaches the next match; a false one is read past.
		q := s.found[0]
		p.Length = q.Offset - p.Offset + 1
	}
	return p, true
}

// scan looks for the matches that start in the next chunk.
func (s *bzip2Scanner) scan() {
	start := s.scanned
	n := min(scanChunk, s.f.size-start)
	buf := make([]byte, n+7)
	k, err := s.f.ra.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		s.f.err = err
		return
	}
	buf = buf[:k]
	for _, bit := range findMagics(buf[:min(int64(len(buf)), n+6)], int(n)) {
		off := start + int64(bit/8)
		if level, ok := bzblock.Level(buf[max(0, bit/8-bzblock.HeaderSize) : bit/8]); ok && bit%8 == 0 {
			s.st = &stream{offset: off - bzblock.HeaderSize, bzLevel: level}
		}
		p := Piece{Offset: off, Bit: uint8(bit % 8), Length: s.f.size - off, Size: -1, bound: -1, stream: s.st}
		s.found = append(s.found, p)
	}
	s.scanned = start + n
}

// magicNeedles are, for each bit at which the block magic may start in a
// byte, four bytes that it fills whole: the second to the fifth of the
// seven (or six) bytes it spans.
var magicNeedles = func() (n [8][4]byte) {
	for s := range 8 {
		w := uint64(bzblock.BlockMagic) << (8 - s) // the magic's bits in a 56-bit window
		for k := range 4 {
			n[s][k] = byte(w >> (48 - 8*(k+1)))
		}
	}
	return n
}()

// findMagics returns the bit offsets in buf of the block magic numbers that
// start in its first limit bytes, in order.
func findMagics(buf []byte, limit int) []int64 {
	var out []int64
	for s := range 8 {
		needle := magicNeedles[s][:]
		for i := 0; ; {
			j := bytes.Index(buf[i:], needle)
			if j < 0 {
				break
			}
			b := i + j - 1 // the byte the magic starts in
			i += j + 1
			if b < 0 || b >= limit {
				continue
			}
			bit := int64(b)*8 + int64(s)
			if bzblock.Bits48(buf, bit) == bzblock.BlockMagic {
				out = append(out, bit)
			}
		}
	}
	slices.Sort(out) // eight sorted runs, one per needle
	return out
}

// bzipBlockEnd is what a bzip2 piece's decoding tells the sequencer: where
// its block ends (a bit offset in the file) and its CRC.
type bzipBlockEnd struct {
	end int64
	crc uint32
}

// bzip2Pieces decodes bzip2 blocks with internal/bzblock.
type bzip2Pieces struct {
	ra   io.ReaderAt
	size int64
	d    bzblock.Decoder
	in   []byte
	res  bzipBlockEnd
}

func newBzip2Pieces(ra io.ReaderAt, size int64) pieceDecoder {
	return &bzip2Pieces{ra: ra, size: size}
}

func (z *bzip2Pieces) open(p *Piece) (io.Reader, error) {
	// The piece's bytes and some more; more again if the block goes on (a
	// false match inside it ends the piece too early), up to the largest
	// block of its level: a match that decodes past it is no block.
	maxBlock := int64(bzblock.MaxBlockBytes(p.stream.bzLevel)) + 1
	n := min(p.Length+64<<10, z.size-p.Offset, maxBlock)
	for {
		if int64(cap(z.in)) < n {
			z.in = make([]byte, n)
		}
		in := z.in[:n]
		if err := readFull(z.ra, in, p.Offset); err != nil {
			return nil, err
		}
		b, err := z.d.Decode(in, uint(p.Bit), p.stream.bzLevel)
		if err == bzblock.ErrShort && p.Offset+n < z.size && n < maxBlock {
			n = min(2*n, z.size-p.Offset, maxBlock)
			continue
		}
		if err != nil {
			return nil, err
		}
		z.res = bzipBlockEnd{end: p.Offset*8 + int64(p.Bit) + b.End(), crc: b.CRC()}
		return b, nil
	}
}

func (z *bzip2Pieces) result() pieceResult { return pieceResult{bz: z.res} }

// bzip2Sequencer follows the blocks and streams of a bzip2 file as the
// sequential reader (internal/decompress) does, with the pieces the workers decoded.
type bzip2Sequencer struct {
	ra   io.ReaderAt
	size int64
	// expect is the bit offset where the next block starts, -1 when no
	// stream is open; level and start are the open stream's level and
	// offset, out the bytes of it delivered, crc the CRC its blocks make.
	expect int64
	level  int
	start  int64
	out    int64
	crc    uint32
}

func newBzip2Sequencer(ra io.ReaderAt, size int64) *bzip2Sequencer {
	s := &bzip2Sequencer{ra: ra, size: size, expect: -1}
	s.open(0)
	return s
}

// open starts following the stream at off, if a block starts it.
func (s *bzip2Sequencer) open(off int64) bool {
	var h [bzblock.HeaderSize + 6]byte
	n, _ := s.ra.ReadAt(h[:], off)
	level, ok := bzblock.Level(h[:n])
	if !ok || n < len(h) || bzblock.Bits48(h[bzblock.HeaderSize:], 0) != bzblock.BlockMagic {
		return false
	}
	s.expect, s.level, s.start, s.out, s.crc = (off+bzblock.HeaderSize)*8, level, off, 0, 0
	return true
}

func (s *bzip2Sequencer) begin(p *Piece) beginVerdict {
	switch at := p.Offset*8 + int64(p.Bit); {
	case at < s.expect:
		return skipPiece // a match inside the block before
	case at > s.expect || p.stream.bzLevel != s.level || s.expect < 0:
		return replayStream
	}
	return takePiece
}

func (s *bzip2Sequencer) see(_ *Piece, data []byte) { s.out += int64(len(data)) }

func (s *bzip2Sequencer) finish(_ *Piece, res pieceResult) finishVerdict {
	end := res.bz.end
	s.crc = bzblock.StreamCRC(s.crc, res.bz.crc)
	var w [16]byte
	n, _ := s.ra.ReadAt(w[:], end/8)
	switch bzblock.Bits48(w[:n], end%8) {
	case bzblock.BlockMagic:
		s.expect = end
		return goOn
	case bzblock.EndMagic:
		if int64(n) < (end%8+bzblock.EndBits+7)/8 || uint32(bzblock.Bits48(w[:n], end%8+48)>>16) != s.crc {
			return finishVerdict{replay: true, rest: -1}
		}
		next := (end + bzblock.EndBits + 7) / 8 // the stream's end, padded to a byte
		if !s.open(next) {
			s.expect = -1
			return finishVerdict{rest: next}
		}
		return goOn
	}
	return finishVerdict{replay: true, rest: -1}
}

func (s *bzip2Sequencer) restart(*Piece, int64) (int64, int64) { return s.start, s.out }

func (s *bzip2Sequencer) inStream() bool { return s.expect >= 0 }
