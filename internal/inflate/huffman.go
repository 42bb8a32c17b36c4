package inflate

import "unsafe"

const (
	litlenMask = 1<<litlenBits - 1
	distMask   = 1<<distBits - 1
	// inMargin is the input the fast loop keeps in hand: one iteration
	// refills its bit buffer at most twice, each a load of 8 bytes at most 7
	// past the last.
	inMargin = 16
)

// huffman decodes the symbols of a Huffman-coded block until the block
// ends, the burst is full, the decoder fails, or the input buffered is
// exhausted, then returning false.
func (d *Decoder) huffman() bool {
	for d.state == inHuffman && d.err == nil && d.out.w < d.out.limit {
		if d.in.ip+inMargin <= len(d.in.in) {
			d.fast()
			continue
		}
		if !d.slowSymbol() {
			return false
		}
	}
	return true
}

// fast decodes symbols while the input buffered holds inMargin bytes and
// the burst has room, with a bit buffer refilled a word at a time: after a
// refill it holds 56 bits at least, which is enough for a length and its
// distance (15+5 and 15+13 bits), or three literals. The next symbol's
// entry is looked up as soon as the bits before it are dropped (the lookup
// needs litlenBits of them, and a refill adds bits only above those), so
// that the load overlaps a refill or a match's copy.
//
// Its loads and stores are unchecked (word): the loop's condition keeps them
// inside in and buf. Each iteration refills at most twice (after literals,
// after a match), each a load of 8 bytes at most 7 past the last, and
// starts with ip <= len(in)-inMargin; it starts with w < limit and writes at
// most 3 literals or a match of at most 258 bytes, copied in words of 8 that
// end at most 7 bytes past it or at 32 bytes (copyRest copies a long one's
// rest, and a short distance's match), within buf's slack; a match reads
// from w-distance with distance <= w.
func (d *Decoder) fast() {
	inp, out := d.fastPointers()
	ip, bits, nbits, w := d.in.ip, d.in.bits, d.in.nbits, d.out.w
	lit, dist, inEnd, outEnd := d.lit, d.dist, len(d.in.in)-inMargin, d.out.limit
	e := lit[bits&litlenMask] // the next symbol's, looked up with 56 bits in hand
	for ip <= inEnd && w < outEnd {
		if e&flagLink != 0 { // a codeword longer than the main part: its subtable's entry
			bits, nbits = bits>>litlenBits, nbits-litlenBits
			e = lit[e>>valueShift+uint32(bits)&(1<<(e>>codeLenShift&15)-1)]
		}
		if e&flagLiteral != 0 { // up to three literals, the next symbol looked up, a refill
			bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
			store8(out, w-1, byte(e>>valueShift))
			if e = lit[bits&litlenMask]; e&flagLiteral != 0 {
				bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
				store8(out, w-1, byte(e>>valueShift))
				if e = lit[bits&litlenMask]; e&flagLiteral != 0 {
					bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
					store8(out, w-1, byte(e>>valueShift))
					e = lit[bits&litlenMask]
				}
			}
			bits, ip, nbits = bits|load64(inp, ip)<<(nbits&63), ip+int((63-nbits)>>3), nbits|56
			if e&(flagLiteral|flagLink) != 0 { // the next symbol is a literal or long: from the top
				continue
			}
		}
		if e&flagSpecial != 0 { // the end of the block, or an invalid symbol
			d.special(e, ip, bits>>(e&63), nbits-uint(e&63), w)
			return
		}
		length := int(e>>valueShift) + int(bits&(1<<(e&63)-1)>>(e>>codeLenShift&15))
		bits, nbits = bits>>(e&63), nbits-uint(e&63)
		if e = dist[bits&distMask]; e&flagLink != 0 {
			bits, nbits = bits>>distBits, nbits-distBits
			e = dist[e>>valueShift+uint32(bits)&(1<<(e>>codeLenShift&15)-1)]
		}
		distance := int(e>>valueShift) + int(bits&(1<<(e&63)-1)>>(e>>codeLenShift&15))
		bits, nbits = bits>>(e&63), nbits-uint(e&63)
		if e&flagSpecial != 0 || distance > w {
			d.badDistance(e, ip, bits, nbits, w)
			return
		}
		bits, ip, nbits = bits|load64(inp, ip)<<(nbits&63), ip+int((63-nbits)>>3), nbits|56
		e = lit[bits&litlenMask] // before the copy, which does not depend on it
		if distance >= 8 {       // four words whatever the length: no branch on it
			store64(out, w, load64(out, w-distance))
			store64(out, w+8, load64(out, w+8-distance))
			store64(out, w+16, load64(out, w+16-distance))
			store64(out, w+24, load64(out, w+24-distance))
		}
		if distance < 8 || length > 32 {
			copyRest(out, w, distance, length)
		}
		w += length
	}
	d.save(ip, bits, nbits, w)
}

// fastPointers returns the data pointers of the input buffered and of the
// output buffer, once it has checked what fast's bounds rely on, and fills
// the bit buffer (56 bits at least) for fast's first lookup.
func (d *Decoder) fastPointers() (in, out unsafe.Pointer) {
	if len(d.out.buf) != outSize || d.out.limit > outSize-slack || d.in.ip+inMargin > len(d.in.in) {
		panic("inflate: fast loop bounds")
	}
	d.in.refillWord()
	return unsafe.Pointer(unsafe.SliceData(d.in.in)), unsafe.Pointer(unsafe.SliceData(d.out.buf))
}

// copyRest copies what the fast loop's four words do not of a match at w:
// a match of distance 8 or more past its first 32 bytes, in words; of
// distance 1, a byte repeated in words; of distance 2 to 7, byte by byte.
func copyRest(out unsafe.Pointer, w, distance, length int) {
	end := w + length
	switch {
	case distance >= 8:
		for i := w + 32; i < end; i += 8 {
			store64(out, i, load64(out, i-distance))
		}
	case distance == 1:
		v := uint64(load8(out, w-1)) * 0x0101010101010101
		for i := w; i < end; i += 8 {
			store64(out, i, v)
		}
	default:
		for i := w; i < end; i++ {
			store8(out, i, load8(out, i-distance))
		}
	}
}

// special stops the fast loop (its registers saved) at a special
// literal/length entry: the end of the block, or a symbol not allowed.
func (d *Decoder) special(e uint32, ip int, bits uint64, nbits uint, w int) {
	d.save(ip, bits, nbits, w)
	d.endSpecial(e)
}

// endSpecial ends a block at a special literal/length entry e: its end, or
// a symbol not allowed (the fast loops' registers saved by their caller).
func (d *Decoder) endSpecial(e uint32) {
	if e&flagEnd != 0 {
		d.endBlock()
	} else {
		d.corrupt("invalid literal/length symbol")
	}
}

// badDistance stops the fast loop (its registers saved) at an invalid
// distance symbol (e special) or a distance past the history.
func (d *Decoder) badDistance(e uint32, ip int, bits uint64, nbits uint, w int) {
	d.save(ip, bits, nbits, w)
	d.endDistance(e)
}

// endDistance reports a bad distance: an invalid distance symbol (e
// special), or one past the history.
func (d *Decoder) endDistance(e uint32) {
	if e&flagSpecial != 0 {
		d.corrupt("invalid distance symbol")
	} else {
		d.corrupt("distance too far back")
	}
}

// save writes the fast loop's registers back.
func (d *Decoder) save(ip int, bits uint64, nbits uint, w int) {
	d.in.ip, d.in.bits, d.in.nbits = ip, bits, nbits
	d.out.w = w
}

// lookup decodes the symbol at the start of bits, of which n are valid,
// with table (main part of mainBits bits). It returns the symbol's entry,
// the bits before the entry's own (mainBits for a subtable's, else 0) and
// whether the n bits hold the symbol with its extra bits.
func lookup(table []uint32, bits uint64, n, mainBits uint) (e uint32, skip uint, ok bool) {
	e = table[bits&(1<<mainBits-1)]
	if e&flagLink != 0 {
		if n < mainBits {
			return 0, 0, false
		}
		skip = mainBits
		e = table[e>>valueShift+uint32(bits>>mainBits)&(1<<(e>>codeLenShift&15)-1)]
	}
	return e, skip, skip+uint(e&entryDrop) <= n
}

// value returns the length or distance of entry e, given the bits that
// start at its codeword.
func value(e uint32, bits uint64) int {
	return int(e>>valueShift) + int(bits&(1<<(e&entryDrop)-1)>>(e>>codeLenShift&15))
}

// slowSymbol decodes one symbol with the bits the buffered input holds,
// copying a match byte by byte. It returns false, consuming nothing, when
// they do not hold all of it (with a length, its distance).
func (d *Decoder) slowSymbol() bool {
	in, out := &d.in, &d.out
	in.refill()
	e, skip, ok := lookup(d.lit[:], in.bits, in.nbits, litlenBits)
	if !ok {
		return false
	}
	used := skip + uint(e&entryDrop)
	switch {
	case e&flagLiteral != 0:
		in.drop(used)
		out.buf[out.w] = byte(e >> valueShift)
		out.w++
		return true
	case e&flagSpecial != 0: // the end of the block (flagEnd), or a symbol not allowed
		in.drop(used)
		d.endSpecial(e)
		return true
	}
	length := value(e, in.bits>>skip)
	de, dskip, ok := lookup(d.dist[:], in.bits>>used, in.nbits-used, distBits)
	if !ok {
		return false
	}
	if de&flagSpecial != 0 {
		in.drop(used + dskip + uint(de&entryDrop))
		d.corrupt("invalid distance symbol")
		return true
	}
	distance := value(de, in.bits>>(used+dskip))
	in.drop(used + dskip + uint(de&entryDrop))
	if distance > out.w {
		d.corrupt("distance too far back")
		return true
	}
	for i := out.w; i < out.w+length; i++ {
		out.buf[i] = out.buf[i-distance]
	}
	out.w += length
	return true
}
