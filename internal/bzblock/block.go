package bzblock

import (
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
	// tt is the block after entropy decoding: a byte in the low 8 bits of
	// each entry, and after the inverse BWT the index of the entry to read
	// after it in the bits above, as in bzip2's "fast" decoder. It has
	// room for one entry more than the largest block: the walks' sink.
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
}

// Decode decodes the block whose magic number starts at bit bit (0-7, from
// the most significant) of src[0], for a stream of the given level (1-9:
// the largest block is level*100,000 bytes before its final run-length
// decoding). It returns the block, whose bytes are read from it; reading it
// to its end checks the block's CRC. The Block is valid until the next
// Decode. src must hold the whole block; ErrShort says that it does not.
func (d *Decoder) Decode(src []byte, bit uint, level int) (*Block, error) {
	if level < 1 || level > 9 || bit > 7 {
		return nil, errors.New("bzblock: level or bit out of range")
	}
	br := newBitReader(src, bit)
	n, origPtr, crc, err := d.entropy(&br, level*100000)
	if br.short() {
		return nil, ErrShort
	}
	if err != nil {
		return nil, err
	}
	d.inverseBWT(n, origPtr)
	d.block = Block{pieces: d.pieces, size: n, end: br.offset() - int64(bit), want: crc}
	d.block.reset()
	return &d.block, nil
}

// entropy reads the block up to its end-of-block symbol into tt and c,
// returning its length, its origin pointer and its CRC. The checks and
// their order are those of the standard library's reader.
func (d *Decoder) entropy(br *bitReader, blockSize int) (n int, origPtr int, crc uint32, err error) {
	if br.bits(24)<<24|br.bits(24) != BlockMagic {
		return 0, 0, 0, StructuralError("bad block magic value")
	}
	crc = uint32(br.bits(32))
	if br.bit() {
		return 0, 0, 0, StructuralError("deprecated randomized files")
	}
	origPtr = int(br.bits(24))
	symbols, err := d.symbolMap(br)
	if err != nil {
		return 0, 0, 0, err
	}
	trees, err := d.selectors(br)
	if err != nil {
		return 0, 0, 0, err
	}
	alpha := len(symbols) + 2
	if err := d.codeLengths(br, trees, alpha); err != nil {
		return 0, 0, 0, err
	}
	if len(d.tt) < blockSize+1 { // and the walks' sink
		d.tt = make([]uint32, blockSize+1)
	}
	n, err = d.symbols(br, symbols, alpha, blockSize)
	if err != nil {
		return 0, 0, 0, err
	}
	if origPtr >= n {
		return 0, 0, 0, StructuralError("origPtr out of bounds")
	}
	return n, origPtr, crc, nil
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
// symbols (move-to-front coded, in unary) into d.sel.
func (d *Decoder) selectors(br *bitReader) (int, error) {
	trees := int(br.bits(3))
	if trees < 2 || trees > maxTrees {
		return 0, StructuralError("invalid number of Huffman trees")
	}
	n := int(br.bits(15))
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
	return trees, nil
}

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

// symbols decodes the block's symbols: Huffman codes, the runs of RUNA and
// RUNB that stand for repeats of the front byte, and move-to-front indexes,
// into tt (the bytes) and c (their counts). It returns how many bytes.
func (d *Decoder) symbols(br *bitReader, symbols []byte, alpha, blockSize int) (int, error) {
	var mtf [256]byte
	copy(mtf[:], symbols)
	clear(d.c[:])
	tt := d.tt[:blockSize]
	eob := uint16(alpha - 1)
	n := 0
	repeat, power := 0, 0
	group, left := 0, 0 // the group of 50 symbols, and the symbols left in it
	var tree *huffman
	for {
		if left == 0 {
			var err error
			if tree, err = d.tree(br, group); err != nil {
				return 0, err
			}
			group, left = group+1, groupSize
		}
		if br.n < 20 {
			br.refill()
		}
		v := tree.decode(br)
		left--
		if v < 2 { // RUNA or RUNB: a digit of a repeat count
			if repeat, power = runDigit(repeat, power, v); repeat > maxRepeat {
				return 0, StructuralError("repeat count too large")
			}
			continue
		}
		if repeat > 0 {
			if repeat > blockSize-n {
				return 0, StructuralError("repeats past end of block")
			}
			n = d.run(tt, n, repeat, mtf[0])
			repeat = 0
		}
		if v == eob {
			return n, nil
		}
		// Index 0 is never coded (a run stands for it): v-1 is the index.
		k := int(v - 1)
		b := mtf[k]
		if k < 16 { // most indexes are small: a loop beats copy's call
			for i := k; i > 0; i-- {
				mtf[i] = mtf[i-1]
			}
		} else {
			copy(mtf[1:k+1], mtf[:k])
		}
		mtf[0] = b
		if n >= blockSize {
			return 0, StructuralError("data exceeds block size")
		}
		tt[n] = uint32(b)
		d.c[b]++
		n++
	}
}

// runDigit adds the digit v (RUNA 0, RUNB 1) to a repeat count written in
// bijective base 2, the lowest digit first; power is the next digit's
// weight.
func runDigit(repeat, power int, v uint16) (int, int) {
	if repeat == 0 {
		power = 1
	}
	return repeat + power<<v, power << 1
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

// run writes repeat copies of b at tt[n:] and returns the new length.
func (d *Decoder) run(tt []uint32, n, repeat int, b byte) int {
	d.c[b] += uint32(repeat)
	for i := n; i < n+repeat; i++ {
		tt[i] = uint32(b)
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

// links puts in the upper bits of each of the n entries of tt the index of
// its successor: the entries of byte value b, in order, are the successors
// of the entries that sort under b (bzip2's T vector).
func (d *Decoder) links(n int) {
	tt := d.tt[:n]
	var start [256]uint32
	sum := uint32(0)
	for b, c := range d.c {
		start[b] = sum
		sum += c
	}
	for i := range tt {
		b := tt[i] & 0xff
		tt[start[b]] |= uint32(i) << 8
		start[b]++
	}
}

// grow makes the pool at least n bytes long.
func (d *Decoder) grow(n int) {
	if len(d.pool) < n {
		d.pool = make([]byte, n)
	}
}
