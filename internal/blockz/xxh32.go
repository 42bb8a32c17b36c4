package blockz

import (
	"encoding/binary"
	"math/bits"
)

// xxh32 is the 32-bit xxHash with seed 0 (the specification in the
// xxHash repository, github.com/Cyan4973/xxHash), the checksum of lz4
// frames: of their descriptors, blocks and contents. The lz4 library has it
// internally only.
type xxh32 struct {
	v     [4]uint32 // the four lanes, once 16 bytes have come
	total uint64    // bytes written
	buf   [16]byte  // bytes written not yet in a lane
	n     int       // how many
}

const (
	xxPrime1 uint32 = 2654435761
	xxPrime2 uint32 = 2246822519
	xxPrime3 uint32 = 3266489917
	xxPrime4 uint32 = 668265263
	xxPrime5 uint32 = 374761393
)

func (h *xxh32) reset() {
	p1, p2 := xxPrime1, xxPrime2 // variables, so that the sums wrap
	*h = xxh32{v: [4]uint32{p1 + p2, p2, 0, -p1}}
}

func xxRound(acc, in uint32) uint32 {
	return bits.RotateLeft32(acc+in*xxPrime2, 13) * xxPrime1
}

func (h *xxh32) write(p []byte) {
	h.total += uint64(len(p))
	if h.n > 0 {
		k := copy(h.buf[h.n:], p)
		h.n += k
		p = p[k:]
		if h.n < 16 {
			return
		}
		h.lanes(h.buf[:])
		h.n = 0
	}
	m := len(p) &^ 15
	h.lanes(p[:m])
	h.n = copy(h.buf[:], p[m:])
}

// lanes takes in p, a multiple of 16 bytes.
func (h *xxh32) lanes(p []byte) {
	v1, v2, v3, v4 := h.v[0], h.v[1], h.v[2], h.v[3]
	for ; len(p) >= 16; p = p[16:] {
		v1 = xxRound(v1, binary.LittleEndian.Uint32(p))
		v2 = xxRound(v2, binary.LittleEndian.Uint32(p[4:]))
		v3 = xxRound(v3, binary.LittleEndian.Uint32(p[8:]))
		v4 = xxRound(v4, binary.LittleEndian.Uint32(p[12:]))
	}
	h.v = [4]uint32{v1, v2, v3, v4}
}

func (h *xxh32) sum() uint32 {
	var acc uint32
	if h.total >= 16 {
		acc = bits.RotateLeft32(h.v[0], 1) + bits.RotateLeft32(h.v[1], 7) +
			bits.RotateLeft32(h.v[2], 12) + bits.RotateLeft32(h.v[3], 18)
	} else {
		acc = xxPrime5
	}
	acc += uint32(h.total)
	p := h.buf[:h.n]
	for ; len(p) >= 4; p = p[4:] {
		acc = bits.RotateLeft32(acc+binary.LittleEndian.Uint32(p)*xxPrime3, 17) * xxPrime4
	}
	for _, c := range p {
		acc = bits.RotateLeft32(acc+uint32(c)*xxPrime5, 11) * xxPrime1
	}
	acc ^= acc >> 15
	acc *= xxPrime2
	acc ^= acc >> 13
	acc *= xxPrime3
	acc ^= acc >> 16
	return acc
}

// xxh32Sum is the xxh32 of p.
func xxh32Sum(p []byte) uint32 {
	var h xxh32
	h.reset()
	h.write(p)
	return h.sum()
}
