package inflate

import (
	"errors"
	"io"
)

// Decoding from a block boundary whose window is unknown: what a decoder
// that starts on a guess in the middle of a stream does (internal/pgzip),
// as rapidgzip does it. The 32 KiB before the boundary are not known yet,
// so the text is decoded into 16-bit symbols: a byte, or a marker naming a
// byte of that window, which a back-reference into it copies, and so does a
// copy of a copy. Once the last 32 KiB decoded hold no marker, no later
// back-reference can reach one: from the next block boundary on the text is
// decoded as bytes. Once the window is known, the symbols up to the last
// marker are turned into bytes (Resolver).
//
// On text the markers can last: on the Go sources, chains of copies of the
// licence that opens every file carry bytes of the window on for a few MiB.

// MarkerBase is the first marker: a symbol s >= MarkerBase stands for byte
// s-MarkerBase of the unknown window (the 32 KiB before the start, the
// first at 0); a symbol below 256 is that byte.
const MarkerBase = 1 << 15

// ErrMarkerLimit is the error of a MarkerDecoder whose block would take its
// text past the room it was given.
var ErrMarkerLimit = errors.New("inflate: output limit reached")

// markerSlack is the room past the fast loops' limits that a MarkerDecoder
// needs in its buffers: a match started before the limit, with the word
// copies' overshoot.
const markerSlack = maxMatch + 32

// BufferRoom returns the capacity a text buffer needs for text bytes of
// text: the window, the text and the slack.
func BufferRoom(text int) int { return WindowSize + text + markerSlack }

// MarkerDecoder decodes a raw deflate stream from a block boundary, a block
// at a time, into a text buffer it is given, with the 32 KiB window before
// the boundary known (ResetWindow) or not (Reset). Its checks are a
// Decoder's (it reads headers with a Decoder's code), except that a
// distance reaches back into an unknown window whatever has been decoded:
// whether the stream had that much history is for the Resolver to say. A
// MarkerDecoder is not safe for concurrent use.
type MarkerDecoder struct {
	// d reads the stream: its input, its tables, its header code and its
	// state (atHeader between blocks); its output buffer is not used.
	d Decoder
	// wide is set while the text is symbols: syms[:WindowSize] is the
	// unknown window, syms[i] = MarkerBase+i, and the symbols decoded
	// follow it. markersEnd is the index in syms after the last marker
	// found, the scan having looked at syms[:scanned].
	wide                bool
	syms                []uint16
	markersEnd, scanned int
	// out is the text buffer: out[:start] the window when it is known,
	// then the text. Once the symbols have turned to bytes, out[:prefix]
	// is the text still as symbols (syms[WindowSize:][:prefix]), its
	// bytes not yet written. Decoding stays within out's capacity.
	out           []byte
	start, prefix int
}

// Reset makes m decode from the block boundary at bit skip (0 to 7) of
// src's next byte, with the window before it unknown, into the text buffer
// text (its capacity bounds the text: BufferRoom), with symbols as the
// buffer of its symbols (it grows as needed: Text returns it). Bit offsets
// count from src's next byte, bit 0.
func (m *MarkerDecoder) Reset(src Source, skip uint, text []byte, symbols []uint16) {
	m.d.ResetAt(src, skip, nil) // its output buffer stays empty: the text goes to text
	if cap(symbols) < WindowSize+markerRoom+markerSlack {
		// As long as the text may be: memory is only used where written,
		// and the markers may last for MiB (growing by copies would touch
		// it all twice).
		symbols = make([]uint16, 0, WindowSize+cap(text))
	}
	m.syms = symbols[:WindowSize]
	for i := range m.syms {
		m.syms[i] = uint16(MarkerBase + i)
	}
	m.wide, m.markersEnd, m.scanned = true, WindowSize, WindowSize
	m.out, m.start, m.prefix = text[:0], 0, 0
}

// ResetWindow makes m decode into text from the block boundary at bit skip
// of src's next byte, window being the text before it (its last 32 KiB;
// fewer only at the start of a stream): the text is bytes throughout.
func (m *MarkerDecoder) ResetWindow(src Source, skip uint, text []byte, window []byte) {
	m.d.ResetAt(src, skip, nil)
	if len(window) > WindowSize {
		window = window[len(window)-WindowSize:]
	}
	m.wide, m.syms = false, nil
	m.out = append(text[:0], window...)
	m.start, m.prefix = len(window), 0
}

// Len returns the length of the text decoded so far.
func (m *MarkerDecoder) Len() int {
	if m.wide {
		return len(m.syms) - WindowSize
	}
	return len(m.out) - m.start
}

// Text ends decoding and returns the first n bytes of the text (n <= Len),
// in the text buffer given to Reset, and the symbols their first
// len(symbols) bytes still are, to be resolved into them (Resolver): the
// symbols up to the last marker. The slices are the buffers given to Reset,
// grown if needed.
func (m *MarkerDecoder) Text(n int) (text []byte, symbols []uint16) {
	if m.wide {
		m.toBytes(min(m.MarkersEnd(), n), n)
	}
	if m.prefix == 0 {
		return m.out[m.start : m.start+n], m.syms[:0]
	}
	return m.out[m.start : m.start+n], m.syms[WindowSize:][:min(m.prefix, n)]
}

// InputBits returns the bits of the stream consumed, from the start given
// to Reset (its skipped bits included).
func (m *MarkerDecoder) InputBits() int64 { return m.d.in.consumed() }

// Final reports whether the stream's final block has been decoded.
func (m *MarkerDecoder) Final() bool { return m.d.state == atEnd }

// MarkersEnd returns the length of the text up to its last marker: every
// byte after it is known.
func (m *MarkerDecoder) MarkersEnd() int {
	if !m.wide {
		return m.prefix
	}
	for i := len(m.syms) - 1; i >= m.scanned; i-- {
		if m.syms[i] >= 256 {
			m.markersEnd = i + 1
			break
		}
	}
	m.scanned = len(m.syms)
	return m.markersEnd - WindowSize
}

// Block decodes the next block, header and text, and returns nil at its
// end (Final then says whether it was the last). Called after the final
// block it returns io.EOF. An error that stops the decoder (a
// *CorruptError, io.ErrUnexpectedEOF, an error of the source,
// ErrMarkerLimit) is returned by this call and every later one; the text
// of a block that fails is kept.
func (m *MarkerDecoder) Block() error {
	d := &m.d
	if d.err == nil && d.state == atEnd {
		return io.EOF
	}
	if d.err == nil && d.state == atHeader {
		d.header()
	}
	for d.err == nil && (d.state == inStored || d.state == inHuffman) {
		switch {
		case d.state == inStored:
			m.stored()
		case m.wide:
			m.huffmanWide()
		default:
			m.huffman()
		}
	}
	if d.err == nil && m.wide && m.Len()-m.MarkersEnd() >= WindowSize {
		m.toBytes(m.MarkersEnd(), m.Len())
	}
	return d.err
}

// toBytes turns the symbols to bytes from the last marker on: out holds the
// first n bytes of text, of which the first prefix are still symbols, and
// decoding goes on as bytes.
func (m *MarkerDecoder) toBytes(prefix, n int) {
	m.out = m.out[:n]
	narrow(m.out[prefix:], m.syms[WindowSize+prefix:WindowSize+n])
	m.wide, m.prefix = false, prefix
}

// room reports whether the text has room for n more bytes, or fails m with
// ErrMarkerLimit.
func (m *MarkerDecoder) room(n int) bool {
	if m.start+m.Len()+n > cap(m.out)-markerSlack {
		m.d.err = ErrMarkerLimit
		return false
	}
	if m.wide && len(m.syms)+n > cap(m.syms)-markerSlack {
		m.growSymbols(n)
	}
	return true
}

// growSymbols makes room in syms for n more symbols and the fast loop.
func (m *MarkerDecoder) growSymbols(n int) {
	grown := make([]uint16, len(m.syms), max(2*cap(m.syms), len(m.syms)+n+markerRoom+markerSlack))
	copy(grown, m.syms)
	m.syms = grown
}

// stored copies a stored block's bytes.
func (m *MarkerDecoder) stored() {
	d, in := &m.d, &m.d.in
	for d.stored > 0 {
		if in.ip == len(in.in) {
			if err := in.fetch(); err != nil {
				d.fail(err)
				return
			}
			continue
		}
		n := min(d.stored, len(in.in)-in.ip)
		if !m.room(n) {
			return
		}
		if m.wide {
			for _, b := range in.in[in.ip : in.ip+n] {
				m.syms = append(m.syms, uint16(b))
			}
		} else {
			m.out = append(m.out, in.in[in.ip:in.ip+n]...)
		}
		in.ip += n
		d.stored -= n
	}
	d.endBlock()
}

// huffman decodes a Huffman-coded block's symbols as bytes up to its end,
// the input's end or an error: with the fast loop while it has input and
// room, one symbol at a time otherwise.
func (m *MarkerDecoder) huffman() {
	d, in := &m.d, &m.d.in
	for d.state == inHuffman && d.err == nil {
		if in.ip+inMargin <= len(in.in) && len(m.out) < m.fastEnd() {
			m.fast()
			continue
		}
		m.slow()
	}
}

// huffmanWide is huffman for symbols.
func (m *MarkerDecoder) huffmanWide() {
	d, in := &m.d, &m.d.in
	for d.state == inHuffman && d.err == nil {
		if in.ip+inMargin <= len(in.in) && m.wideRoom() {
			m.wideFast()
			continue
		}
		m.slow()
	}
}

// slow decodes one symbol with the bits in hand, fetching input when they
// do not hold all of it.
func (m *MarkerDecoder) slow() {
	d, in := &m.d, &m.d.in
	if in.nbits < 48 {
		if in.ip+8 <= len(in.in) {
			in.refillWord()
		} else {
			in.refill()
		}
	}
	if !m.symbol() {
		if err := in.fetch(); err != nil {
			d.fail(err)
		}
	}
}

// symbol decodes one symbol with the bits in hand, or returns false,
// consuming nothing, when they do not hold all of it.
func (m *MarkerDecoder) symbol() bool {
	d, in := &m.d, &m.d.in
	e, skip, ok := lookup(d.lit[:], in.bits, in.nbits, litlenBits)
	if !ok {
		return false
	}
	used := skip + uint(e&entryDrop)
	switch {
	case e&flagLiteral != 0:
		if m.room(1) {
			in.drop(used)
			m.put(byte(e >> valueShift))
		}
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
	distance := value(de, in.bits>>(used+dskip))
	in.drop(used + dskip + uint(de&entryDrop))
	if de&flagSpecial != 0 {
		d.corrupt("invalid distance symbol")
		return true
	}
	if distance > m.history() {
		d.corrupt("distance too far back")
		return true
	}
	if m.room(length) {
		m.copyBack(distance, length)
	}
	return true
}

// history is how far back a distance may reach.
func (m *MarkerDecoder) history() int {
	if m.wide {
		return len(m.syms)
	}
	return len(m.out)
}

// put appends a literal.
func (m *MarkerDecoder) put(b byte) {
	if m.wide {
		m.syms = append(m.syms, uint16(b))
	} else {
		m.out = append(m.out, b)
	}
}

// copyBack appends length bytes from distance back, byte by byte.
func (m *MarkerDecoder) copyBack(distance, length int) {
	if m.wide {
		w := len(m.syms)
		m.syms = m.syms[:w+length]
		for i := w; i < w+length; i++ {
			m.syms[i] = m.syms[i-distance]
		}
		return
	}
	w := len(m.out)
	m.out = m.out[:w+length]
	for i := w; i < w+length; i++ {
		m.out[i] = m.out[i-distance]
	}
}
