package decompress

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"io"

	"github.com/foreachio/foreach/internal/lzma"
)

// xzDecoder decodes xz streams (the .xz File Format, version 1.2.1) with the
// project's own LZMA2 decoder (internal/lzma), through a framing, which tells where
// the last stream ended and refuses a dictionary larger than maxWindow before
// the decoder allocates it (a 100-byte file may declare 4 GiB). It checks
// what the format lets it check: the headers' CRC32s, the sizes a block
// header declares, each block's check (CRC32, CRC64 or SHA-256), the index
// against the blocks and the footer against the header.
//
// It is the project's own because github.com/ulikunitz/xz, the maintained
// pure-Go decoder it replaces, decodes up to a dictionary's worth (8 MiB at
// xz's default level) before giving any of it out, and loses it when the
// input ends: a truncated file gave 188-394 KB less than xz -dc, where the
// Reader's rule is every byte decoded before the damage
// (TestTruncatedAsTools). Every filter of the format is read: LZMA2, and the
// BCJ and delta filters that xz applies to executables and tables before it
// (bcj.go, xzfilter.go), each block's bytes no more than its header declares.
type xzDecoder struct {
	in   xzInput
	lz   lzma.Reader2
	data blockData // the block's compressed data, which lz reads
	out  io.Reader // the block's bytes: lz, or the last of filters
	// filters undo a block's filters, the first of them reading lz (reused from
	// block to block; those past the block's chain are unused).
	filters []*filterReader
	stream  bool    // a stream's header is read, and not yet its footer
	flags   [2]byte // the stream's flags, which its footer repeats
	check   xzCheck
	block   xzBlock // the block being read, while inBlock
	// inBlock: a block's header is read, and not yet its check.
	inBlock bool
	records []xzRecord // the stream's blocks so far, for its index
	err     error      // the error every later Read returns
}

// xzInput is the framing, counting the bytes read from it.
type xzInput struct {
	w *framing
	n int64
}

func (in *xzInput) Read(p []byte) (int, error) {
	n, err := in.w.Read(p)
	in.n += int64(n)
	return n, err
}

// full reads len(b) bytes; the end of the input is io.ErrUnexpectedEOF.
func (in *xzInput) full(b []byte) error {
	_, err := io.ReadFull(in, b)
	return truncation(err)
}

// xzCheck is a stream's integrity check: its ID, its size and its hash (nil
// for none).
type xzCheck struct {
	id   byte
	size int
	hash hash.Hash
}

// xzBlock is what is known of the block being read.
type xzBlock struct {
	start        int64 // the input offset of its header
	headerSize   int64
	compressed   int64 // as declared; -1: not declared
	uncompressed int64 // as declared; -1: not declared
	dataStart    int64 // the input offset of its LZMA2 data
	produced     int64 // bytes decoded
}

// xzRecord is a block as the index lists it.
type xzRecord struct{ unpadded, uncompressed int64 }

var (
	errXzHeader  = errors.New("xz: stream header is corrupt")
	errXzBlock   = errors.New("xz: block header is corrupt")
	errXzCheck   = errors.New("xz: the check of a block does not match its data")
	errXzIndex   = errors.New("xz: index is corrupt")
	errXzFooter  = errors.New("xz: stream footer is corrupt")
	errXzSize    = errors.New("xz: a block's size is not the one its header declares")
	errXzOptions = errors.New("xz: unsupported options in a block header (its padding is not zero)")
	xzMagic      = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
)

func newXzDecoder(r *bufio.Reader, offset func() int64) (*xzDecoder, error) {
	w := newFraming(r, Xz, &xzFrames{}, offset)
	// The framing consumes stream padding itself, so the decoder sees streams
	// one after another. The first stream's header is read here.
	z := &xzDecoder{in: xzInput{w: w}}
	if err := z.startStream(); err != nil {
		return nil, w.result(truncation(err))
	}
	return z, nil
}

func (z *xzDecoder) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	for {
		n, err := z.next(p)
		if err != nil {
			z.err = z.in.w.result(err)
			if n > 0 {
				return n, nil
			}
			return 0, z.err
		}
		if n > 0 {
			return n, nil
		}
	}
}

// next decodes into p what comes next: a block's bytes, or the headers and checks
// between them (then nothing, with a nil error). io.EOF: every stream is complete.
func (z *xzDecoder) next(p []byte) (int, error) {
	switch {
	case !z.stream:
		return 0, z.startStream()
	case !z.inBlock:
		var b [1]byte
		if err := z.in.full(b[:]); err != nil {
			return 0, err
		}
		if b[0] == 0 {
			return 0, z.index()
		}
		return 0, z.startBlock(b[0])
	}
	n, err := z.blockRead(p)
	z.block.produced += int64(n)
	if z.check.hash != nil {
		z.check.hash.Write(p[:n])
	}
	if err == io.EOF {
		err = z.endBlock()
	}
	return n, err
}

// blockRead reads the block's bytes into p, no more than the uncompressed size its
// header declares: a byte beyond it is an error (and is not given out).
func (z *xzDecoder) blockRead(p []byte) (int, error) {
	if u := z.block.uncompressed; u >= 0 {
		if z.block.produced == u {
			var probe [1]byte
			n, err := z.out.Read(probe[:])
			if n > 0 {
				return 0, errXzSize
			}
			return 0, err
		}
		p = p[:min(int64(len(p)), u-z.block.produced)]
	}
	return z.out.Read(p)
}

// startStream reads a stream header. io.EOF: there is none, the input has ended.
func (z *xzDecoder) startStream() error {
	var h [12]byte
	if n, err := io.ReadFull(&z.in, h[:]); err != nil {
		if n == 0 && err == io.EOF {
			return io.EOF
		}
		return truncation(err)
	}
	if !bytes.Equal(h[:6], xzMagic) || h[6] != 0 || h[7] > 0x0f ||
		crc32.ChecksumIEEE(h[6:8]) != binary.LittleEndian.Uint32(h[8:]) {
		return errXzHeader
	}
	c, err := newXzCheck(h[7])
	if err != nil {
		return err
	}
	z.stream, z.flags, z.check, z.records = true, [2]byte{h[6], h[7]}, c, z.records[:0]
	return nil
}

// newXzCheck is the check of ID id: none, CRC32, CRC64 or SHA-256 (the others are
// reserved, and refused).
func newXzCheck(id byte) (xzCheck, error) {
	switch id {
	case 0:
		return xzCheck{id: id}, nil
	case 1:
		return xzCheck{id: id, size: 4, hash: crc32.NewIEEE()}, nil
	case 4:
		// MakeTable builds crc64's tables (32 KB) on its first call, not when the
		// program starts: a command that reads no xz never pays for them.
		return xzCheck{id: id, size: 8, hash: crc64.New(crc64.MakeTable(crc64.ECMA))}, nil
	case 10:
		return xzCheck{id: id, size: 32, hash: sha256.New()}, nil
	}
	return xzCheck{}, fmt.Errorf("xz: unsupported check type %d", id)
}

// startBlock reads a block header whose first byte, its size, is size, and starts
// the LZMA2 decoder on the block's data.
func (z *xzDecoder) startBlock(size byte) error {
	h := make([]byte, (int(size)+1)*4)
	h[0] = size
	if err := z.in.full(h[1:]); err != nil {
		return err
	}
	body := h[:len(h)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(h[len(h)-4:]) {
		return errXzBlock
	}
	b := xzBlock{start: z.in.n - int64(len(h)), headerSize: int64(len(h)), dataStart: z.in.n}
	dict, filters, err := b.parseHeader(body)
	if err != nil {
		return err
	}
	z.block, z.inBlock = b, true
	if z.check.hash != nil {
		z.check.hash.Reset()
	}
	z.data = blockData{in: &z.in, left: b.compressed}
	z.lz.Reset(&z.data, dict)
	z.out = &z.lz
	// The filters are undone in the reverse of the order they were applied in, the
	// first of the chain last; a block without any reads LZMA2's output directly.
	for i := len(filters) - 1; i >= 0; i-- {
		k := len(filters) - 1 - i
		if k == len(z.filters) {
			z.filters = append(z.filters, &filterReader{})
		}
		z.filters[k].reset(z.out, newConverter(filters[i]))
		z.out = z.filters[k]
	}
	return nil
}

// blockData is a block's compressed data as its LZMA2 decoder reads it: no further than
// the compressed size the block header declares (left bytes; -1 when it declares none),
// so that LZMA2 data that runs on past it (xz-utils' bad-1-lzma2-9.xz and -10.xz) is an
// error, not the index read as data.
type blockData struct {
	in   *xzInput
	left int64
}

func (d *blockData) Read(p []byte) (int, error) {
	if d.left == 0 {
		return 0, errXzSize
	}
	if d.left > 0 && int64(len(p)) > d.left {
		p = p[:d.left]
	}
	n, err := d.in.Read(p)
	if d.left > 0 {
		d.left -= int64(n)
	}
	return n, err
}

// parseHeader reads a block header's flags, sizes and filters (body, its bytes but
// the CRC32) and returns the LZMA2 dictionary size and the filters before LZMA2.
func (b *xzBlock) parseHeader(body []byte) (int, []xzFilter, error) {
	flags := body[1]
	if flags&0x3c != 0 {
		return 0, nil, errXzBlock
	}
	rest := body[2:]
	b.compressed, b.uncompressed = -1, -1
	for _, f := range []struct {
		bit  byte
		size *int64
	}{{0x40, &b.compressed}, {0x80, &b.uncompressed}} {
		if flags&f.bit != 0 {
			v, k := xzUvarint(rest)
			if k <= 0 || v == 0 && f.bit == 0x40 || v > 1<<62 {
				return 0, nil, errXzBlock
			}
			*f.size, rest = int64(v), rest[k:]
		}
	}
	var filters []xzFilter
	for range int(flags&3) + 1 {
		id, k := xzUvarint(rest)
		if k <= 0 {
			return 0, nil, errXzBlock
		}
		size, k2 := xzUvarint(rest[k:])
		if k2 <= 0 || size > uint64(len(rest)-k-k2) {
			return 0, nil, errXzBlock
		}
		filters = append(filters, xzFilter{id: id, props: rest[k+k2 : k+k2+int(size)]})
		rest = rest[k+k2+int(size):]
	}
	if !allZero(rest) {
		return 0, nil, errXzOptions // the header's padding: a field of a later version
	}
	last := filters[len(filters)-1]
	filters = filters[:len(filters)-1]
	if err := checkChain(filters, last.id); err != nil {
		return 0, nil, err
	}
	p := last.props
	if len(p) != 1 || p[0] > 40 {
		return 0, nil, errXzBlock
	}
	dict := uint64(0xffffffff)
	if p[0] < 40 {
		dict = uint64(2|p[0]&1) << (p[0]/2 + 11)
	}
	return int(min(dict, maxWindow)), filters, nil // the framing refused a larger one already
}

// endBlock checks a block's sizes, reads its padding and checks its check.
func (z *xzDecoder) endBlock() error {
	b := &z.block
	compressed := z.in.n - b.dataStart
	if b.compressed >= 0 && compressed != b.compressed || b.uncompressed >= 0 && b.produced != b.uncompressed {
		return errXzSize
	}
	pad := (4 - (b.headerSize+compressed)%4) % 4
	tail := make([]byte, pad+int64(z.check.size))
	if err := z.in.full(tail); err != nil {
		return err
	}
	for _, c := range tail[:pad] {
		if c != 0 {
			return errXzBlock
		}
	}
	if h := z.check.hash; h != nil && !checkMatches(z.check.id, h.Sum(nil), tail[pad:]) {
		return errXzCheck
	}
	z.records = append(z.records, xzRecord{unpadded: b.headerSize + compressed + int64(z.check.size), uncompressed: b.produced})
	z.inBlock = false
	return nil
}

// checkMatches compares a check as computed (sum, big-endian as Go's hashes give it)
// with the check stored (the CRCs little-endian, SHA-256 as it is).
func checkMatches(id byte, sum, stored []byte) bool {
	if id == 10 {
		return bytes.Equal(sum, stored)
	}
	for i := range sum {
		if sum[i] != stored[len(stored)-1-i] {
			return false
		}
	}
	return len(sum) == len(stored)
}

// index reads a stream's index (its indicator byte read) and footer, and checks them
// against the blocks read.
func (z *xzDecoder) index() error {
	crc := crc32.NewIEEE()
	crc.Write([]byte{0})
	r := &xzIndexReader{in: &z.in, crc: crc}
	if count, ok := r.uvarint(); !ok || count != uint64(len(z.records)) {
		return r.fault()
	}
	for _, rec := range z.records {
		unpadded, ok1 := r.uvarint()
		uncompressed, ok2 := r.uvarint()
		if !ok1 || !ok2 || unpadded != uint64(rec.unpadded) || uncompressed != uint64(rec.uncompressed) {
			return r.fault()
		}
	}
	size := 1 + r.n // the indicator and the records
	tail := make([]byte, (4-size%4)%4+4+12)
	if err := z.in.full(tail); err != nil {
		return err
	}
	pad, sum, foot := tail[:len(tail)-16], tail[len(tail)-16:len(tail)-12], tail[len(tail)-12:]
	crc.Write(pad)
	if !allZero(pad) || crc.Sum32() != binary.LittleEndian.Uint32(sum) {
		return errXzIndex
	}
	indexSize := size + int64(len(pad)) + 4
	if crc32.ChecksumIEEE(foot[4:10]) != binary.LittleEndian.Uint32(foot[:4]) ||
		(int64(binary.LittleEndian.Uint32(foot[4:8]))+1)*4 != indexSize ||
		foot[8] != z.flags[0] || foot[9] != z.flags[1] || foot[10] != 'Y' || foot[11] != 'Z' {
		return errXzFooter
	}
	z.stream = false
	return nil
}

// xzIndexReader reads the varints of an index, feeding its CRC32 and counting its
// bytes; the first error stops it.
type xzIndexReader struct {
	in  *xzInput
	crc hash.Hash32
	n   int64
	err error // of the input; nil when the index is at fault
}

// uvarint reads a varint; false when the input failed or the varint is not the
// format's (longer than 9 bytes, or not the shortest encoding).
func (r *xzIndexReader) uvarint() (uint64, bool) {
	var v uint64
	var b [1]byte
	for i := range uint(9) {
		if r.err = r.in.full(b[:]); r.err != nil {
			return 0, false
		}
		r.crc.Write(b[:])
		r.n++
		if b[0] == 0 && i > 0 {
			return 0, false
		}
		v |= uint64(b[0]&0x7f) << (7 * i)
		if b[0] < 0x80 {
			return v, true
		}
	}
	return 0, false
}

// fault is the error of an index that did not read as it should: the input's, or
// the index's own.
func (r *xzIndexReader) fault() error {
	if r.err != nil {
		return r.err
	}
	return errXzIndex
}

// xzUvarint reads a varint of the format from b: its value and length, 0 when b ends
// inside it, -1 when it is not the shortest encoding or too long.
func xzUvarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b); i++ {
		if i == 9 || i > 0 && b[i] == 0 {
			return 0, -1
		}
		v |= uint64(b[i]&0x7f) << (7 * uint(i))
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func (z *xzDecoder) close() {}

// truncation is err as the decoder reports it: the end of the input inside the data
// is io.ErrUnexpectedEOF.
func truncation(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// xzFrames is the structure of an xz stream (the .xz File Format, version
// 1.2.1): a 12-byte stream header; blocks, each a header whose first byte
// gives its size, LZMA2 chunks (a control byte, sizes, the chunk's
// bytes; control byte 0 ends them), padding to four bytes and the check
// that the stream header names; the index (a 0 byte, a count of records,
// two varints per record, padding and a CRC32); and a 12-byte footer.
type xzFrames struct {
	state   xzState
	check   int64  // size of the current stream's check field
	block   []byte // the first byte of the block header being collected
	control byte   // the control byte of the chunk whose header is collected
	// varint is the index field being read, shift its bits so far; records
	// counts the index fields still to read after it, once the first (their
	// number) is read, as counted says.
	varint, records uint64
	shift           uint
	counted         bool
	next            xzState // the state after a skip
}

type xzState uint8

const (
	xzStreamHeader xzState = iota // the 12-byte stream header
	xzBlockStart                  // a block header's size byte, or 0 for the index
	xzBlockHeader                 // the rest of a block header
	xzChunk                       // an LZMA2 chunk's control byte
	xzChunkHeader                 // the rest of a chunk header
	xzSkip                        // bytes skipped, then next
	xzIndex                       // a byte of the index's varints
	xzFooter                      // the 12-byte stream footer
)

func (x *xzFrames) start() unit {
	x.state = xzStreamHeader
	return unit{collect, 12}
}

// skipThen skips n bytes, then reads in state s.
func (x *xzFrames) skipThen(n int64, s xzState) unit {
	x.state, x.next = xzSkip, s
	return unit{skip, n}
}

// alignThen skips the padding from pos to the next multiple of four bytes
// of the stream and then n more (a check field), then reads in state s.
func (x *xzFrames) alignThen(pos, n int64, s xzState) unit {
	return x.skipThen((4-pos%4)%4+n, s)
}

// unitOf is the unit read in state s.
func unitOf(s xzState) unit {
	if s == xzFooter {
		return unit{collect, 12}
	}
	return unit{collect, 1}
}

func (x *xzFrames) parsed(h []byte, pos int64) (unit, error) {
	switch x.state {
	case xzStreamHeader:
		x.check = 0
		if id := int(h[7] & 0x0f); id > 0 {
			x.check = 4 << ((id - 1) / 3) // 4, 8, 16, 32 or 64 bytes
		}
		x.state = xzBlockStart
		return unit{collect, 1}, nil
	case xzBlockStart:
		if h[0] == 0 {
			x.state, x.varint, x.shift, x.counted = xzIndex, 0, 0, false
			return unit{collect, 1}, nil
		}
		x.state, x.block = xzBlockHeader, append(x.block[:0], h[0])
		return unit{collect, (int64(h[0])+1)*4 - 1}, nil
	case xzBlockHeader:
		return x.blockHeader(append(x.block, h...))
	case xzChunk:
		return x.chunk(h[0], pos), nil
	case xzChunkHeader:
		x.state = xzChunk
		if x.control < 0x80 { // uncompressed: 2 bytes of size - 1
			return x.skipThen(int64(h[0])<<8|int64(h[1])+1, xzChunk), nil
		}
		return x.skipThen(int64(h[2])<<8|int64(h[3])+1, xzChunk), nil
	case xzSkip:
		x.state = x.next
		return unitOf(x.next), nil
	case xzIndex:
		return x.index(h[0], pos), nil
	case xzFooter:
		if h[10] == 'Y' && h[11] == 'Z' {
			return unit{kind: boundary}, nil
		}
	}
	return unit{kind: lost}, nil
}

// chunk acts on an LZMA2 chunk's control byte.
func (x *xzFrames) chunk(b byte, pos int64) unit {
	x.control = b
	switch {
	case b == 0: // the end of the LZMA2 data: padding and check follow
		return x.alignThen(pos, x.check, xzBlockStart)
	case b == 1 || b == 2: // an uncompressed chunk: 2 bytes of size
		x.state = xzChunkHeader
		return unit{collect, 2}
	case b >= 0x80: // an LZMA chunk: sizes, then properties on a reset
		x.state = xzChunkHeader
		if b>>5&3 >= 2 {
			return unit{collect, 5}
		}
		return unit{collect, 4}
	}
	return unit{kind: lost}
}

// index acts on a byte of the index's varints.
func (x *xzFrames) index(b byte, pos int64) unit {
	if x.shift > 63 {
		return unit{kind: lost}
	}
	x.varint |= uint64(b&0x7f) << x.shift
	x.shift += 7
	if b&0x80 != 0 {
		return unit{collect, 1}
	}
	if !x.counted {
		// The first varint is the number of records, each of two varints.
		x.counted = true
		if x.varint > 1<<40 {
			return unit{kind: lost}
		}
		x.records = 2 * x.varint
	} else {
		x.records--
	}
	x.varint, x.shift = 0, 0
	if x.records == 0 {
		return x.alignThen(pos, 4, xzFooter) // padding, then the index's CRC32
	}
	return unit{collect, 1}
}

// blockHeader reads the filters of a block header and refuses an LZMA2
// dictionary larger than maxWindow.
func (x *xzFrames) blockHeader(h []byte) (unit, error) {
	lost := unit{kind: lost}
	i := 2
	uvarint := func() (uint64, bool) {
		var v uint64
		for s := uint(0); i < len(h)-4 && s < 63; s += 7 {
			b := h[i]
			i++
			v |= uint64(b&0x7f) << s
			if b&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	flags := h[1]
	for _, present := range []bool{flags&0x40 != 0, flags&0x80 != 0} {
		if present {
			if _, ok := uvarint(); !ok {
				return lost, nil
			}
		}
	}
	for range flags&3 + 1 {
		id, ok1 := uvarint()
		size, ok2 := uvarint()
		if !ok1 || !ok2 || size > uint64(len(h)-4-i) {
			return lost, nil
		}
		props := h[i : i+int(size)]
		i += int(size)
		if id == 0x21 && size == 1 && props[0] <= 40 {
			dict := uint64(0xffffffff)
			if props[0] < 40 {
				dict = uint64(2|props[0]&1) << (props[0]/2 + 11)
			}
			if dict > maxWindow {
				return lost, fmt.Errorf("xz: dictionary of %d bytes is larger than the limit of %d", dict, maxWindow)
			}
		}
	}
	x.state = xzChunk
	return unit{collect, 1}, nil
}
