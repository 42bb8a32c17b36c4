package inflate

import "math/bits"

// Decoding tables.
//
// A canonical Huffman code is decoded by looking up the next bits of the stream
// in a table: the main part is indexed by the next mainBits bits (the first bit
// read is bit 0 of the index), and a codeword longer than mainBits continues in
// a subtable, indexed by the bits after those, which the main entry links to.
// Every slot of a table is an entry, a uint32:
//
//	bits 0-5    the bits to drop for this slot: the codeword's length (in a
//	            subtable, its length past the main part) plus, for a length or
//	            a distance, its extra bits; for a link, mainBits
//	bits 8-11   the codeword's length (where the extra bits start); for a
//	            link, the subtable's index bits
//	bit 12      a link to a subtable
//	bit 13      the end of the block
//	bit 14      special: a link, the end of the block or a symbol the format
//	            does not allow (lengths 286 and 287, distances 30 and 31, and
//	            the slots an incomplete code leaves empty)
//	bit 15      a literal
//	bits 16-31  the literal, the length's or distance's base, or the
//	            subtable's start
//
// So that decoding a length or distance is one lookup and a few shifts: the
// extra bits are (bits & (1<<drop - 1)) >> codeLength, taken from the bit
// buffer as it was before the drop.
const (
	entryDrop     = 0x3f
	codeLenShift  = 8
	flagLink      = 1 << 12
	flagEnd       = 1 << 13
	flagSpecial   = 1 << 14
	flagLiteral   = 1 << 15
	valueShift    = 16
	invalidSymbol = flagSpecial // an entry that decodes as an error
)

// Table sizes. A table's main part has 1<<bits entries; its subtables follow.
// The "enough" sizes are the most that any code of the format needs, as
// zlib's examples/enough.c computes them for the number of symbols, the main
// bits and the longest codeword (15): literal/length codes have 288 symbols
// (the fixed code's; a dynamic one has at most 286), distance codes 32 (the
// fixed code's; at most 30 dynamic), the code-length code 19 symbols of at
// most 7 bits, which the main part always holds.
const (
	litlenBits   = 11
	litlenEnough = 2342
	distBits     = 8
	distEnough   = 402
	precodeBits  = 7
	precodeSize  = 1 << precodeBits
	maxCodeLen   = 15
	numLitlen    = 288 // symbols of the fixed literal/length code
	numDist      = 32  // symbols of the fixed distance code
	numPrecode   = 19
	endOfBlock   = 256
)

// litlenTemplate[s], distTemplate[s] and precodeTemplate[s] are symbol s's
// entry without its codeword: flags, value and the number of extra bits (in
// the drop field, to which the codeword's length is added).
var (
	litlenTemplate  = makeLitlenTemplate()
	distTemplate    = makeDistTemplate()
	precodeTemplate = makePrecodeTemplate()
)

func makeLitlenTemplate() (t [numLitlen]uint32) {
	for s := 0; s < 256; s++ {
		t[s] = flagLiteral | uint32(s)<<valueShift
	}
	t[endOfBlock] = flagSpecial | flagEnd
	// Lengths 3-258: symbols 257-284 in groups of four with 0-5 extra bits
	// (the first eight with none), 285 is 258.
	base := uint32(3)
	for s := 257; s < 285; s++ {
		extra := uint32(0)
		if s >= 265 {
			extra = uint32(s-261) / 4
		}
		t[s] = base<<valueShift | extra
		base += 1 << extra
	}
	t[285] = 258 << valueShift
	t[286] = invalidSymbol
	t[287] = invalidSymbol
	return t
}

func makeDistTemplate() (t [numDist]uint32) {
	// Distances 1-32768: symbols 0-29 in pairs with 0-13 extra bits (the
	// first four with none).
	base := uint32(1)
	for s := 0; s < 30; s++ {
		extra := uint32(0)
		if s >= 4 {
			extra = uint32(s-2) / 2
		}
		t[s] = base<<valueShift | extra
		base += 1 << extra
	}
	t[30] = invalidSymbol
	t[31] = invalidSymbol
	return t
}

func makePrecodeTemplate() (t [numPrecode]uint32) {
	for s := range t {
		t[s] = uint32(s) << valueShift
	}
	return t
}

// build fills table with the decoding entries of the canonical Huffman code
// whose codeword lengths are lengths (0: the symbol has no codeword), with a
// main part of 1<<mainBits entries and subtables after it. It returns false
// for lengths that make no prefix code: an over-subscribed code, or an
// incomplete one, except the two incomplete codes zlib (and so
// compress/flate) accepts: a single codeword of length 1, and no codeword at
// all; their empty slots decode as invalid symbols. It also returns false if
// the subtables would not fit in table, which the enough sizes above rule out.
func build(table []uint32, lengths []uint8, template []uint32, mainBits uint) bool {
	var count [maxCodeLen + 1]int
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	left, total := 1, 0
	for l := 1; l <= maxCodeLen; l++ {
		left = left<<1 - count[l]
		if left < 0 {
			return false // over-subscribed
		}
		total += count[l]
	}
	if left > 0 {
		if total > 1 || (total == 1 && count[1] != 1) {
			return false // incomplete
		}
		for i := range table[:1<<mainBits] {
			table[i] = invalidSymbol
		}
	}
	// The symbols in canonical order: by length, then by symbol.
	var offset [maxCodeLen + 2]int
	for l := 1; l <= maxCodeLen; l++ {
		offset[l+1] = offset[l] + count[l]
	}
	var sorted [numLitlen]uint16
	for s, l := range lengths {
		if l != 0 {
			sorted[offset[l]] = uint16(s)
			offset[l]++
		}
	}
	return fill(table, sorted[:total], lengths, template, count, mainBits)
}

// fill writes the entries of the symbols of sorted, in canonical order, into
// table: see build. count[l] is the number of codewords of length l.
func fill(table []uint32, sorted []uint16, lengths []uint8, template []uint32, count [maxCodeLen + 1]int, mainBits uint) bool {
	code := 0 // the canonical codeword of the symbol, most significant bit first
	prevLen := uint(0)
	next := 1 << mainBits // where the next subtable starts
	prefix := -1          // the main-part bits of the current subtable's codewords
	var sub uint          // the current subtable's index bits
	var start int         // and its start
	for _, s := range sorted {
		l := uint(lengths[s])
		code <<= l - prevLen
		prevLen = l
		rev := int(bits.Reverse16(uint16(code)) >> (16 - l)) // the codeword as the stream gives it, first bit in bit 0
		e := template[s]
		if l <= mainBits {
			e += uint32(l)<<codeLenShift + uint32(l)
			for i := rev; i < 1<<mainBits; i += 1 << l {
				table[i] = e
			}
		} else {
			if p := rev & (1<<mainBits - 1); p != prefix {
				prefix, start = p, next
				sub = subtableBits(count, l, mainBits)
				if next += 1 << sub; next > len(table) {
					return false
				}
				table[p] = flagSpecial | flagLink | uint32(start)<<valueShift | uint32(sub)<<codeLenShift | uint32(mainBits)
			}
			rest := l - mainBits
			e += uint32(rest)<<codeLenShift + uint32(rest)
			for i := rev >> mainBits; i < 1<<sub; i += 1 << rest {
				table[start+i] = e
			}
		}
		count[l]--
		code++
	}
	return true
}

// subtableBits returns the index bits of the subtable that starts with a
// codeword of length l: enough for every codeword that shares its first
// mainBits bits, given the counts of the codewords not yet placed (this one
// included). Those codewords are the next ones in canonical order, so the
// subtable is as small as holds the code space left at its prefix.
func subtableBits(count [maxCodeLen + 1]int, l, mainBits uint) uint {
	sub := l - mainBits
	left := 1 << sub
	for l < maxCodeLen {
		left -= count[l]
		if left <= 0 {
			break
		}
		l++
		sub++
		left <<= 1
	}
	return sub
}
