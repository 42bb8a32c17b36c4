package bzblock

import "encoding/binary"

// bitReader reads bits from src, the most significant bit of each byte
// first, as bzip2 writes them. Past the end of src it reads zero bits and
// counts them, as the standard library's reader goes on after its input
// ends and reports it afterwards.
type bitReader struct {
	src []byte
	// pos is the next byte of src to load into buf.
	pos int
	// buf holds the next bits, the next one in its most significant bit; n
	// of them are valid. The bits below the n are the input's own or zero,
	// so that loading bytes again over them is harmless.
	buf uint64
	n   uint
	// past counts the zero bits loaded past the end of src.
	past uint
}

// newBitReader returns a reader of src from its bit off (at most the bits
// src holds).
func newBitReader(src []byte, off int64) bitReader {
	b := bitReader{src: src, pos: int(off / 8)}
	b.refill()
	b.skip(uint(off % 8))
	return b
}

// refill makes n at least 57.
func (b *bitReader) refill() {
	if b.pos+8 <= len(b.src) {
		v := binary.BigEndian.Uint64(b.src[b.pos:])
		b.buf |= v >> b.n
		k := (63 - b.n) >> 3
		b.pos += int(k)
		b.n += k << 3
		return
	}
	for b.n <= 56 {
		if b.pos < len(b.src) {
			b.buf |= uint64(b.src[b.pos]) << (56 - b.n)
			b.pos++
		} else {
			b.past += 8
		}
		b.n += 8
	}
}

// peek returns the next k bits (k <= 57 after a refill), without taking
// them.
func (b *bitReader) peek(k uint) uint64 { return b.buf >> (64 - k) }

// skip takes k bits (no more than n).
func (b *bitReader) skip(k uint) {
	b.buf <<= k
	b.n -= k
}

// bits takes and returns the next k bits, k <= 32.
func (b *bitReader) bits(k uint) uint64 {
	if b.n < k {
		b.refill()
	}
	v := b.peek(k)
	b.skip(k)
	return v
}

// bit takes the next bit.
func (b *bitReader) bit() bool { return b.bits(1) != 0 }

// offset is the offset in bits of the next bit, from the start of src.
func (b *bitReader) offset() int64 { return int64(b.pos)*8 + int64(b.past) - int64(b.n) }

// short reports whether bits past the end of src have been taken.
func (b *bitReader) short() bool { return b.offset() > int64(len(b.src))*8 }
