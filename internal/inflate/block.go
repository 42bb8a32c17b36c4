package inflate

import (
	"io"
	"sync"
)

// fixedTables are the tables of the fixed Huffman codes (RFC 1951
// 3.2.6): literal/lengths 0-143 of 8 bits, 144-255 of 9, 256-279 of 7,
// 280-287 of 8; distances of 5 bits. They are built by the first fixed-code
// block, not when the program starts (docs/performance.md, "Start-up").
var fixedTables = sync.OnceValues(makeFixed)

func makeFixed() (lit *[litlenEnough]uint32, dist *[distEnough]uint32) {
	lit, dist = new([litlenEnough]uint32), new([distEnough]uint32)
	var l [numLitlen]uint8
	for s := range l {
		switch {
		case s < 144:
			l[s] = 8
		case s < 256:
			l[s] = 9
		case s < 280:
			l[s] = 7
		default:
			l[s] = 8
		}
	}
	var dl [numDist]uint8
	for s := range dl {
		dl[s] = 5
	}
	if !build(lit[:], l[:], litlenTemplate[:], litlenBits) || !build(dist[:], dl[:], distTemplate[:], distBits) {
		panic("inflate: the fixed codes do not build")
	}
	return lit, dist
}

// precodeOrder is the order in which the code-length code's lengths come.
var precodeOrder = [numPrecode]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// header reads a block's header, and for a dynamic block its codes. It
// returns false, reading nothing, when bytes decoded are waiting and the
// input buffered may not hold the whole header: they go out first.
func (d *Decoder) header() bool {
	in := &d.in
	if d.out.w > d.out.r && len(in.in)-in.ip < maxHeader {
		return false
	}
	if !d.hooked {
		d.hooked = true
		if d.onBlock != nil {
			d.onBlock(Block{Bit: in.consumed(), Out: d.out.offset()})
		}
	}
	if !d.need(3) {
		return true
	}
	d.final = in.bits&1 != 0
	kind := in.bits >> 1 & 3
	in.drop(3)
	switch kind {
	case 0:
		d.storedHeader()
	case 1:
		d.lit, d.dist = fixedTables()
		d.state = inHuffman
	case 2:
		d.dynamicHeader()
	default:
		d.corrupt("invalid block type")
	}
	return true
}

// need loads n bits, or fails the decoder and reports false.
func (d *Decoder) need(n uint) bool {
	if err := d.in.fill(n); err != nil {
		d.fail(err)
		return false
	}
	if d.in.nbits < n {
		d.fail(io.EOF)
		return false
	}
	return true
}

// storedHeader reads a stored block's lengths, after its 3 header bits.
func (d *Decoder) storedHeader() {
	in := &d.in
	in.align()
	if !d.need(32) {
		return
	}
	n, nn := uint16(in.bits), uint16(in.bits>>16)
	in.drop(32)
	if n != ^nn {
		d.corrupt("stored block length does not match its complement")
		return
	}
	in.unload() // bits is empty: the stored bytes are read from in
	d.stored = int(n)
	d.state = inStored
	if n == 0 {
		d.endBlock()
	}
}

// copyStored copies a stored block's bytes, from the input as buffered to
// the output. It returns false when the buffered input is exhausted.
func (d *Decoder) copyStored() bool {
	in, out := &d.in, &d.out
	for d.stored > 0 {
		if out.w >= out.limit {
			return true
		}
		if in.ip == len(in.in) {
			return false
		}
		n := copy(out.buf[out.w:min(out.limit, out.w+d.stored)], in.in[in.ip:])
		out.w += n
		in.ip += n
		d.stored -= n
	}
	d.endBlock()
	return true
}

// dynamicHeader reads a dynamic block's codes, after its 3 header bits, and
// builds its tables.
func (d *Decoder) dynamicHeader() {
	in := &d.in
	if !d.need(14) {
		return
	}
	nlit := int(in.bits&31) + 257
	ndist := int(in.bits>>5&31) + 1
	nprecode := int(in.bits>>10&15) + 4
	in.drop(14)
	if nlit > 286 || ndist > 30 {
		d.corrupt("too many length or distance codes")
		return
	}
	var lengths [numLitlen + numDist]uint8
	for i := 0; i < nprecode; i++ {
		if !d.need(3) {
			return
		}
		lengths[precodeOrder[i]] = uint8(in.bits & 7)
		in.drop(3)
	}
	var precode [precodeSize]uint32
	if !build(precode[:], lengths[:numPrecode], precodeTemplate[:], precodeBits) {
		d.corrupt("invalid code-length code")
		return
	}
	clear(lengths[:numPrecode])
	if !d.codeLengths(&precode, lengths[:nlit+ndist]) {
		return
	}
	if lengths[256] == 0 {
		// A block that cannot end, which zlib refuses here, before any of it
		// is output (Go's compress/flate TestStreams cases 5 and 6).
		d.corrupt("missing end-of-block code")
		return
	}
	if !build(d.dynLit[:], lengths[:nlit], litlenTemplate[:], litlenBits) {
		d.corrupt("invalid literal/length code")
		return
	}
	if !build(d.dynDist[:], lengths[nlit:nlit+ndist], distTemplate[:], distBits) {
		d.corrupt("invalid distance code")
		return
	}
	d.lit, d.dist = &d.dynLit, &d.dynDist
	d.state = inHuffman
}

// codeLengths reads the code lengths of a dynamic block's two codes into
// lengths, decoding them with the code-length code's table.
func (d *Decoder) codeLengths(precode *[precodeSize]uint32, lengths []uint8) bool {
	in := &d.in
	for i := 0; i < len(lengths); {
		// A symbol is at most 7 bits and its repeat count 7 more; the end of
		// the stream may come sooner, where fewer bits can still be enough.
		if err := in.fill(14); err != nil {
			d.fail(err)
			return false
		}
		e := precode[in.bits&(precodeSize-1)]
		used := uint(e & entryDrop)
		sym := e >> valueShift
		var extra, repeat uint
		switch sym {
		case 16:
			extra, repeat = 2, 3
		case 17:
			extra, repeat = 3, 3
		case 18:
			extra, repeat = 7, 11
		}
		if used+extra > in.nbits {
			d.fail(io.EOF)
			return false
		}
		if e&flagSpecial != 0 {
			d.corrupt("invalid code-length code")
			return false
		}
		repeat += uint(in.bits>>used) & (1<<extra - 1)
		in.drop(used + extra)
		if sym < 16 {
			lengths[i] = uint8(sym)
			i++
			continue
		}
		var value uint8
		if sym == 16 {
			if i == 0 {
				d.corrupt("repeated code length with no previous one")
				return false
			}
			value = lengths[i-1]
		}
		if i+int(repeat) > len(lengths) {
			d.corrupt("code lengths past the number of codes")
			return false
		}
		for ; repeat > 0; repeat-- {
			lengths[i] = value
			i++
		}
	}
	return true
}
