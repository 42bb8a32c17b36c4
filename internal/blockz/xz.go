package blockz

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
)

// Xz blocks (the .xz File Format, version 1.2.1) decode on their own when
// their headers give their compressed sizes, as xz -T, pixz and every
// multi-threaded writer make them: the scanner walks a stream from block
// header to block header to its index, checks the index against the
// blocks (their count, unpadded and uncompressed sizes, the index's CRC32)
// and the footer against the header, and only then gives the stream's
// blocks as pieces, each with the uncompressed size of its record. A
// stream it cannot follow so (a block without sizes, as single-threaded xz
// writes its one block; a filter other than LZMA2, a dictionary beyond
// decompress.MaxWindow; damage) ends the pieces: it is read sequentially,
// which reports what is wrong as it does. Concatenated streams, with
// stream padding between them, are followed one after another.
type xzScanner struct {
	f       *file
	off     int64   // the start of the next stream
	pending []Piece // the blocks of the stream checked last, not yet given
}

var xzMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}

func newXzScanner(f *file) *xzScanner { return &xzScanner{f: f} }

func (s *xzScanner) format() decompress.Format { return decompress.Xz }
func (s *xzScanner) rest() int64               { return s.off }
func (s *xzScanner) err() error                { return s.f.err }

func (s *xzScanner) next() (Piece, bool) {
	for len(s.pending) == 0 {
		start := s.off
		if start > 0 {
			// Stream padding: zero bytes in a multiple of four, then a stream.
			pad := s.zeros(start)
			if pad%4 != 0 {
				return Piece{}, false
			}
			start += pad
		}
		blocks, end, ok := s.stream(start)
		if !ok {
			return Piece{}, false
		}
		s.pending, s.off = blocks, end
	}
	p := s.pending[0]
	s.pending = s.pending[1:]
	return p, true
}

// zeros counts the zero bytes at off.
func (s *xzScanner) zeros(off int64) int64 {
	n := int64(0)
	for {
		b := s.f.peek(off+n, maxPeek)
		k := 0
		for k < len(b) && b[k] == 0 {
			k++
		}
		n += int64(k)
		if k < len(b) || len(b) == 0 {
			return n
		}
	}
}

// stream checks the stream at off and returns its blocks and its end.
func (s *xzScanner) stream(off int64) ([]Piece, int64, bool) {
	h, ok := s.f.has(off, 12)
	if !ok || !bytes.Equal(h[:6], xzMagic) || h[6] != 0 || !xzKnownCheck(h[7]) ||
		crc32.ChecksumIEEE(h[6:8]) != binary.LittleEndian.Uint32(h[8:]) {
		return nil, 0, false
	}
	st := &stream{offset: off, xzFlags: [2]byte{h[6], h[7]}}
	check := xzCheckSize(h[7])
	var blocks []Piece
	pos := off + 12
	for {
		b, ok := s.f.has(pos, 1)
		if !ok {
			return nil, 0, false
		}
		if b[0] == 0 {
			break // the index
		}
		hsize, csize, usize, ok := s.blockHeader(pos)
		if !ok {
			return nil, 0, false
		}
		u := hsize + csize + check
		length := u + (4-u%4)%4
		if pos+length > s.f.size {
			return nil, 0, false
		}
		blocks = append(blocks, Piece{Offset: pos, Length: length, Size: usize, bound: usize, stream: st, unpadded: u})
		pos += length
	}
	end, ok := s.index(pos, blocks, st.xzFlags[:])
	if !ok {
		return nil, 0, false
	}
	return blocks, end, true
}

// xzKnownCheck reports whether id is one of the checks the format
// defines: none, CRC32, CRC64, SHA-256.
func xzKnownCheck(id byte) bool { return id == 0 || id == 1 || id == 4 || id == 10 }

// xzCheckSize is the size of the check of a stream's check type.
func xzCheckSize(id byte) int64 {
	if id == 0 {
		return 0
	}
	return 4 << ((id - 1) / 3) // 4, 8, 16, 32 or 64 bytes
}

// blockHeader reads the block header at pos: its size, and the compressed
// and uncompressed sizes it gives; false unless it gives both, its CRC32 is
// right and its only filter is LZMA2 with a dictionary within
// decompress.MaxWindow.
func (s *xzScanner) blockHeader(pos int64) (hsize, csize, usize int64, ok bool) {
	b, _ := s.f.has(pos, 1)
	hsize = (int64(b[0]) + 1) * 4
	h, ok := s.f.has(pos, int(hsize))
	if !ok || crc32.ChecksumIEEE(h[:hsize-4]) != binary.LittleEndian.Uint32(h[hsize-4:]) {
		return 0, 0, 0, false
	}
	flags := h[1]
	if flags&0x3c != 0 || flags&0xc0 != 0xc0 || flags&3 != 0 {
		return 0, 0, 0, false // reserved bits, a size missing, more than one filter
	}
	v := varints{b: h[2 : hsize-4]}
	csize, usize = int64(v.next()), int64(v.next())
	id, props := v.next(), v.next()
	if v.bad || id != 0x21 || props != 1 || len(v.b) < 1 || csize <= 0 || usize < 0 {
		return 0, 0, 0, false
	}
	d := v.b[0]
	for _, c := range v.b[1:] {
		if c != 0 { // the header's padding
			return 0, 0, 0, false
		}
	}
	if d >= 40 || uint64(2|d&1)<<(d/2+11) > decompress.MaxWindow {
		return 0, 0, 0, false // 40 is a dictionary of 4 GiB - 1
	}
	return hsize, csize, usize, true
}

// index checks the index at pos against the stream's blocks, and the
// footer after it against the stream's flags; it returns the stream's end.
func (s *xzScanner) index(pos int64, blocks []Piece, flags []byte) (int64, bool) {
	// The index: its indicator, the number of records, two varints per
	// record, padding to four bytes, and its CRC32; read in pieces of at
	// most maxPeek bytes.
	crc := crc32.NewIEEE()
	r := &fileBytes{f: s.f, off: pos + 1, crc: crc}
	crc.Write([]byte{0})
	if r.uvarint() != uint64(len(blocks)) {
		return 0, false
	}
	for _, b := range blocks {
		if r.uvarint() != uint64(b.unpadded) || r.uvarint() != uint64(b.Size) {
			return 0, false
		}
	}
	for (r.off-pos)%4 != 0 {
		if r.byte() != 0 {
			return 0, false
		}
	}
	sum := crc.Sum32()
	if r.bad {
		return 0, false
	}
	size := r.off - pos
	foot, ok := s.f.has(r.off, 16)
	if !ok || binary.LittleEndian.Uint32(foot) != sum {
		return 0, false
	}
	foot = foot[4:]
	if crc32.ChecksumIEEE(foot[4:10]) != binary.LittleEndian.Uint32(foot) ||
		int64(binary.LittleEndian.Uint32(foot[4:]))+1 != (size+4)/4 ||
		!bytes.Equal(foot[8:10], flags) || foot[10] != 'Y' || foot[11] != 'Z' {
		return 0, false
	}
	return r.off + 16, true
}

// varints reads the variable-length integers of an xz header.
type varints struct {
	b   []byte
	bad bool
}

func (v *varints) next() uint64 {
	var x uint64
	for i := 0; i < 9 && i < len(v.b); i++ {
		c := v.b[i]
		x |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if c == 0 && i > 0 { // not the shortest encoding
				break
			}
			v.b = v.b[i+1:]
			return x
		}
	}
	v.bad = true
	return 0
}

// fileBytes reads the file a byte at a time from off, through a window
// of peeked bytes, into crc.
type fileBytes struct {
	f    *file
	off  int64
	win  []byte
	crc  io.Writer
	bad  bool
	wbuf [maxPeek]byte
}

func (r *fileBytes) byte() byte {
	if len(r.win) == 0 {
		r.win = append(r.wbuf[:0], r.f.peek(r.off, maxPeek)...)
		if len(r.win) == 0 {
			r.bad = true
			return 0
		}
	}
	c := r.win[0]
	r.win = r.win[1:]
	r.off++
	r.crc.Write([]byte{c})
	return c
}

func (r *fileBytes) uvarint() uint64 {
	var x uint64
	for i := 0; i < 9; i++ {
		c := r.byte()
		x |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if c == 0 && i > 0 {
				break
			}
			return x
		}
	}
	r.bad = true
	return 1<<64 - 1
}

// xzPieces decodes xz blocks with decompress's own xz decoder, the one the
// sequential reader uses, so that a block is refused here exactly when it
// is refused there: each block is given to it as a stream of its own, made
// of the block between a header with its stream's flags and an index of one
// record with a footer, so that the decoder checks the block (its check,
// its sizes) as it checks any.
type xzPieces struct {
	in   *input
	head []byte
	tail []byte
	mr   multiReader
	dec  *decompress.Reader
}

func (d *xzPieces) open(p *Piece) (io.Reader, error) {
	d.head, d.tail = xzWrap(d.head[:0], d.tail[:0], p)
	d.mr.reset(d.head, d.in.reader(p.Offset, p.Length), d.tail)
	if d.dec != nil {
		d.dec.Close()
	}
	d.dec = decompress.NewReader(&d.mr)
	return d.dec, nil
}

func (d *xzPieces) result() pieceResult { return pieceResult{} }

// xzWrap appends to head the stream header, and to tail the index and the
// footer, that make block p a stream of its own.
func xzWrap(head, tail []byte, p *Piece) ([]byte, []byte) {
	flags := p.stream.xzFlags[:]
	head = append(append(head, xzMagic...), flags...)
	head = binary.LittleEndian.AppendUint32(head, crc32.ChecksumIEEE(flags))
	tail = append(tail, 0)
	tail = binary.AppendUvarint(tail, 1)
	tail = binary.AppendUvarint(tail, uint64(p.unpadded))
	tail = binary.AppendUvarint(tail, uint64(p.Size))
	for len(tail)%4 != 0 {
		tail = append(tail, 0)
	}
	tail = binary.LittleEndian.AppendUint32(tail, crc32.ChecksumIEEE(tail))
	// The footer's backward size: the index's size, its CRC32 included, in
	// units of four bytes, minus one.
	foot := binary.LittleEndian.AppendUint32(nil, uint32(len(tail)/4-1))
	foot = append(foot, flags...)
	tail = binary.LittleEndian.AppendUint32(tail, crc32.ChecksumIEEE(foot))
	tail = append(append(tail, foot...), 'Y', 'Z')
	return head, tail
}

// multiReader reads three readers one after another, reusable.
type multiReader struct {
	parts [3]io.Reader
	heads [2]bytes.Reader
	i     int
}

func (m *multiReader) reset(head []byte, body io.Reader, tail []byte) {
	m.heads[0].Reset(head)
	m.heads[1].Reset(tail)
	m.parts = [3]io.Reader{&m.heads[0], body, &m.heads[1]}
	m.i = 0
}

func (m *multiReader) Read(p []byte) (int, error) {
	for m.i < len(m.parts) {
		n, err := m.parts[m.i].Read(p)
		if err == io.EOF {
			m.i++
			err = nil
		}
		if n > 0 || err != nil {
			return n, err
		}
	}
	return 0, io.EOF
}
