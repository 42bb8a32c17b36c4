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
	inp, out := m.widePointers()
	ip, bits, nbits, w := d.in.ip, d.in.bits, d.in.nbits, len(m.syms)
	lit, dist, inEnd, outEnd := d.lit, d.dist, len(d.in.in)-inMargin, m.wideEnd()
	for ip <= inEnd && w < outEnd {
		bits, ip, nbits = bits|load64(inp, ip)<<(nbits&63), ip+int((63-nbits)>>3), nbits|56
		e := lit[bits&litlenMask]
		if e&flagLiteral != 0 { // up to three literals, then a refill
			bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
			store16(out, w-1, uint16(e>>valueShift&0xff))
			if e = lit[bits&litlenMask]; e&flagLiteral != 0 {
				bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
				store16(out, w-1, uint16(e>>valueShift&0xff))
				if e = lit[bits&litlenMask]; e&flagLiteral != 0 {
					bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
					store16(out, w-1, uint16(e>>valueShift&0xff))
					continue
				}
			}
			bits, ip, nbits = bits|load64(inp, ip)<<(nbits&63), ip+int((63-nbits)>>3), nbits|56
		}
		if e&flagSpecial != 0 && e&flagLink != 0 { // a long codeword: its subtable's entry
			bits, nbits, e = bits>>litlenBits, nbits-litlenBits, lit[e>>valueShift+uint32(bits>>litlenBits)&(1<<(e>>codeLenShift&15)-1)]
			if e&flagLiteral != 0 {
				bits, nbits, w = bits>>(e&63), nbits-uint(e&63), w+1
				store16(out, w-1, uint16(e>>valueShift&0xff))
				continue
			}
		}
		if e&flagSpecial != 0 { // the end of the block, or an invalid symbol
			m.saveWide(ip, bits>>(e&63), nbits-uint(e&63), w)
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
			m.saveWide(ip, bits, nbits, w)
			d.endDistance(e)
			return
		}
		if distance >= 4 { // four words of four symbols whatever the length
			store64(out, 2*w, load64(out, 2*(w-distance)))
			store64(out, 2*w+8, load64(out, 2*(w-distance)+8))
			store64(out, 2*w+16, load64(out, 2*(w-distance)+16))
			store64(out, 2*w+24, load64(out, 2*(w-distance)+24))
		}
		if distance < 4 || length > 16 {
			copyRestWide(out, w, distance, length)
		}
		w += length
	}
	m.saveWide(ip, bits, nbits, w)
}

// copyRestWide copies what wideFast's four words do not of a match of
// 16-bit symbols at w: of distance 4 or more past its first 16 symbols, in
// words of four; of distance 1, the symbol's two bytes as they lie in
// memory, repeated; of distance 2 or 3, symbol by symbol.
func copyRestWide(out unsafe.Pointer, w, distance, length int) {
	end := w + length
	switch {
	case distance >= 4:
		for i := w + 16; i < end; i += 4 {
			store64(out, 2*i, load64(out, 2*(i-distance)))
		}
	case distance == 1:
		v := (uint64(load8(out, 2*w-1))<<8 | uint64(load8(out, 2*w-2))) * 0x0001000100010001
		for i := w; i < end; i += 4 {
			store64(out, 2*i, v)
		}
	default:
		for i := w; i < end; i++ {
			store16(out, i, load16(out, i-distance))
		}
	}
}

// widePointers returns the data pointers of the input in hand and of syms,
// once it has checked what wideFast's bounds rely on.
func (m *MarkerDecoder) widePointers() (in, out unsafe.Pointer) {
	end := m.wideEnd()
	if m.d.in.ip > len(m.d.in.in)-inMargin || len(m.syms) >= end || end > cap(m.syms)-markerSlack {
		panic("inflate: wide fast loop bounds")
	}
	return unsafe.Pointer(unsafe.SliceData(m.d.in.in)), unsafe.Pointer(unsafe.SliceData(m.syms))
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
