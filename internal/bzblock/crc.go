package bzblock

import (
	"encoding/binary"
	"sync"
)

// crc is bzip2's CRC: CRC-32 with the polynomial 0x04C11DB7, taking each
// byte's most significant bit first (the standard library's hash/crc32
// takes the least significant first, so it is of no use here). It takes
// eight bytes at a time through eight tables ("slicing by 8"): crcTables[k]
// is the CRC of a byte followed by k zero bytes, built on first use rather
// than when the program starts: a command that decodes no bzip2 should not
// pay for them (docs/performance.md, "Start-up").
type crc uint32

var crcTables = sync.OnceValue(func() *[8][256]uint32 {
	t := new([8][256]uint32)
	for i := range t[0] {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[0][i] = c
	}
	for k := 1; k < 8; k++ {
		for i := range t[k] {
			c := t[k-1][i]
			t[k][i] = c<<8 ^ t[0][c>>24]
		}
	}
	return t
})

func newCRC() crc { return crc(0xffffffff) }

func (c *crc) update(p []byte) {
	v := uint32(*c)
	t := crcTables()
	for len(p) >= 8 {
		x := v ^ binary.BigEndian.Uint32(p)
		v = t[7][x>>24] ^ t[6][x>>16&0xff] ^ t[5][x>>8&0xff] ^ t[4][x&0xff] ^
			t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]]
		p = p[8:]
	}
	for _, b := range p {
		v = t[0][byte(v>>24)^b] ^ v<<8
	}
	*c = crc(v)
}

func (c crc) sum() uint32 { return ^uint32(c) }
