package inflate

import "unsafe"

// markerSlack is the room past a MarkerDecoder's fast loop's limit, in
// symbols: a match started before the limit, with the word copies'
// overshoot (at most 16 symbols past a match of 258).
const markerSlack = maxMatch + 16

// markerRoom is the least room the fast loop is worth starting with.
const markerRoom = 1 << 12

// fast decodes symbols as Decoder.fast does, into 16-bit symbols, while the
// input in hand holds inMargin bytes and out has room below its capacity
// and the limit. It returns with the state saved, having decoded nothing if
// there was not room for it to start.
//
// Its loads and stores are unchecked (word), bounded by the loop's
// condition as Decoder.fast's are: it starts with ip <= len(in)-inMargin and
// w < outEnd, where outEnd leaves markerSlack symbols of capacity, and
// writes at most three symbols or a match of at most 258, copied in words
// of four symbols ending at most 15 symbols past it; a match reads from
// w-distance with distance <= w.
func (m *MarkerDecoder) fast() {
	d := &m.d
	in, ip := d.in.in, d.in.ip
	bits, nbits := d.in.bits, d.in.nbits
	inEnd := len(in) - inMargin
	w := len(m.out)
	outEnd := m.fastEnd()
	if ip > inEnd || w >= outEnd || outEnd > cap(m.out)-markerSlack {
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
	m.save(ip, bits, nbits, w)
}

// save writes the fast loop's registers back.
func (m *MarkerDecoder) save(ip int, bits uint64, nbits uint, w int) {
	m.d.in.ip, m.d.in.bits, m.d.in.nbits = ip, bits, nbits
	m.out = m.out[:w]
}

// fastEnd is where the fast loop stops: markerSlack short of out's capacity,
// and a match short of the limit.
func (m *MarkerDecoder) fastEnd() int {
	return min(cap(m.out)-markerSlack, WindowSize+m.limit-maxMatch)
}

// fastRoom grows out's capacity, within the limit, so that the fast loop
// has room, and reports whether it has.
func (m *MarkerDecoder) fastRoom() bool {
	if cap(m.out)-len(m.out) < markerRoom+markerSlack && cap(m.out) < WindowSize+m.limit+markerSlack {
		grown := make([]uint16, len(m.out), min(max(2*cap(m.out), len(m.out)+markerRoom+markerSlack), WindowSize+m.limit+markerSlack))
		copy(grown, m.out)
		m.out = grown
	}
	return len(m.out) < m.fastEnd()
}

func load16(p unsafe.Pointer, i int) uint16 { return *(*uint16)(unsafe.Add(p, 2*i)) }

func store16(p unsafe.Pointer, i int, v uint16) { *(*uint16)(unsafe.Add(p, 2*i)) = v }
