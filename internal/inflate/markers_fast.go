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
	in, ip := d.in.in, d.in.ip
	bits, nbits := d.in.bits, d.in.nbits
	inEnd := len(in) - inMargin
	w := len(m.out)
	outEnd := m.fastEnd()
	if ip > inEnd || w >= outEnd {
		panic("inflate: marker fast loop bounds")
	}
	lit, dist := d.lit, d.dist
	inp := unsafe.Pointer(unsafe.SliceData(in))
	out := unsafe.Pointer(unsafe.SliceData(m.out))
	for ip <= inEnd && w < outEnd {
		bits |= load64(inp, ip) << (nbits & 63)
		ip += int((63 - nbits) >> 3)
		nbits |= 56
		e := lit[bits&litlenMask]
		if e&flagLiteral != 0 {
			bits >>= e & 63
			nbits -= uint(e & 63)
			store8(out, w, byte(e>>valueShift))
			w++
			e = lit[bits&litlenMask]
			if e&flagLiteral != 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				store8(out, w, byte(e>>valueShift))
				w++
				e = lit[bits&litlenMask]
				if e&flagLiteral != 0 {
					bits >>= e & 63
					nbits -= uint(e & 63)
					store8(out, w, byte(e>>valueShift))
					w++
					continue
				}
			}
			bits |= load64(inp, ip) << (nbits & 63)
			ip += int((63 - nbits) >> 3)
			nbits |= 56
		}
		if e&flagSpecial != 0 {
			if e&flagLink != 0 {
				bits >>= litlenBits
				nbits -= litlenBits
				e = lit[e>>valueShift+uint32(bits)&(1<<(e>>codeLenShift&15)-1)]
				if e&flagLiteral != 0 {
					bits >>= e & 63
					nbits -= uint(e & 63)
					store8(out, w, byte(e>>valueShift))
					w++
					continue
				}
			}
			if e&flagSpecial != 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				m.save(ip, bits, nbits, w)
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
		if e&flagSpecial != 0 && e&flagLink != 0 {
			bits >>= distBits
			nbits -= distBits
			e = dist[e>>valueShift+uint32(bits)&(1<<(e>>codeLenShift&15)-1)]
		}
		saved = bits
		bits >>= e & 63
		nbits -= uint(e & 63)
		if e&flagSpecial != 0 {
			m.save(ip, bits, nbits, w)
			d.corrupt("invalid distance symbol")
			return
		}
		distance := int(e>>valueShift) + int(saved&(1<<(e&63)-1)>>(e>>codeLenShift&15))
		if distance > w {
			m.save(ip, bits, nbits, w)
			d.corrupt("distance too far back")
			return
		}
		end := w + length
		switch {
		case distance >= 8:
			store64(out, w, load64(out, w-distance))
			store64(out, w+8, load64(out, w+8-distance))
			store64(out, w+16, load64(out, w+16-distance))
			store64(out, w+24, load64(out, w+24-distance))
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
		w = end
	}
	m.save(ip, bits, nbits, w)
}

// save writes the fast loop's registers back.
func (m *MarkerDecoder) save(ip int, bits uint64, nbits uint, w int) {
	m.d.in.ip, m.d.in.bits, m.d.in.nbits = ip, bits, nbits
	m.out = m.out[:w]
}
