package blockz

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/pierrec/lz4/v4"

	"github.com/foreachio/foreach/internal/decompress"
)

// Lz4 frames (the LZ4 Frame Format Description, version 1.6) decode on
// their own; so do the blocks of a frame whose descriptor says they are
// independent, as the lz4 command makes them by default (-BI). The scanner
// walks a frame's descriptor (its checksum checked) and block sizes to its
// end mark and content checksum before giving its pieces: its blocks when
// they are independent and it has no dictionary, or else the frame whole.
// The checks of a whole frame that block pieces leave out (the content
// checksum and size) are the sequencer's. Skippable frames are stepped
// over; a legacy frame (lz4 -l), which has no end mark, ends the pieces.
type lz4Scanner struct {
	f       *file
	off     int64   // the start of the next frame
	pending []Piece // the pieces of the frame walked last, not yet given
}

// lz4Frame is what the sequencer checks of a frame whose blocks are
// pieces, as the frame's decoder would.
type lz4Frame struct {
	contentChecksum bool
	checksum        uint32 // the content checksum, when there is one
	contentSize     int64  // -1 when the descriptor has none
}

// The flags of an lz4 piece.
const (
	lz4WholeFrame uint8 = 1 << iota // the piece is a whole frame, decoded by the library's reader
	lz4Stored                       // a block stored uncompressed
	lz4Checked                      // a block followed by its checksum
	lz4Last                         // the last block of its frame
)

var lz4BlockMax = [8]int64{4: 64 << 10, 5: 256 << 10, 6: 1 << 20, 7: 4 << 20}

func newLz4Scanner(f *file) *lz4Scanner { return &lz4Scanner{f: f} }

func (s *lz4Scanner) format() decompress.Format { return decompress.Lz4 }
func (s *lz4Scanner) rest() int64               { return s.off }
func (s *lz4Scanner) err() error                { return s.f.err }

func (s *lz4Scanner) next() (Piece, bool) {
	for len(s.pending) == 0 {
		h, ok := s.f.has(s.off, 8)
		if !ok {
			return Piece{}, false
		}
		switch magic := binary.LittleEndian.Uint32(h); {
		case magic&0xfffffff0 == 0x184D2A50: // a skippable frame
			end := s.off + 8 + int64(binary.LittleEndian.Uint32(h[4:]))
			if end > s.f.size {
				return Piece{}, false
			}
			s.off = end
		case magic == 0x184D2204:
			pieces, end, ok := s.frame(s.off)
			if !ok {
				return Piece{}, false
			}
			s.pending, s.off = pieces, end
		default:
			return Piece{}, false
		}
	}
	p := s.pending[0]
	s.pending = s.pending[1:]
	return p, true
}

// frame walks the frame at off, returning its pieces and its end.
func (s *lz4Scanner) frame(off int64) ([]Piece, int64, bool) {
	h, ok := s.f.has(off, 4+2)
	if !ok {
		return nil, 0, false
	}
	flg, bd := h[4], h[5]
	if flg>>6 != 1 || flg&0x02 != 0 || bd&0x8f != 0 || lz4BlockMax[bd>>4&7] == 0 {
		return nil, 0, false // the version, reserved bits, the block size
	}
	n := 2 // the descriptor's length, its checksum left out
	if flg&0x08 != 0 {
		n += 8
	}
	if flg&0x01 != 0 {
		n += 4
	}
	d, ok := s.f.has(off+4, n+1)
	if !ok || byte(xxh32Sum(d[:n])>>8) != d[n] {
		return nil, 0, false
	}
	st := &stream{offset: off, lz4: lz4Frame{contentChecksum: flg&0x04 != 0, contentSize: -1}}
	if flg&0x08 != 0 {
		st.lz4.contentSize = int64(binary.LittleEndian.Uint64(d[2:]))
	}
	blocks, pos, ok := s.blocks(off+4+int64(n)+1, lz4BlockMax[bd>>4&7], flg&0x10 != 0, st)
	if !ok {
		return nil, 0, false
	}
	if st.lz4.contentChecksum {
		c, ok := s.f.has(pos, 4)
		if !ok {
			return nil, 0, false
		}
		st.lz4.checksum = binary.LittleEndian.Uint32(c)
		pos += 4
	}
	if flg&0x20 == 0 || flg&0x01 != 0 || len(blocks) == 0 {
		// Linked blocks, a dictionary, or none at all: the frame is one piece.
		frame := Piece{Offset: off, Length: pos - off, Size: st.lz4.contentSize, bound: st.lz4.contentSize, stream: st, flags: lz4WholeFrame}
		return []Piece{frame}, pos, true
	}
	blocks[len(blocks)-1].flags |= lz4Last
	return blocks, pos, true
}

// blocks walks a frame's blocks from pos to its end mark, returning them as
// pieces and where the end mark ends.
func (s *lz4Scanner) blocks(pos, blockMax int64, checked bool, st *stream) ([]Piece, int64, bool) {
	var blocks []Piece
	for {
		h, ok := s.f.has(pos, 4)
		if !ok {
			return nil, 0, false
		}
		v := binary.LittleEndian.Uint32(h)
		pos += 4
		if v == 0 {
			return blocks, pos, true
		}
		p := Piece{Offset: pos, Length: int64(v & 0x7fffffff), Size: -1, bound: blockMax, stream: st}
		if v&0x80000000 != 0 {
			p.flags |= lz4Stored
			p.Size, p.bound = p.Length, p.Length
		}
		if p.Length > blockMax {
			return nil, 0, false
		}
		pos += p.Length
		if checked {
			p.flags |= lz4Checked
			pos += 4
		}
		if pos > s.f.size {
			return nil, 0, false
		}
		blocks = append(blocks, p)
	}
}

// lz4Pieces decodes lz4 pieces: a block with the library's block decoder,
// a whole frame with its reader.
type lz4Pieces struct {
	in    *input
	out   byteReader
	frame *lz4.Reader
}

var errLz4BlockChecksum = errors.New("blockz: lz4 block checksum mismatch")

func (d *lz4Pieces) open(p *Piece) (io.Reader, error) {
	if p.flags&lz4WholeFrame != 0 {
		if d.frame == nil {
			d.frame = lz4.NewReader(nil)
		}
		d.frame.Reset(d.in.reader(p.Offset, p.Length))
		return d.frame, nil
	}
	out, err := d.appendPiece(p, make([]byte, 0, p.bound))
	d.out.reset(out)
	return &d.out, err
}

// appendPiece decodes the block p (not a whole frame) into dst.
func (d *lz4Pieces) appendPiece(p *Piece, dst []byte) ([]byte, error) {
	if p.flags&lz4WholeFrame != 0 {
		return dst, errors.New("blockz: an lz4 frame is decoded as a stream")
	}
	in, err := d.in.bytes(p.Offset, p.end()-p.Offset)
	if err != nil {
		return dst, err
	}
	data := in[:p.Length]
	if p.flags&lz4Checked != 0 && xxh32Sum(data) != binary.LittleEndian.Uint32(in[p.Length:]) {
		return dst, errLz4BlockChecksum
	}
	if p.flags&lz4Stored != 0 {
		return append(dst, data...), nil
	}
	k, err := lz4.UncompressBlock(data, dst[len(dst):cap(dst)])
	if err != nil {
		return dst, fmt.Errorf("blockz: lz4 block at %d: %w", p.Offset, err)
	}
	return dst[:len(dst)+k], nil
}

func (d *lz4Pieces) result() pieceResult { return pieceResult{} }

// lz4Sequencer checks the frames whose blocks are pieces as their reader
// would: the content checksum and size, at the last block.
type lz4Sequencer struct {
	hash xxh32
	size int64
	st   *stream // the frame hashed
}

func (s *lz4Sequencer) begin(p *Piece) beginVerdict {
	if p.stream != s.st {
		s.st, s.size = p.stream, 0
		s.hash.reset()
	}
	return takePiece
}

func (s *lz4Sequencer) see(p *Piece, data []byte) {
	if p.flags&lz4WholeFrame == 0 {
		if s.st.lz4.contentChecksum {
			s.hash.write(data)
		}
		s.size += int64(len(data))
	}
}

func (s *lz4Sequencer) inStream() bool { return false }

func (s *lz4Sequencer) restart(p *Piece, out int64) (int64, int64) {
	return p.stream.offset, out
}

func (s *lz4Sequencer) finish(p *Piece, _ pieceResult) finishVerdict {
	if p.flags&lz4Last == 0 {
		return goOn
	}
	f := &p.stream.lz4
	if f.contentChecksum && s.hash.sum() != f.checksum || f.contentSize >= 0 && s.size != f.contentSize {
		return finishVerdict{replay: true, rest: -1}
	}
	return goOn
}
