package inflate

import (
	"encoding/binary"
	"errors"
	"io"
	"unsafe"
)

// Decoding from a block boundary whose window is unknown: what a decoder
// that starts on a guess in the middle of a stream does (internal/pgzip),
// as rapidgzip does it. The 32 KiB before the boundary are not known yet, so
// the output is made of 16-bit symbols: a byte, or a marker naming a
// position of the unknown window, which a back-reference into it copies.
// Once the window is known, a pass replaces each marker with its byte
// (Resolve). Markers die out: once the last 32 KiB decoded hold none, the
// rest of the stream is bytes, and an ordinary Decoder can go on from the
// next block boundary with those 32 KiB as its window (ResetAt).

// MarkerBase is the first marker: a symbol s >= MarkerBase stands for byte
// s-MarkerBase of the unknown window (the 32 KiB before the start, the
// first at 0); a symbol below 256 is that byte.
const MarkerBase = 1 << 15

// ErrMarkerLimit is the error of a MarkerDecoder whose block would take its
// output past the limit it was given.
var ErrMarkerLimit = errors.New("inflate: marker output limit reached")

// MarkerDecoder decodes a raw deflate stream from a block boundary without
// the window before it, into symbols (see MarkerBase), a block at a time.
// Its checks are a Decoder's (it reads headers with a Decoder's code), but
// a distance reaches back into the unknown window whatever the bytes decoded
// so far: whether the stream really had that much history is for whoever
// resolves the markers to say. A MarkerDecoder is not safe for concurrent
// use.
type MarkerDecoder struct {
	// d reads the stream: its input, its tables, its header code and its
	// state (atHeader between blocks); its output buffer is not used.
	d Decoder
	// out[:WindowSize] is the unknown window, out[i] = MarkerBase+i; the
	// symbols decoded follow it. len(out) only grows until Reset.
	out []uint16
	// limit is the most symbols (after the window) out may hold.
	limit int
	// markersEnd is the index in out after the last marker found by
	// MarkersEnd, which has looked at out[:scanned]; no marker is in
	// out[markersEnd:scanned].
	markersEnd, scanned int
}

// Reset makes m decode from the block boundary at bit skip (0 to 7) of
// src's next byte, keeping at most limit symbols; the symbols of a previous
// stream are dropped. Bit offsets count from src's next byte, bit 0.
func (m *MarkerDecoder) Reset(src Source, skip uint, limit int) {
	m.d.ResetAt(src, skip, nil)
	if m.out == nil {
		m.out = make([]uint16, WindowSize, WindowSize+burst)
		for i := range m.out {
			m.out[i] = uint16(MarkerBase + i)
		}
	}
	m.out = m.out[:WindowSize]
	m.limit = limit
	m.markersEnd, m.scanned = WindowSize, WindowSize
}

// Symbols returns the symbols decoded so far. The slice is m's own, valid
// until the next call of Block or Reset.
func (m *MarkerDecoder) Symbols() []uint16 { return m.out[WindowSize:] }

// InputBits returns the bits of the stream consumed, from the start given
// to Reset (its skipped bits included).
func (m *MarkerDecoder) InputBits() int64 { return m.d.in.consumed() }

// Final reports whether the stream's final block has been decoded.
func (m *MarkerDecoder) Final() bool { return m.d.state == atEnd }

// MarkersEnd returns the number of symbols up to the last marker: every
// symbol from there on is a byte. With WindowSize of them after it, the
// stream can go on as bytes (Symbols' last WindowSize are its window).
func (m *MarkerDecoder) MarkersEnd() int {
	for i := len(m.out) - 1; i >= m.scanned; i-- {
		if m.out[i] >= 256 {
			m.markersEnd = i + 1
			break
		}
	}
	m.scanned = len(m.out)
	return m.markersEnd - WindowSize
}

// Block decodes the next block, header and symbols, and returns nil at its
// end (Final then says whether it was the last). Called after the final
// block it returns io.EOF. An error that stops the decoder (a
// *CorruptError, io.ErrUnexpectedEOF, an error of the source,
// ErrMarkerLimit) is returned by this call and every later one; the symbols
// of a block that fails are kept.
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

// room makes room in out for n more symbols, or fails m with ErrMarkerLimit.
func (m *MarkerDecoder) room(n int) bool {
	if len(m.out)+n > WindowSize+m.limit {
		m.d.err = ErrMarkerLimit
		return false
	}
	if len(m.out)+n > cap(m.out) {
		grown := make([]uint16, len(m.out), max(2*cap(m.out), len(m.out)+n))
		copy(grown, m.out)
		m.out = grown
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
		for _, b := range in.in[in.ip : in.ip+n] {
			m.out = append(m.out, uint16(b))
		}
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
		if in.ip+inMargin <= len(in.in) && m.fastRoom() {
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
			m.out = append(m.out, uint16(e>>valueShift&0xff))
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
	m.out = m.out[:w+length]
	for i := w; i < w+length; i++ {
		m.out[i] = m.out[i-distance]
	}
	return true
}

// Resolve replaces the markers of symbols with the bytes of window, the
// bytes before the start (its last 32 KiB; fewer only at the start of a
// stream), writing the bytes to dst, len(dst) >= len(symbols). It returns
// false, having written part of dst, if a marker names a byte before the
// start of window's stream: a distance too far back.
func Resolve(dst []byte, symbols []uint16, window []byte) bool {
	if len(window) > WindowSize {
		window = window[len(window)-WindowSize:]
	}
	dst = dst[:len(symbols)]
	i := 0
	if littleEndian {
		i = packBytes(dst, symbols)
	}
	// A marker s names window[s-MarkerBase-missing].
	missing := WindowSize - len(window)
	for ; i < len(symbols); i++ {
		s := symbols[i]
		if s < 256 {
			dst[i] = byte(s)
			continue
		}
		k := int(s) - MarkerBase - missing
		if k < 0 {
			return false
		}
		dst[i] = window[k]
		if littleEndian && i%8 == 7 {
			i += packBytes(dst[i+1:], symbols[i+1:])
		}
	}
	return true
}

// littleEndian says whether a uint16 lies in memory low byte first, as
// packBytes reads it.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// packBytes copies the symbols of the longest run of whole groups of eight
// at the start of symbols that holds no marker into dst as bytes, eight at a
// time, and returns their number. Its loads and stores are unchecked
// (word), within the groups the loop's condition counts.
func packBytes(dst []byte, symbols []uint16) int {
	n := min(len(dst), len(symbols)) &^ 7
	if n == 0 {
		return 0
	}
	src := unsafe.Pointer(unsafe.SliceData(symbols))
	out := unsafe.Pointer(unsafe.SliceData(dst))
	i := 0
	for ; i < n; i += 8 {
		x, y := load64(src, 2*i), load64(src, 2*i+8)
		if (x|y)&0xff00ff00ff00ff00 != 0 {
			break
		}
		store64(out, i, pack4(x)|pack4(y)<<32)
	}
	return i
}

// pack4 returns the low bytes of the four 16-bit lanes of x, whose high
// bytes are zero, in its low 32 bits.
func pack4(x uint64) uint64 {
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}
