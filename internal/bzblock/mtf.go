package bzblock

import "encoding/binary"

// mtfList is the move-to-front list of a block's byte values. Its first
// 16 values are in two words, the first value in w0's low byte, so that
// moving one of them to the front (most indexes are small) is a few shifts;
// the others are in rest[16:].
type mtfList struct {
	w0, w1 uint64
	rest   [256]byte
}

// init makes the list the given values (1 to 256), in order.
func (m *mtfList) init(values []byte) {
	copy(m.rest[:], values)
	m.w0 = binary.LittleEndian.Uint64(m.rest[:8])
	m.w1 = binary.LittleEndian.Uint64(m.rest[8:16])
}

func (m *mtfList) front() byte { return byte(m.w0) }

// take moves the value at index k (1 to 255, within the list) to the
// front and returns it.
func (m *mtfList) take(k int) byte {
	if k < 8 {
		s := uint(k) * 8 & 63
		b := byte(m.w0 >> s)
		below := uint64(1)<<s - 1 // the values before it, which move up one
		m.w0 = m.w0&^(below<<8|0xff) | (m.w0&below)<<8 | uint64(b)
		return b
	}
	var b byte
	b, m.w0 = m.far(m.w0, k)
	return b
}

// far is take for an index of 8 or more, with the first eight values in
// w0 (rather than m.w0: the hot loop keeps them in a variable); it returns
// the value and w0 after the move.
func (m *mtfList) far(w0 uint64, k int) (byte, uint64) {
	var b byte
	if k < 16 {
		s := uint(k-8) * 8 & 63
		b = byte(m.w1 >> s)
		below := uint64(1)<<s - 1
		m.w1 = m.w1&^(below<<8|0xff) | (m.w1&below)<<8 | w0>>56
	} else {
		b = m.rest[k]
		copy(m.rest[17:k+1], m.rest[16:k])
		m.rest[16] = byte(m.w1 >> 56)
		m.w1 = m.w1<<8 | w0>>56
	}
	return b, w0<<8 | uint64(b)
}
