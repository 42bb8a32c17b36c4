package inflate

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

// Finding block boundaries without decoding what comes before them, for a
// decoder that starts in the middle of a stream on a guess (internal/pgzip).
//
// A dynamic-Huffman block's header is self-checking: its type bits, counts
// in range, a code-length code that is a complete prefix code, code lengths
// that decode with it to exactly the counts given, and codes built from them
// that the decoder accepts, with a codeword for the end of the block. Random
// bits pass all of that rarely (docs/performance.md has the measured rate),
// and every header a compressor writes passes it. Stored and fixed-code
// blocks carry no such check, and are not looked for.

// NextHeader returns the first bit offset p in [from, to) at which data
// holds the whole header of a dynamic-Huffman block that the decoder would
// accept and whose end of block can be coded, bit 0 being the least
// significant bit of data[0]; -1 if there is none. A header that runs past
// the end of data is not found. It is a guess at a block boundary: the
// bits there may be anything that happens to look like a header.
func NextHeader(data []byte, from, to int64) int64 {
	kt := kraftTables()
	to = min(to, int64(len(data))*8)
	for p := max(from, 0); p < to; {
		x, valid := wordAt(data, p)
		// Positions whose first 13 bits can start a dynamic header: type
		// bits 1 and 2 (BTYPE 2), HLIT below 30 (bits 3-7 not 1111x from
		// bit 4) and HDIST below 30 (bits 8-12 likewise from bit 9), for
		// all the positions of the word at once.
		m := ^(x >> 1) & (x >> 2) &^ (x >> 4 & (x >> 5) & (x >> 6) & (x >> 7)) &^ (x >> 9 & (x >> 10) & (x >> 11) & (x >> 12))
		n := min(int64(valid)-12, to-p)
		if n <= 0 {
			return -1
		}
		if n < 64 {
			m &= 1<<uint(n) - 1
		}
		for m != 0 {
			i := p + int64(bits.TrailingZeros64(m))
			m &= m - 1
			// The code-length code must be complete: build accepts no
			// incomplete code but one of a single codeword, and no code
			// lengths made with such a code give a literal/length code
			// with an end of block. Random bits seldom pass this (1 in
			// 250 here), so it is done here, the lengths' shares of the
			// code space summed four at a time; headerAt does the rest
			// (or all, near the end of data).
			if k := int((i + 17) >> 3); k+8 <= len(data) {
				hclen := binary.LittleEndian.Uint16(data[(i+13)>>3:]) >> ((i + 13) & 7) & 15
				y := binary.LittleEndian.Uint64(data[k:]) >> ((i + 17) & 7) & kt.precodeMask[hclen]
				if kt.sum(y) != 128 {
					continue
				}
			}
			if _, ok := headerAt(data, i, kt); ok {
				return i
			}
		}
		p += n
	}
	return -1
}

// wordAt returns the bits of data from bit p on, the first in bit 0, and how
// many of them data holds (up to 57, fewer at its end; the rest are zero).
func wordAt(data []byte, p int64) (uint64, uint) {
	i := int(p >> 3)
	if i >= len(data) {
		return 0, 0
	}
	var x uint64
	if i+8 <= len(data) {
		x = binary.LittleEndian.Uint64(data[i:])
	} else {
		var b [8]byte
		copy(b[:], data[i:])
		x = binary.LittleEndian.Uint64(b[:])
	}
	valid := min(64, (len(data)-i)*8) - int(p&7)
	return x >> (p & 7), uint(min(valid, 57))
}

// kraftPrecode[l] is a code-length codeword of length l's share of the code
// space of 7-bit codewords (zero for no codeword).
var kraftPrecode = [8]uint16{0, 64, 32, 16, 8, 4, 2, 1}

// kraft holds the tables of the check of a code-length code: kraft4[x] is the
// sum of the shares of the four 3-bit lengths of x; precodeMask[h] keeps the
// 3-bit lengths of a header whose HCLEN is h.
type kraft struct {
	precodeMask [16]uint64
	kraft4      [1 << 12]uint16
}

// sum is the sum of the shares of the 3-bit lengths of y (up to 19 of them).
func (k *kraft) sum(y uint64) uint16 {
	return k.kraft4[y&0xfff] + k.kraft4[y>>12&0xfff] + k.kraft4[y>>24&0xfff] + k.kraft4[y>>36&0xfff] + k.kraft4[y>>48&0xfff]
}

// kraftTables builds the tables on first use rather than when the program
// starts: only a decoder that guesses block boundaries (internal/pgzip) uses
// them, and every other program that links this package should not pay for
// them (docs/performance.md, "Start-up").
var kraftTables = sync.OnceValue(func() *kraft {
	k := new(kraft)
	for h := range k.precodeMask {
		k.precodeMask[h] = 1<<(3*(h+4)) - 1
	}
	for x := range k.kraft4 {
		for i := range 4 {
			k.kraft4[x] += kraftPrecode[x>>(3*i)&7]
		}
	}
	return k
})

// headerAt reports whether a dynamic block's header that the decoder would
// accept starts at bit p of data, whole within data, with a codeword for the
// end of the block, and if so where the header ends. Its checks are the
// decoder's (dynamicHeader and build), cheapest first.
func headerAt(data []byte, p int64, k *kraft) (end int64, ok bool) {
	x, valid := wordAt(data, p)
	if valid < 17 {
		return 0, false
	}
	nlit := int(x>>3&31) + 257
	ndist := int(x>>8&31) + 1
	nprecode := int(x>>13&15) + 4
	y, valid := wordAt(data, p+17)
	if int(valid) < 3*nprecode {
		return 0, false
	}
	// The code-length code must be complete: build accepts no incomplete
	// code but one of a single codeword, and no code lengths made with
	// such a code give a literal/length code with an end of block. The
	// lengths' shares of the code space are summed four at a time.
	y &= 1<<(3*uint(nprecode)) - 1
	if k.sum(y) != 128 {
		return 0, false
	}
	var lengths [numLitlen + numDist]uint8
	for i := range nprecode {
		lengths[precodeOrder[i]] = uint8(y >> (3 * i) & 7)
	}
	var precode [precodeSize]uint32
	if !build(precode[:], lengths[:numPrecode], precodeTemplate[:], precodeBits) {
		return 0, false
	}
	clear(lengths[:numPrecode])
	r := bitCursor{data: data, p: p + 17 + 3*int64(nprecode)}
	if !r.codeLengths(&precode, lengths[:nlit+ndist], nlit) {
		return 0, false
	}
	ok = lengths[endOfBlock] != 0 && acceptable(lengths[:nlit]) && acceptable(lengths[nlit:nlit+ndist])
	return r.p, ok
}

// acceptable reports whether build accepts a code of these codeword lengths:
// a complete prefix code, a single codeword of length 1, or none.
func acceptable(lengths []uint8) bool {
	space, total := 0, 0 // the code space used, in units of a 15-bit codeword
	for _, l := range lengths {
		if l != 0 {
			space += 1 << (maxCodeLen - l)
			total++
		}
	}
	return space == 1<<maxCodeLen || total == 0 || (total == 1 && space == 1<<(maxCodeLen-1))
}

// bitCursor reads bits of a byte slice from bit p on.
type bitCursor struct {
	data []byte
	p    int64
}

// codeLengths decodes the code lengths of a dynamic header with the
// code-length code's table, as Decoder.codeLengths does, reporting false
// where it finds an error or data ends. The first nlit lengths are the
// literal/length code's; it gives up as soon as the lengths so far
// over-subscribe either code, which random bits soon do.
func (r *bitCursor) codeLengths(precode *[precodeSize]uint32, lengths []uint8, nlit int) bool {
	var space [2]int // the code space each code has used, in units of a 15-bit codeword
	for i := 0; i < len(lengths); {
		x, valid := wordAt(r.data, r.p)
		e := precode[x&(precodeSize-1)]
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
		if used+extra > valid || e&flagSpecial != 0 {
			return false
		}
		repeat += uint(x>>used) & (1<<extra - 1)
		r.p += int64(used + extra)
		value := uint8(sym)
		switch {
		case sym < 16:
			repeat = 1
		case sym == 16:
			if i == 0 {
				return false
			}
			value = lengths[i-1]
		default:
			value = 0
		}
		if i+int(repeat) > len(lengths) {
			return false
		}
		for ; repeat > 0; repeat-- {
			lengths[i] = value
			if value != 0 {
				c := 0
				if i >= nlit {
					c = 1
				}
				if space[c] += 1 << (maxCodeLen - value); space[c] > 1<<maxCodeLen {
					return false
				}
			}
			i++
		}
	}
	return true
}
