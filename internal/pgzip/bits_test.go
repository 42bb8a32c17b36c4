package pgzip_test

import "hash/crc32"

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// bitWriter writes a deflate stream's bits, least significant first.
type bitWriter struct {
	bytes []byte
	bits  uint64
	n     uint
}

func (w *bitWriter) put(v uint64, n uint) {
	w.bits |= v << w.n
	w.n += n
	for w.n >= 8 {
		w.bytes = append(w.bytes, byte(w.bits))
		w.bits >>= 8
		w.n -= 8
	}
}

// code puts a Huffman codeword, most significant bit first.
func (w *bitWriter) code(c uint64, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.put(c>>uint(i)&1, 1)
	}
}

// fixedSym puts symbol s of the fixed literal/length code.
func (w *bitWriter) fixedSym(s int) {
	switch {
	case s < 144:
		w.code(uint64(0x30+s), 8)
	case s < 256:
		w.code(uint64(0x190+s-144), 9)
	case s < 280:
		w.code(uint64(s-256), 7)
	default:
		w.code(uint64(0xc0+s-280), 8)
	}
}

// flush pads the last byte with zeros.
func (w *bitWriter) flush() {
	if w.n > 0 {
		w.bytes = append(w.bytes, byte(w.bits))
		w.bits, w.n = 0, 0
	}
}
