package inflate

import "unsafe"

// wideFast decodes symbols as Decoder.fast does, into 16-bit symbols, while
// the input in hand holds inMargin bytes and syms has room below its
// capacity and the text's.
//
// Its loads and stores are unchecked (word), bounded by the loop's
// condition as Decoder.fast's are: it starts with ip <= len(in)-inMargin and
// w < wideEnd, which leaves markerSlack symbols of capacity, and writes at
// most three symbols or a match of at most 258, copied in words of four
// symbols ending at most 15 symbols past it; a match reads from w-distance
// with distance <= w.
func (m *MarkerDecoder) wideFast() {
	d := &m.d
	in, ip := d.in.in, d.in.ip
	bits, nbits := d.in.bits, d.in.nbits
	inEnd := len(in) - inMargin
	w := len(m.syms)
	outEnd := m.wideEnd()
	if ip > inEnd || w >= outEnd || outEnd > cap(m.syms)-markerSlack {
		panic("inflate: wide fast loop bounds")
	}
	lit, dist := d.lit, d.dist
	inp := unsafe.Pointer(unsafe.SliceData(in))
	out := unsafe.Pointer(unsafe.SliceData(m.syms))
	for ip <= inEnd && w < outEnd {
		bits |= load64(inp, ip) << (nbits & 63)
		ip += int((63 - nbits) >> 3)
		nbits |= 56
		e := lit[bits&litlenMask]
		if e&flagLiteral != 0 {
			bits >>= e & 63
			nbits -= uint(e & 63)
			store16(out, w, uint16(e>>valueShift&0xff))
			w++
			e = lit[bits&litlenMask]
			if e&flagLiteral != 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				store16(out, w, uint16(e>>valueShift&0xff))
				w++
				e = lit[bits&litlenMask]
				if e&flagLiteral != 0 {
					bits >>= e & 63
					nbits -= uint(e & 63)
					store16(out, w, uint16(e>>valueShift&0xff))
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
					store16(out, w, uint16(e>>valueShift&0xff))
					w++
					continue
				}
			}
			if e&flagSpecial != 0 {
				bits >>= e & 63
				nbits -= uint(e & 63)
				m.saveWide(ip, bits, nbits, w)
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
			m.saveWide(ip, bits, nbits, w)
			d.corrupt("invalid distance symbol")
			return
		}
		distance := int(e>>valueShift) + int(saved&(1<<(e&63)-1)>>(e>>codeLenShift&15))
		if distance > w {
			m.saveWide(ip, bits, nbits, w)
			d.corrupt("distance too far back")
			return
		}
		end := w + length
		switch {
		case distance >= 4:
			// Words of four symbols; four words whatever the length.
			store64(out, 2*w, load64(out, 2*(w-distance)))
			store64(out, 2*w+8, load64(out, 2*(w-distance)+8))
			store64(out, 2*w+16, load64(out, 2*(w-distance)+16))
			store64(out, 2*w+24, load64(out, 2*(w-distance)+24))
			for i := w + 16; i < end; i += 4 {
				store64(out, 2*i, load64(out, 2*(i-distance)))
			}
		case distance == 1:
			// The symbol's two bytes as they lie in memory, repeated.
			v := (uint64(load8(out, 2*w-1))<<8 | uint64(load8(out, 2*w-2))) * 0x0001000100010001
			for i := w; i < end; i += 4 {
				store64(out, 2*i, v)
			}
		default:
			for i := w; i < end; i++ {
				store16(out, i, load16(out, i-distance))
			}
		}
		w = end
	}
	m.saveWide(ip, bits, nbits, w)
}

// saveWide writes the wide fast loop's registers back.
func (m *MarkerDecoder) saveWide(ip int, bits uint64, nbits uint, w int) {
	m.d.in.ip, m.d.in.bits, m.d.in.nbits = ip, bits, nbits
	m.syms = m.syms[:w]
}

// wideEnd is where the wide fast loop stops: markerSlack short of syms'
// capacity, and a match short of the text's room.
func (m *MarkerDecoder) wideEnd() int {
	return min(cap(m.syms)-markerSlack, WindowSize+cap(m.out)-markerSlack-maxMatch)
}

// markerRoom is the least room the wide fast loop is worth starting with.
const markerRoom = 1 << 12

// wideRoom grows syms, within the text's room, so that the wide fast loop
// has room, and reports whether it has.
func (m *MarkerDecoder) wideRoom() bool {
	if cap(m.syms)-len(m.syms) < markerRoom+markerSlack {
		m.growSymbols(markerRoom)
	}
	return len(m.syms) < m.wideEnd()
}

func load16(p unsafe.Pointer, i int) uint16 { return *(*uint16)(unsafe.Add(p, 2*i)) }

func store16(p unsafe.Pointer, i int, v uint16) { *(*uint16)(unsafe.Add(p, 2*i)) = v }
