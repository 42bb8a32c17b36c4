package inflate

import (
	"encoding/binary"
	"unsafe"
)

// Unchecked loads and stores, for the fast loop alone, whose bounds are
// checked by its loop condition (see fast). A word is read and written
// byte-order-explicit, so that the code is right on every architecture;
// the compiler makes one unaligned load or store of it where the machine
// has them.

func load64(p unsafe.Pointer, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
}

func store64(p unsafe.Pointer, i int, v uint64) {
	binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(p, i))[:], v)
}

func load8(p unsafe.Pointer, i int) byte { return *(*byte)(unsafe.Add(p, i)) }

func store8(p unsafe.Pointer, i int, v byte) { *(*byte)(unsafe.Add(p, i)) = v }
