package inflate

import (
	"encoding/binary"
	"unsafe"
)

// Resolver turns the symbols of a text decoded without its window into
// bytes once the window is known: a byte for itself, a marker for the
// window's byte it names. Its table is 64 KiB; a Resolver is reused from
// text to text, and is not safe for concurrent use.
type Resolver struct {
	// table[s] is symbol s's byte for the window last given: s itself
	// below 256, window[s-MarkerBase] from MarkerBase on.
	table [1 << 16]byte
}

// Resolve writes the bytes of symbols to dst (len(dst) >= len(symbols)),
// the markers taken from window, the text before the start (its last 32
// KiB; fewer only at the start of a stream). It returns false, having
// written part of dst, if a marker names a byte before the start of
// window's stream: a distance too far back.
func (r *Resolver) Resolve(dst []byte, symbols []uint16, window []byte) bool {
	if len(window) > WindowSize {
		window = window[len(window)-WindowSize:]
	}
	missing := WindowSize - len(window) // a marker s names window[s-MarkerBase-missing]
	if missing > 0 {
		for _, s := range symbols {
			if s >= 256 && int(s)-MarkerBase < missing {
				return false
			}
		}
	}
	for i := range 256 {
		r.table[i] = byte(i)
	}
	copy(r.table[MarkerBase+missing:], window)
	dst = dst[:len(symbols)]
	i := 0
	if littleEndian {
		i = resolveWords(dst, symbols, &r.table)
	}
	for ; i < len(symbols); i++ {
		dst[i] = r.table[symbols[i]]
	}
	return true
}

// littleEndian says whether a uint16 lies in memory low byte first, as
// resolveWords and narrow read them.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// resolveWords resolves the symbols eight at a time, those of a group with
// no marker by packing their low bytes, and returns how many it did (all
// but the last len(symbols)%8). Its loads and stores are unchecked (word),
// within the groups the loop's condition counts.
func resolveWords(dst []byte, symbols []uint16, table *[1 << 16]byte) int {
	n := min(len(dst), len(symbols)) &^ 7
	src := unsafe.Pointer(unsafe.SliceData(symbols))
	out := unsafe.Pointer(unsafe.SliceData(dst))
	for i := 0; i < n; i += 8 {
		x, y := load64(src, 2*i), load64(src, 2*i+8)
		if (x|y)&0xff00ff00ff00ff00 == 0 {
			store64(out, i, pack4(x)|pack4(y)<<32)
			continue
		}
		store8(out, i, table[uint16(x)])
		store8(out, i+1, table[uint16(x>>16)])
		store8(out, i+2, table[uint16(x>>32)])
		store8(out, i+3, table[x>>48])
		store8(out, i+4, table[uint16(y)])
		store8(out, i+5, table[uint16(y>>16)])
		store8(out, i+6, table[uint16(y>>32)])
		store8(out, i+7, table[y>>48])
	}
	return n
}

// narrow writes symbols that are all bytes to dst, len(dst) >= len(symbols).
func narrow(dst []byte, symbols []uint16) {
	dst = dst[:len(symbols)]
	i := 0
	if littleEndian {
		n := len(symbols) &^ 7
		src := unsafe.Pointer(unsafe.SliceData(symbols))
		out := unsafe.Pointer(unsafe.SliceData(dst))
		for ; i < n; i += 8 {
			store64(out, i, pack4(load64(src, 2*i))|pack4(load64(src, 2*i+8))<<32)
		}
	}
	for ; i < len(symbols); i++ {
		dst[i] = byte(symbols[i])
	}
}

// pack4 returns the low bytes of the four 16-bit lanes of x, whose high
// bytes are zero, in its low 32 bits.
func pack4(x uint64) uint64 {
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}
