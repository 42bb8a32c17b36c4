package pgzip

// The CRC-32 of a member is the check of its whole text, but the text is
// decoded in pieces on several goroutines: each piece's CRC is computed
// where it is decoded, and the pieces' CRCs are combined in order.
//
// crc32 (IEEE, reflected) of A followed by B is crc(A)·x^(8·len(B)) + crc(B)
// in GF(2)[x] modulo the polynomial, the pre- and post-conditioning of the
// two cancelling out: zlib's crc32_combine, written here from that identity.

// crcPoly is the reflected IEEE polynomial.
const crcPoly = 0xedb88320

// crcMul returns a·b modulo the polynomial, both in the reflected
// representation (bit 31 is x^0).
func crcMul(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		// b·x
		if b&1 != 0 {
			b = b>>1 ^ crcPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// crcPow2 holds x^(2^k) modulo the polynomial, for k = 0 to 63.
var crcPow2 = func() (t [64]uint32) {
	t[0] = 1 << 30 // x^1
	for k := 1; k < 64; k++ {
		t[k] = crcMul(t[k-1], t[k-1])
	}
	return t
}()

// crcShift returns x^(8n) modulo the polynomial.
func crcShift(n int64) uint32 {
	p := uint32(1) << 31 // x^0
	e := uint64(n) * 8
	for k := 0; e != 0; k, e = k+1, e>>1 {
		if e&1 != 0 {
			p = crcMul(p, crcPow2[k])
		}
	}
	return p
}

// crcCombine returns the CRC-32 of A followed by B, given crcA, crcB and
// the length of B.
func crcCombine(crcA, crcB uint32, lenB int64) uint32 {
	if lenB == 0 {
		return crcA
	}
	return crcMul(crcShift(lenB), crcA) ^ crcB
}
