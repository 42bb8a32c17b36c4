package inflate

import (
	"errors"
	"io"
	"math/bits"
)

// Decoding from a block boundary whose window is unknown: what a decoder
// that starts on a guess in the middle of a stream does (internal/pgzip),
// as rapidgzip does it. The 32 KiB before the boundary are not known yet,
// so a byte that a back-reference copies from there is a marker naming a
// position of that window, and so is every copy of a marker. Once the
// window is known, each marker is replaced by its byte (Resolve).
//
// rapidgzip writes 16-bit symbols until the last 32 KiB decoded hold no
// marker, then bytes. On text the markers do not die out so soon: on the Go
// sources, chains of copies of the licence that opens every file carry a
// few window bytes on for megabytes. So the text here is bytes from the
// start, and the markers are kept aside, per line of 64 bytes of the
// output: a back-reference is checked against them only when it reaches
// back to before the last marker, and copies the markers it covers.

// MarkerBase is the value of the first marker: a marker v names byte
// v-MarkerBase of the unknown window (the 32 KiB before the start, the
// first at 0).
const MarkerBase = 1 << 15

// ErrMarkerLimit is the error of a MarkerDecoder whose block would take its
// text past the room it was given.
var ErrMarkerLimit = errors.New("inflate: output limit reached")

// lineBits is log2 of the bytes of a line, the unit in which markers are
// kept.
const lineBits = 6

// Marker is a byte of a text decoded without its window that is a copy of
// a byte of the window: Pos in the text, and its value (MarkerBase + the
// window position).
type Marker struct {
	Pos   int32
	Value uint16
}

// MarkerDecoder decodes a raw deflate stream from a block boundary, a block
// at a time, into a buffer it is given, with the 32 KiB window before the
// boundary known (ResetWindow) or not (Reset); then the bytes copied from
// the unknown window are markers (Markers, Resolve). Its checks are a
// Decoder's (it reads headers with a Decoder's code), except that a
// distance reaches back into an unknown window whatever has been decoded:
// whether the stream had that much history is for Resolve to say. A
// MarkerDecoder is not safe for concurrent use.
type MarkerDecoder struct {
	// d reads the stream: its input, tables, header code and state
	// (atHeader between blocks); its output buffer is not used.
	d Decoder
	// out[:start] is the window (unknown: zeros, every one a marker), then
	// the text decoded. It is the caller's buffer; decoding stays within
	// its capacity less markerSlack.
	out   []byte
	start int
	// Markers: bit i%64 of masks[i/64] says that out[i] is one, and then
	// vals[i] is its value (the other values are stale; vals grows as
	// markers are made, which past the first MiB or two of text is rare).
	// taintEnd is the index in out after the last marker (0 for none):
	// out[taintEnd:] holds none.
	masks    []uint64
	vals     []uint16
	taintEnd int
}

// markerSlack is the room past the fast loop's limit that a MarkerDecoder
// needs in its buffer: a match started before the limit, with the word
// copies' overshoot.
const markerSlack = maxMatch + 32

// BufferRoom returns the capacity a buffer needs for text bytes of text:
// the window, the text and the slack.
func BufferRoom(text int) int { return WindowSize + text + markerSlack }

// Reset makes m decode into buf, from the block boundary at bit skip (0 to
// 7) of src's next byte, with the window before it unknown. Bit offsets
// count from src's next byte, bit 0. buf's capacity bounds the text
// (BufferRoom).
func (m *MarkerDecoder) Reset(src Source, skip uint, buf []byte) {
	m.reset(src, skip, buf, WindowSize)
	clear(m.out)
	m.growVals(WindowSize)
	for i := range WindowSize {
		m.vals[i] = uint16(MarkerBase + i)
	}
	for line := range WindowSize >> lineBits {
		m.masks[line] = ^uint64(0)
	}
	m.taintEnd = WindowSize
}

// ResetWindow makes m decode into buf from the block boundary at bit skip
// of src's next byte, window being the text before it (its last 32 KiB;
// fewer only at the start of a stream): no byte is a marker.
func (m *MarkerDecoder) ResetWindow(src Source, skip uint, buf []byte, window []byte) {
	if len(window) > WindowSize {
		window = window[len(window)-WindowSize:]
	}
	m.reset(src, skip, buf, len(window))
	copy(m.out, window)
}

func (m *MarkerDecoder) reset(src Source, skip uint, buf []byte, start int) {
	m.d.ResetAt(src, skip, nil)
	m.d.out = output{} // not used: the text goes to buf
	if cap(buf) < start+markerSlack+1 {
		buf = make([]byte, 0, BufferRoom(1<<16))
	}
	clear(m.masks[:min(len(m.masks), m.taintEnd>>lineBits+2)])
	if n := cap(buf)>>lineBits + 2; len(m.masks) < n {
		m.masks = make([]uint64, n)
	}
	m.out, m.start = buf[:start], start
	m.taintEnd = 0
}

// Text returns the text decoded so far, markers as zeros. It is the start
// of the buffer given to Reset after the window: valid until the next
// Reset.
func (m *MarkerDecoder) Text() []byte { return m.out[m.start:] }

// InputBits returns the bits of the stream consumed, from the start given
// to Reset (its skipped bits included).
func (m *MarkerDecoder) InputBits() int64 { return m.d.in.consumed() }

// Final reports whether the stream's final block has been decoded.
func (m *MarkerDecoder) Final() bool { return m.d.state == atEnd }

// MarkersEnd returns the length of the text up to its last marker: the
// text after it is whole.
func (m *MarkerDecoder) MarkersEnd() int { return max(0, m.taintEnd-m.start) }

// Markers appends the markers among the first n bytes of the text to dst,
// in the order of the text, and returns it.
func (m *MarkerDecoder) Markers(dst []Marker, n int) []Marker {
	end := min(m.taintEnd, m.start+n)
	for line := m.start >> lineBits; line<<lineBits < end; line++ {
		for mask := m.masks[line]; mask != 0; mask &= mask - 1 {
			p := line<<lineBits + bits.TrailingZeros64(mask)
			if p >= end {
				return dst
			}
			dst = append(dst, Marker{int32(p - m.start), m.vals[p]})
		}
	}
	return dst
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
		if d.state == inStored {
			m.stored()
		} else {
			m.huffman()
		}
	}
	return d.err
}

// room reports whether out has room for n more bytes, or fails m with
// ErrMarkerLimit.
func (m *MarkerDecoder) room(n int) bool {
	if len(m.out)+n > cap(m.out)-markerSlack {
		m.d.err = ErrMarkerLimit
		return false
	}
	return true
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
		m.out = append(m.out, in.in[in.ip:in.ip+n]...)
		in.ip += n
		d.stored -= n
	}
	d.endBlock()
}

// huffman decodes a Huffman-coded block's symbols up to its end, the input's
// end or an error: with the fast loop while it has input and room, one
// symbol at a time otherwise.
func (m *MarkerDecoder) huffman() {
	d, in := &m.d, &m.d.in
	for d.state == inHuffman && d.err == nil {
		if in.ip+inMargin <= len(in.in) && len(m.out) < m.fastEnd() {
			m.fast()
			continue
		}
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
			m.out = append(m.out, byte(e>>valueShift))
		}
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
	distance := value(de, in.bits>>(used+dskip))
	in.drop(used + dskip + uint(de&entryDrop))
	if de&flagSpecial != 0 {
		d.corrupt("invalid distance symbol")
		return true
	}
	w := len(m.out)
	if distance > w {
		d.corrupt("distance too far back")
		return true
	}
	if !m.room(length) {
		return true
	}
	if m.mayCopyMarkers(w-distance, length) {
		m.copyMarkers(w-distance, w, length)
	}
	m.out = m.out[:w+length]
	for i := w; i < w+length; i++ {
		m.out[i] = m.out[i-distance]
	}
	return true
}

// copyMarkers gives the n bytes written at dst by a back-reference to src
// the markers of the bytes they copy. A copy that overlaps itself copies
// the markers it has just written: byte by byte when it reaches back less
// than a line, else in pieces that do not overlap.
func (m *MarkerDecoder) copyMarkers(src, dst, n int) {
	const lineMask = 1<<lineBits - 1
	dist := dst - src
	if dist <= lineMask {
		for k := 0; k < n; k++ {
			if q := src + k; m.masks[q>>lineBits]>>(q&lineMask)&1 != 0 {
				m.mark(dst+k, m.vals[q])
			}
		}
		return
	}
	for k := 0; k < n; k += dist {
		m.copyApart(src+k, dst+k, min(dist, n-k))
	}
}

// copyApart is copyMarkers for a copy that does not overlap itself: the
// values wholesale, the masks a line at a time.
func (m *MarkerDecoder) copyApart(src, dst, n int) {
	const lineMask = 1<<lineBits - 1
	m.growVals(dst + n)
	copy(m.vals[dst:dst+n], m.vals[src:src+n]) // those without a mask bit are not read
	end := src + n
	for q := src; q < end; {
		next := min(end, (q|lineMask)+1)
		b := m.masks[q>>lineBits] >> (q & lineMask) & (1<<(next-q) - 1)
		if b != 0 {
			d := q + dst - src
			o := uint(d & lineMask)
			m.masks[d>>lineBits] |= b << o
			if o > 0 {
				m.masks[d>>lineBits+1] |= b >> (64 - o)
			}
			m.taintEnd = max(m.taintEnd, d+64-bits.LeadingZeros64(b))
		}
		q = next
	}
}

// mayCopyMarkers reports whether a back-reference of n bytes to src may
// copy markers: for one of a line or less, whether it does.
func (m *MarkerDecoder) mayCopyMarkers(src, n int) bool {
	if src >= m.taintEnd {
		return false
	}
	if n > 1<<lineBits {
		return true
	}
	i, o := src>>lineBits, uint(src&(1<<lineBits-1))
	x := m.masks[i]>>o | m.masks[i+1]<<(64-o)
	return x&(1<<uint(n)-1) != 0
}

// mark makes out[p] a marker of value v.
func (m *MarkerDecoder) mark(p int, v uint16) {
	if p >= len(m.vals) {
		m.growVals(p + 1)
	}
	m.masks[p>>lineBits] |= 1 << (p & (1<<lineBits - 1))
	m.vals[p] = v
	m.taintEnd = max(m.taintEnd, p+1)
}

// growVals makes vals at least n long.
func (m *MarkerDecoder) growVals(n int) {
	if n > len(m.vals) {
		m.vals = append(m.vals, make([]uint16, max(n, 2*len(m.vals), 1<<16)-len(m.vals))...)
	}
}

// Resolve replaces the markers of text (as Markers gave them) with the bytes
// of window, the text before it (its last 32 KiB; fewer only at the start
// of a stream). It returns false, having replaced some, if a marker names a
// byte before the start of window's stream: a distance too far back.
func Resolve(text []byte, markers []Marker, window []byte) bool {
	if len(window) > WindowSize {
		window = window[len(window)-WindowSize:]
	}
	missing := WindowSize - len(window) // a marker v names window[v-MarkerBase-missing]
	for _, mk := range markers {
		k := int(mk.Value) - MarkerBase - missing
		if k < 0 {
			return false
		}
		text[mk.Pos] = window[k]
	}
	return true
}
