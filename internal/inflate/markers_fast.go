package inflate

import "unsafe"

// fastEnd is where the fast loop stops: markerSlack short of out's
// capacity.
func (m *MarkerDecoder) fastEnd() int { return cap(m.out) - markerSlack }

// fast decodes symbols as Decoder.fast does, as bytes into out, while the
// input in hand holds inMargin bytes and out has room.
//
// Its loads and stores are unchecked (word), bounded by the loop's
// condition as Decoder.fast's are: it starts with ip <= len(in)-inMargin
// and w < cap(out)-markerSlack, and writes at most three literals or a
// match of at most 258 bytes, copied in words of 8 that end at most 31
// bytes past it; a match reads from w-distance with distance <= w.
func (m *MarkerDecoder) fast() {
	d := &m.d
	inp, out := m.fastPointers()
	ip, bits, nbits, w := d.in.ip, d.in.bits, d.in.nbits, len(m.out)
	lit, dist, inEnd, outEnd := d.lit, d.dist, len(d.in.in)-inMargin, m.fastEnd()
	for ip <= inEnd && w < outEnd {
		bits, ip, nbits = bits|load64(inp, ip)<<(nbits&63), ip+int((63-nbits)>>3), nbits|56
		e := lit[bits&litlenMask]
		if e&flagLiteral != 0 { // up to three literals, then a refill
			bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
			store8(out, w-1, byte(e>>valueShift))
			if e = lit[bits&litlenMask]; e&flagLiteral != 0 {
				bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
				store8(out, w-1, byte(e>>valueShift))
				if e = lit[bits&litlenMask]; e&flagLiteral != 0 {
					bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
					store8(out, w-1, byte(e>>valueShift))
					continue
				}
			}
			bits, ip, nbits = bits|load64(inp, ip)<<(nbits&63), ip+int((63-nbits)>>3), nbits|56
		}
		if e&flagSpecial != 0 && e&flagLink != 0 { // a long codeword: its subtable's entry
			bits, nbits, e = bits>>litlenBits, nbits-litlenBits, lit[e>>valueShift+uint32(bits>>litlenBits)&(1<<(e>>codeLenShift&15)-1)]
			if e&flagLiteral != 0 {
				bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
				store8(out, w-1, byte(e>>valueShift))
				continue
			}
		}
		if e&flagSpecial != 0 { // the end of the block, or an invalid symbol
			m.save(ip, bits>>(e&63), nbits-uint(e&63), w)
			d.endSpecial(e)
			return
		}
		length := int(e>>valueShift) + int(bits&(1<<(e&63)-1)>>(e>>codeLenShift&15))
		bits, nbits = bits>>(e&63), nbits-uint(e&63)
		if e = dist[bits&distMask]; e&flagSpecial != 0 && e&flagLink != 0 {
			bits, nbits, e = bits>>distBits, nbits-distBits, dist[e>>valueShift+uint32(bits>>distBits)&(1<<(e>>codeLenShift&15)-1)]
		}
		distance := int(e>>valueShift) + int(bits&(1<<(e&63)-1)>>(e>>codeLenShift&15))
		bits, nbits = bits>>(e&63), nbits-uint(e&63)
		if e&flagSpecial != 0 || distance > w {
			m.save(ip, bits, nbits, w)
			d.endDistance(e)
			return
		}
		if distance >= 8 { // four words whatever the length, as Decoder.fast
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
	m.save(ip, bits, nbits, w)
}

// save writes the fast loop's registers back.
func (m *MarkerDecoder) save(ip int, bits uint64, nbits uint, w int) {
	m.d.in.ip, m.d.in.bits, m.d.in.nbits = ip, bits, nbits
	m.out = m.out[:w]
}

// fastPointers returns the data pointers of the input in hand and of out,
// once it has checked what fast's bounds rely on.
func (m *MarkerDecoder) fastPointers() (in, out unsafe.Pointer) {
	if m.d.in.ip > len(m.d.in.in)-inMargin || len(m.out) >= m.fastEnd() {
		panic("inflate: marker fast loop bounds")
	}
	return unsafe.Pointer(unsafe.SliceData(m.d.in.in)), unsafe.Pointer(unsafe.SliceData(m.out))
}
