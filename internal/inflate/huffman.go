package inflate

import "encoding/binary"

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
// distance (15+5 and 15+13 bits), or three literals.
func (d *Decoder) fast() {
	in, ip := d.in.in, d.in.ip
	bits, nbits := d.in.bits, d.in.nbits
	buf, w := d.out.buf, d.out.w
	lit, dist := d.lit, d.dist
	inEnd := len(in) - inMargin
	outEnd := d.out.limit
	for ip <= inEnd && w < outEnd {
		bits |= binary.LittleEndian.Uint64(in[ip:]) << (nbits & 63)
		ip += int((63 - nbits) >> 3)
		nbits |= 56
		e := lit[bits&litlenMask]
		if e&flagLiteral != 0 {
			bits >>= e & 63
			nbits -= uint(e & 63)
			buf[w] = byte(e >> valueShift)
			w++
			e = lit[bits&litlenMask]
			if e&flagLiteral != 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				buf[w] = byte(e >> valueShift)
				w++
				e = lit[bits&litlenMask]
				if e&flagLiteral != 0 {
					bits >>= e & 63
					nbits -= uint(e & 63)
					buf[w] = byte(e >> valueShift)
					w++
					continue
				}
			}
			// Enough bits for a length and a distance again.
			bits |= binary.LittleEndian.Uint64(in[ip:]) << (nbits & 63)
			ip += int((63 - nbits) >> 3)
			nbits |= 56
		}
		if e&flagSpecial != 0 {
			if e&flagLink == 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				if e&flagEnd != 0 {
					d.save(ip, bits, nbits, w)
					d.endBlock()
					return
				}
				d.save(ip, bits, nbits, w)
				d.corrupt("invalid literal/length symbol")
				return
			}
			bits >>= litlenBits
			nbits -= litlenBits
			e = lit[e>>valueShift+uint32(bits)&(1<<(e>>codeLenShift&15)-1)]
			if e&flagLiteral != 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				buf[w] = byte(e >> valueShift)
				w++
				continue
			}
			if e&flagSpecial != 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				d.save(ip, bits, nbits, w)
				if e&flagEnd != 0 {
					d.endBlock()
				} else {
					d.corrupt("invalid literal/length symbol")
				}
				return
			}
		}
		saved := bits
		bits >>= e & 63
		nbits -= uint(e & 63)
		length := int(e>>valueShift) + int(saved&(1<<(e&63)-1)>>(e>>codeLenShift&15))

		e = dist[bits&distMask]
		if e&flagSpecial != 0 {
			if e&flagLink == 0 {
				d.save(ip, bits, nbits, w)
				d.corrupt("invalid distance symbol")
				return
			}
			bits >>= distBits
			nbits -= distBits
			e = dist[e>>valueShift+uint32(bits)&(1<<(e>>codeLenShift&15)-1)]
			if e&flagSpecial != 0 {
				d.save(ip, bits, nbits, w)
				d.corrupt("invalid distance symbol")
				return
			}
		}
		saved = bits
		bits >>= e & 63
		nbits -= uint(e & 63)
		distance := int(e>>valueShift) + int(saved&(1<<(e&63)-1)>>(e>>codeLenShift&15))
		if distance > w {
			d.save(ip, bits, nbits, w)
			d.corrupt("distance too far back")
			return
		}
		end := w + length
		switch {
		case distance >= 8:
			for i := w; i < end; i += 8 {
				binary.LittleEndian.PutUint64(buf[i:], binary.LittleEndian.Uint64(buf[i-distance:]))
			}
		case distance == 1:
			v := uint64(buf[w-1]) * 0x0101010101010101
			for i := w; i < end; i += 8 {
				binary.LittleEndian.PutUint64(buf[i:], v)
			}
		default:
			for i := w; i < end; i++ {
				buf[i] = buf[i-distance]
			}
		}
		w = end
	}
	d.save(ip, bits, nbits, w)
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
	case e&flagEnd != 0:
		in.drop(used)
		d.endBlock()
		return true
	case e&flagSpecial != 0:
		in.drop(used)
		d.corrupt("invalid literal/length symbol")
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
