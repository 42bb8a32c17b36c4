package bzblock

import (
	"encoding/binary"
	"errors"
	"io"
)

// The 48-bit magic numbers of a bzip2 stream: the start of a block and the
// end of the stream.
const (
	BlockMagic = 0x314159265359
	EndMagic   = 0x177245385090
)

// StructuralError is the error of a damaged block: what is wrong with it.
type StructuralError string

func (e StructuralError) Error() string { return "bzip2 data invalid: " + string(e) }

// ErrShort is the error of a block that src ends before: with more input,
// it may decode.
var ErrShort = errors.New("bzblock: the input ends inside the block")

// Limits of the format, as the standard library's reader enforces them.
const (
	maxRepeat = 2 * 1024 * 1024 // the longest run of RUNA/RUNB symbols' count
	groupSize = 50              // symbols decoded with one tree
	maxTrees  = 6
	maxAlpha  = 258 // 256 byte values, RUNA and RUNB; EOB takes the place of a byte value unused
)

// Decoder decodes bzip2 blocks, keeping its tables (about 4 MB for a block
// of level 9) from one to the next. The zero value is ready to use. A
// Decoder is not safe for concurrent use.
type Decoder struct {
	// syms are the block's Huffman-coded symbols, up to its end of block.
	syms []uint16
	// ll is the block after entropy decoding (the BWT's last column), with
	// runSlack bytes of room after it for the words that write runs.
	ll []byte
	// tt is the block's links: for each entry of ll, its byte in the low 8
	// bits and the index of the entry to read after it in the bits above,
	// as in bzip2's "fast" decoder; one entry more than the largest block
	// for the walks' sink.
	tt []uint32
	// pool holds the block in order after the inverse BWT, before the final
	// run-length decoding, as the runs in pieces (in chunks written by the
	// walks of walk.go, or whole). bump and chunks are the walks'.
	pool   []byte
	pieces [][]byte
	bump   int
	chunks []chunk
	free   []chunk
	c      [256]uint32
	trees  [maxTrees]huffman
	codes  [maxAlpha]code
	sel    []uint8
	block  Block
	part   partial
}

// Decode decodes the block whose magic number starts at bit bit (0-7, from
// the most significant) of src[0], for a stream of the given level (1-9:
// the largest block is level*100,000 bytes before its final run-length
// decoding). It returns the block, whose bytes are read from it; reading it
// to its end checks the block's CRC. The Block is valid until the next
// Decode or More. src must hold the whole block; ErrShort says that it does
// not, and More then goes on with more of it.
func (d *Decoder) Decode(src []byte, bit uint, level int) (*Block, error) {
	if level < 1 || level > 9 || bit > 7 {
		return nil, errors.New("bzblock: level or bit out of range")
	}
	d.part = partial{bit: bit, level: level}
	return d.decode(src)
}

// More goes on with the block of the last Decode or More, which returned
// ErrShort: src is the src that call was given with more bytes after it.
// What was read from the bytes before is not read again (but for the last
// group of 50 symbols they held), so that a reader that gets a block's
// bytes a piece at a time, as a sequential reader of a pipe does, decodes
// each piece once and never has to guess how long the block is.
func (d *Decoder) More(src []byte) (*Block, error) {
	if !d.part.active {
		return nil, errors.New("bzblock: More without a Decode that ran short")
	}
	return d.decode(src)
}

// partial is the block being decoded, as far as its input went: what More
// goes on from.
type partial struct {
	// active: the last Decode or More returned ErrShort.
	active bool
	bit    uint // where the block's magic starts in src[0]
	level  int
	// headed: the header and the tables were read from the input's own
	// bits (not from the zeros read past its end), and are h, symbols,
	// alpha, Decoder.sel and Decoder.trees. Then group is the first group
	// of 50 symbols not known to be read from the input's own bits, and at
	// the offset in bits in src where it starts: every group before it is
	// in Decoder.syms.
	headed  bool
	h       header
	symbols []byte
	alpha   int
	group   int
	at      int64
	// least is an offset in bits in src that the block reaches at least,
	// as far as its header says (0 before it says anything): More with a
	// src shorter than that would run short again. It saves reading a
	// header of many selectors again for every few bytes that arrive.
	least int64
}

// Need returns, after Decode or More returned ErrShort, the fewest bytes
// that src must hold for the block to end within it, as far as the block's
// header tells (no more than the src given, when it tells nothing beyond
// it): a reader that waits for them waits for nothing the block does not
// hold. A damaged block may be refused before them.
func (d *Decoder) Need() int {
	return int((d.part.least + 7) / 8)
}

// decode decodes the block d.part describes from src, from where the
// input ran short the last time, if it did.
func (d *Decoder) decode(src []byte) (*Block, error) {
	p := &d.part
	p.active = false
	blockSize := p.level * 100000
	br := newBitReader(src, int64(p.bit))
	var err error
	if p.headed {
		br = newBitReader(src, p.at)
	} else {
		err = d.head(&br, blockSize)
	}
	n := 0
	if err == nil {
		n, err = d.body(&br, blockSize)
	}
	if br.short() {
		p.active = true
		return nil, ErrShort
	}
	if err != nil {
		return nil, err
	}
	d.inverseBWT(n, p.h.origPtr)
	if p.h.randomised {
		derandomise(d.pieces)
	}
	d.block = Block{pieces: d.pieces, size: n, end: br.offset() - int64(p.bit), want: p.h.crc}
	d.block.reset()
	return &d.block, nil
}

// header is what a block's header says besides its tables.
type header struct {
	crc        uint32 // of the block's bytes
	randomised bool   // the block was randomised before its BWT (random.go)
	origPtr    int    // where the block's first byte is in the BWT
}

// The block is read in two parts, its head (the header and the tables)
// and its body (the symbols, up to the end-of-block symbol, into ll and
// c). The checks are those of the standard library's reader, and in its
// order but for two things. A randomised block, which it refuses, is
// decoded as bzip2 decodes it. And the symbols are all read (readCodes)
// before their runs and move-to-front indexes are undone (symbols), two
// loops that each keep their state in the processor's registers where one
// could not, so that a block with both a bad run or index and, later, a
// bad code or too few selectors fails on the second here, on the first
// there.

// head reads the block's header and tables into d.part.
func (d *Decoder) head(br *bitReader, blockSize int) error {
	p := &d.part
	if br.bits(24)<<24|br.bits(24) != BlockMagic {
		return StructuralError("bad block magic value")
	}
	p.h.crc = uint32(br.bits(32))
	p.h.randomised = br.bit()
	p.h.origPtr = int(br.bits(24))
	symbols, err := d.symbolMap(br)
	if err != nil {
		return err
	}
	p.symbols, p.alpha = symbols, len(symbols)+2
	trees, err := d.selectors(br, p.alpha)
	if err != nil {
		return err
	}
	if err := d.codeLengths(br, trees, p.alpha); err != nil {
		return err
	}
	if len(d.ll) < blockSize+runSlack {
		d.ll = make([]byte, blockSize+runSlack)
		d.tt = make([]uint32, blockSize+1)
	}
	p.headed, p.group, p.at = !br.short(), 0, br.offset()
	return nil
}

// body reads the block's symbols from group d.part.group on and undoes
// their runs and move-to-front indexes, returning the block's length.
func (d *Decoder) body(br *bitReader, blockSize int) (int, error) {
	p := &d.part
	k, err := d.readCodes(br, uint16(p.alpha-1))
	if err != nil {
		return 0, err
	}
	n, err := d.symbols(d.syms[:k], p.symbols, blockSize)
	if err != nil {
		return 0, err
	}
	if p.h.origPtr >= n {
		return 0, StructuralError("origPtr out of bounds")
	}
	return n, nil
}

// symbolMap reads the two-level bitmap of the byte values the block uses,
// and returns them in order.
func (d *Decoder) symbolMap(br *bitReader) ([]byte, error) {
	var symbols [256]byte
	k := 0
	ranges := br.bits(16)
	for r := range 16 {
		if ranges&(1<<(15-r)) == 0 {
			continue
		}
		used := br.bits(16)
		for s := range 16 {
			if used&(1<<(15-s)) != 0 {
				symbols[k] = byte(16*r + s)
				k++
			}
		}
	}
	if k == 0 {
		return nil, StructuralError("no symbols in input")
	}
	return append([]byte(nil), symbols[:k]...), nil
}

// selectors reads the number of trees and the tree of each group of 50
// symbols (move-to-front coded, in unary) into d.sel. It sets d.part.least
// from their number, before reading them and again after.
func (d *Decoder) selectors(br *bitReader, alpha int) (int, error) {
	trees := int(br.bits(3))
	if trees < 2 || trees > maxTrees {
		return 0, StructuralError("invalid number of Huffman trees")
	}
	n := int(br.bits(15))
	d.part.least = br.offset() + int64(n) + minTables(trees, alpha)
	if cap(d.sel) < n {
		d.sel = make([]uint8, n)
	}
	d.sel = d.sel[:n]
	mtf := [maxTrees]uint8{0, 1, 2, 3, 4, 5}
	for i := range d.sel {
		c := 0
		for br.bit() {
			c++
			if c >= trees {
				return 0, StructuralError("tree index too large")
			}
			if br.short() {
				return 0, io.ErrUnexpectedEOF
			}
		}
		v := mtf[c]
		copy(mtf[1:c+1], mtf[:c])
		mtf[0] = v
		d.sel[i] = v
	}
	d.part.least = br.offset() + minTables(trees, alpha)
	return trees, nil
}

// minTables is the fewest bits the code lengths of the trees and one
// symbol take: a tree's first length (5 bits) and a bit ending each
// symbol's.
func minTables(trees, alpha int) int64 { return int64(trees*(5+alpha) + 1) }

// codeLengths reads each tree's code lengths (delta coded from a 5-bit
// start) and builds the trees.
func (d *Decoder) codeLengths(br *bitReader, trees, alpha int) error {
	var lengths [maxAlpha]uint8
	for t := range trees {
		length := int(br.bits(5))
		for j := range alpha {
			for {
				if length < 1 || length > 20 {
					return StructuralError("Huffman length out of range")
				}
				if br.n < 2 {
					br.refill()
				}
				if !br.bit() {
					break
				}
				if br.bit() {
					length--
				} else {
					length++
				}
				if br.short() {
					return io.ErrUnexpectedEOF
				}
			}
			lengths[j] = uint8(length)
		}
		if err := d.trees[t].build(lengths[:alpha], d.codes[:]); err != nil {
			return err
		}
	}
	if len(d.sel) == 0 {
		return StructuralError("no tree selectors given")
	}
	return nil
}

// readCodes reads the block's Huffman codes, each group of 50 with its
// tree, into d.syms up to the end-of-block symbol eob, and returns how many.
// Its inner loop makes no call, so that the bit reader's state stays in
// registers through it: a code longer than the table's bits, or a refill
// near the end of the input, leaves it for one symbol read the careful way.
func (d *Decoder) readCodes(br *bitReader, eob uint16) (int, error) {
	if need := len(d.sel) * groupSize; len(d.syms) < need {
		d.syms = make([]uint16, need)
	}
	src := br.src
	for group := d.part.group; ; group++ {
		tree, err := d.tree(br, group)
		if err != nil {
			return 0, err
		}
		// The group starts within the input's own bits (tree says so):
		// where More goes on if the input ends in it.
		d.part.group, d.part.at = group, br.offset()
		table := &tree.table
		out := d.syms[group*groupSize : (group+1)*groupSize]
		buf, nb, pos := br.buf, br.n, br.pos
		for i := 0; i < len(out); i++ {
			for ; i < len(out); i++ {
				if nb < 20 { // a refill, as bitReader.refill does it
					if pos+8 > len(src) {
						break
					}
					buf |= binary.BigEndian.Uint64(src[pos:]) >> (nb & 63)
					k := (63 - nb) >> 3
					pos, nb = pos+int(k), nb+k<<3
				}
				e := table[buf>>(64-tableBits)]
				if e&31 == slowEntry {
					break
				}
				buf, nb = buf<<(e&31), nb-uint(e&31)
				out[i] = uint16(e >> 5)
				if uint16(e>>5) == eob {
					br.buf, br.n, br.pos = buf, nb, pos
					return group*groupSize + i + 1, nil
				}
			}
			if i == len(out) {
				break
			}
			br.buf, br.n, br.pos = buf, nb, pos
			if br.n < 20 {
				br.refill()
			}
			out[i] = tree.decode(br)
			buf, nb, pos = br.buf, br.n, br.pos
			if out[i] == eob {
				return group*groupSize + i + 1, nil
			}
		}
		br.buf, br.n, br.pos = buf, nb, pos
	}
}

// symbols undoes the runs of RUNA and RUNB that stand for repeats of the
// front byte and the move-to-front indexes of syms (which end with the
// end-of-block symbol), into ll (the bytes) and c (their counts). It
// returns how many bytes.
//
// The move-to-front list keeps its first eight values in a word, so that
// moving one of them to the front is a few shifts rather than a loop whose
// length the processor cannot foresee; a run is written eight copies at
// a time, the first eight whatever its length (ll has room after the
// block), for the same reason.
func (d *Decoder) symbols(syms []uint16, symbols []byte, blockSize int) (int, error) {
	var mtf mtfList
	mtf.init(symbols)
	w0 := mtf.w0
	clear(d.c[:])
	c := &d.c
	ll := d.ll[:blockSize+runSlack]
	last := len(syms) - 1
	n, repeat, power := 0, 0, 1
	for i, v := range syms {
		if v < 2 { // RUNA or RUNB: a digit of a repeat count, in bijective base 2
			if repeat, power = repeat+power<<(v&1), power<<1; repeat > maxRepeat {
				return 0, StructuralError("repeat count too large")
			}
			continue
		}
		if repeat > blockSize-n {
			return 0, StructuralError("repeats past end of block")
		}
		n = run(c, ll, n, repeat, byte(w0))
		repeat, power = 0, 1
		if i == last { // the end of block
			break
		}
		// Index 0 is never coded (a run stands for it): v-1 is the index.
		var b byte
		if k := uint(v - 1); k < 8 {
			sh := k * 8 & 63
			b = byte(w0 >> sh)
			below := uint64(1)<<sh - 1 // the values before it, which move up one
			w0 = w0&^(below<<8|0xff) | (w0&below)<<8 | uint64(b)
		} else {
			b, w0 = mtf.far(w0, int(k))
		}
		if n >= blockSize {
			return 0, StructuralError("data exceeds block size")
		}
		ll[n] = b
		c[b]++
		n++
	}
	return n, nil
}

// tree returns the tree of group g of 50 symbols.
func (d *Decoder) tree(br *bitReader, g int) (*huffman, error) {
	if g >= len(d.sel) {
		return nil, StructuralError("insufficient selector indices for number of symbols")
	}
	if br.short() {
		return nil, io.ErrUnexpectedEOF
	}
	return &d.trees[d.sel[g]], nil
}

// runSlack is the room ll has after a block for the words that write a
// run, eight copies at a time whatever the run's length.
const runSlack = 8

// run writes repeat copies of b at ll[n:] (and some more, up to runSlack
// after them), counts them in c and returns the new length.
func run(c *[256]uint32, ll []byte, n, repeat int, b byte) int {
	c[b] += uint32(repeat)
	w := uint64(b) * 0x0101010101010101
	binary.LittleEndian.PutUint64(ll[n:], w)
	for i := n + 8; i < n+repeat; i += 8 {
		binary.LittleEndian.PutUint64(ll[i:], w)
	}
	return n + repeat
}

// inverseBWT undoes the Burrows-Wheeler transform of the n bytes in tt,
// leaving them in order in d.pieces: each entry of tt gets the index of its
// successor in its upper bits (bzip2's "fast" method: the T vector and the
// bytes in one array), and the chain of successors is followed from
// origPtr's.
func (d *Decoder) inverseBWT(n, origPtr int) {
	d.links(n)
	tt := d.tt[:n]
	first := tt[origPtr] >> 8
	if n >= minWalks && d.walks(first, n) {
		return
	}
	d.grow(n)
	pre := d.pool[:n]
	p := first
	for i := range pre {
		e := tt[p]
		pre[i] = byte(e)
		p = e >> 8
	}
	d.pieces = append(d.pieces[:0], pre)
}

// links makes the first n entries of tt the bytes of ll, each with the
// index of its successor in the upper bits: the entries of byte value b,
// in order, are the successors of the entries that sort under b (bzip2's
// T vector).
func (d *Decoder) links(n int) {
	tt, ll := d.tt[:n], d.ll[:n]
	var start [256]uint32
	sum := uint32(0)
	for b, c := range d.c {
		start[b] = sum
		sum += c
	}
	for i, b := range ll {
		j := start[b]
		tt[j] = uint32(ll[j]) | uint32(i)<<8
		start[b]++
	}
}

// grow makes the pool at least n bytes long.
func (d *Decoder) grow(n int) {
	if len(d.pool) < n {
		d.pool = make([]byte, n)
	}
}
