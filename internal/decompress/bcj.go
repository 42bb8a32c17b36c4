package decompress

import "encoding/binary"

// The filters xz applies before LZMA2 (the .xz format's filter IDs 0x03-0x0b), undone
// here after it, as xz-utils' liblzma undoes them: the branch converters (BCJ) turn the
// absolute addresses an encoder made of the targets of calls and jumps in machine code
// back into relative ones, and delta adds back the byte dist bytes before. Each
// converter keeps the stream position of the next byte it converts (pos, which the
// filter's start offset sets) and, for x86, what it saw of the bytes before.

// converter undoes a filter on buf in place and returns how many of its first bytes
// are done; the rest (fewer than the bytes one conversion looks at) are converted
// with what follows them, or passed as they are when the data ends there.
type converter interface {
	convert(buf []byte) int
}

// bcjX86 is the x86 filter (ID 0x04): a CALL or JMP opcode (E8, E9) followed by a
// 32-bit displacement whose top byte is 00 or FF. prevMask holds which of the last
// bytes before pos were such opcodes whose conversion was declined, prevPos the
// position of the last opcode seen.
type bcjX86 struct {
	pos, prevPos, prevMask uint32
}

func newBcjX86(start uint32) *bcjX86 { return &bcjX86{pos: start, prevPos: start - 5} }

func x86TopByte(b byte) bool { return b == 0 || b == 0xff }

func (c *bcjX86) convert(buf []byte) int {
	if len(buf) < 5 {
		return 0
	}
	if c.pos-c.prevPos > 5 {
		c.prevPos = c.pos - 5
	}
	i := 0
	for i <= len(buf)-5 {
		if buf[i] != 0xe8 && buf[i] != 0xe9 {
			i++
			continue
		}
		at := c.pos + uint32(i)
		if gap := at - c.prevPos; gap > 5 {
			c.prevMask = 0
		} else {
			for range gap {
				c.prevMask = c.prevMask & 0x77 << 1
			}
		}
		c.prevPos = at
		b := buf[i+4]
		if !x86TopByte(b) || c.prevMask>>1 > 4 || c.prevMask>>1 == 3 {
			i++
			c.prevMask |= 1
			if x86TopByte(b) {
				c.prevMask |= 0x10
			}
			continue
		}
		dest := c.x86Target(binary.LittleEndian.Uint32(buf[i+1:]), at)
		binary.LittleEndian.PutUint32(buf[i+1:], dest&0x00ffffff|(0-(dest>>24&1))<<24)
		i += 5
		c.prevMask = 0
	}
	c.pos += uint32(i)
	return i
}

// x86Target is the relative displacement of the absolute one src of the opcode at
// position at, undone again for each byte of it that the earlier opcodes' mask names.
func (c *bcjX86) x86Target(src, at uint32) uint32 {
	bitOf := [5]uint32{0, 1, 2, 2, 3}
	for {
		dest := src - (at + 5)
		if c.prevMask == 0 {
			return dest
		}
		k := bitOf[c.prevMask>>1]
		if !x86TopByte(byte(dest >> (24 - k*8))) {
			return dest
		}
		src = dest ^ (1<<(32-k*8) - 1)
	}
}

// bcjARM is the ARM filter (0x07): a BL instruction, little-endian, whose top byte is EB.
type bcjARM struct{ pos uint32 }

func (c *bcjARM) convert(buf []byte) int {
	n := len(buf) &^ 3
	for i := 0; i < n; i += 4 {
		if buf[i+3] == 0xeb {
			src := (uint32(buf[i+2])<<16 | uint32(buf[i+1])<<8 | uint32(buf[i])) << 2
			dest := (src - (c.pos + uint32(i) + 8)) >> 2
			buf[i+2], buf[i+1], buf[i] = byte(dest>>16), byte(dest>>8), byte(dest)
		}
	}
	c.pos += uint32(n)
	return n
}

// bcjARMThumb is the ARM-Thumb filter (0x08): the two halves of a BL instruction,
// F000-F7FF then F800-FFFF, on 2-byte boundaries.
type bcjARMThumb struct{ pos uint32 }

func (c *bcjARMThumb) convert(buf []byte) int {
	if len(buf) < 4 {
		return 0
	}
	i := 0
	for ; i <= len(buf)-4; i += 2 {
		if buf[i+1]&0xf8 != 0xf0 || buf[i+3]&0xf8 != 0xf8 {
			continue
		}
		src := (uint32(buf[i+1]&7)<<19 | uint32(buf[i])<<11 | uint32(buf[i+3]&7)<<8 | uint32(buf[i+2])) << 1
		dest := (src - (c.pos + uint32(i) + 4)) >> 1
		buf[i+1] = 0xf0 | byte(dest>>19&7)
		buf[i] = byte(dest >> 11)
		buf[i+3] = 0xf8 | byte(dest>>8&7)
		buf[i+2] = byte(dest)
		i += 2
	}
	c.pos += uint32(i)
	return i
}

// bcjARM64 is the ARM64 filter (0x0a): BL instructions (their 26-bit immediate) and
// ADRP instructions whose page offset is within +/-512 MiB.
type bcjARM64 struct{ pos uint32 }

func (c *bcjARM64) convert(buf []byte) int {
	n := len(buf) &^ 3
	for i := 0; i < n; i += 4 {
		pc := c.pos + uint32(i)
		ins := binary.LittleEndian.Uint32(buf[i:])
		switch {
		case ins>>26 == 0x25: // BL
			ins = 0x94000000 | (ins-pc>>2)&0x03ffffff
		case ins&0x9f000000 == 0x90000000: // ADRP
			src := ins>>29&3 | ins>>3&0x001ffffc
			if (src+0x00020000)&0x001c0000 != 0 {
				continue
			}
			dest := src - pc>>12
			ins = ins&0x9000001f | (dest&3)<<29 | (dest&0x0003fffc)<<3 | (0-(dest&0x00020000))&0x00e00000
		default:
			continue
		}
		binary.LittleEndian.PutUint32(buf[i:], ins)
	}
	c.pos += uint32(n)
	return n
}

// bcjPowerPC is the PowerPC filter (0x05): big-endian branches with the link bit set
// and the absolute bit clear (opcode 18).
type bcjPowerPC struct{ pos uint32 }

func (c *bcjPowerPC) convert(buf []byte) int {
	n := len(buf) &^ 3
	for i := 0; i < n; i += 4 {
		if buf[i]>>2 != 0x12 || buf[i+3]&3 != 1 {
			continue
		}
		src := binary.BigEndian.Uint32(buf[i:]) & 0x03fffffc
		dest := src - (c.pos + uint32(i))
		binary.BigEndian.PutUint32(buf[i:], 0x48000000|dest&0x03ffffff|uint32(buf[i+3]&3))
	}
	c.pos += uint32(n)
	return n
}

// bcjSPARC is the SPARC filter (0x09): CALL instructions whose displacement is
// within 22 bits, sign-extended.
type bcjSPARC struct{ pos uint32 }

func (c *bcjSPARC) convert(buf []byte) int {
	n := len(buf) &^ 3
	for i := 0; i < n; i += 4 {
		if !(buf[i] == 0x40 && buf[i+1]&0xc0 == 0 || buf[i] == 0x7f && buf[i+1]&0xc0 == 0xc0) {
			continue
		}
		src := binary.BigEndian.Uint32(buf[i:]) << 2
		dest := (src - (c.pos + uint32(i))) >> 2
		dest = (0-(dest>>22&1))<<22&0x3fffffff | dest&0x3fffff | 0x40000000
		binary.BigEndian.PutUint32(buf[i:], dest)
	}
	c.pos += uint32(n)
	return n
}

// bcjIA64 is the IA-64 filter (0x06): in each 16-byte bundle whose template has
// branch slots, the 21-bit target of a br.call (opcode 5) in those slots.
type bcjIA64 struct{ pos uint32 }

// ia64Slots are, by template, the slots that may hold a branch (a bit each).
var ia64Slots = [32]uint8{16: 4, 17: 4, 18: 6, 19: 6, 22: 7, 23: 7, 24: 4, 25: 4, 28: 4, 29: 4}

func (c *bcjIA64) convert(buf []byte) int {
	n := len(buf) &^ 15
	for i := 0; i < n; i += 16 {
		mask := ia64Slots[buf[i]&0x1f]
		for slot, bit := uint(0), uint(5); slot < 3; slot, bit = slot+1, bit+41 {
			if mask>>slot&1 == 0 {
				continue
			}
			at, shift := i+int(bit>>3), bit&7
			var ins uint64
			for j := range 6 {
				ins |= uint64(buf[at+j]) << (8 * j)
			}
			norm := ins >> shift
			if norm>>37&0xf != 5 || norm>>9&7 != 0 {
				continue
			}
			src := (uint32(norm>>13&0xfffff) | uint32(norm>>36&1)<<20) << 4
			dest := (src - (c.pos + uint32(i))) >> 4
			norm &^= uint64(0x8fffff) << 13
			norm |= uint64(dest&0xfffff)<<13 | uint64(dest&0x100000)<<16
			ins = ins&(1<<shift-1) | norm<<shift
			for j := range 6 {
				buf[at+j] = byte(ins >> (8 * j))
			}
		}
	}
	c.pos += uint32(n)
	return n
}

// bcjRISCV is the RISC-V filter (0x0b): JAL instructions that link to x1 or x5, and
// AUIPC instructions paired with the instruction after them, which the encoder
// rewrote (the pair's address big-endian in the second word, or a pair it left alone
// marked by the AUIPC's register being x0 or x2).
type bcjRISCV struct{ pos uint32 }

func (c *bcjRISCV) convert(buf []byte) int {
	if len(buf) < 8 {
		return 0
	}
	i := 0
	for ; i <= len(buf)-8; i += 2 {
		ins := uint32(buf[i])
		if ins == 0xef { // JAL
			if buf[i+1]&0x0d != 0 {
				continue
			}
			b1, b2, b3 := uint32(buf[i+1]), uint32(buf[i+2]), uint32(buf[i+3])
			addr := ((b1&0xf0)<<13 | b2<<9 | b3<<1) - (c.pos + uint32(i))
			buf[i+1] = byte(b1&0x0f | addr>>8&0xf0)
			buf[i+2] = byte(addr>>16&0x0f | addr>>7&0x10 | addr<<4&0xe0)
			buf[i+3] = byte(addr>>4&0x7f | addr>>13&0x80)
			i += 2
			continue
		}
		if ins&0x7f != 0x17 { // not AUIPC
			continue
		}
		ins = binary.LittleEndian.Uint32(buf[i:])
		var ins2 uint32
		if ins&0xe80 != 0 { // its register is neither x0 nor x2: a pair the encoder left
			ins2 = binary.LittleEndian.Uint32(buf[i+4:])
			if (ins<<8^(ins2-3))&0xf8003 != 0 {
				i += 4
				continue
			}
			addr := ins&0xfffff000 + ins2>>20
			ins, ins2 = 0x17|2<<7|ins2<<12, addr
		} else {
			rs1 := ins >> 27
			if (ins-0x3117)<<18 >= rs1&0x1d {
				i += 2
				continue
			}
			addr := binary.BigEndian.Uint32(buf[i+4:]) - (c.pos + uint32(i))
			ins, ins2 = 0x17|rs1<<7|(addr+0x800)&0xfffff000, ins>>12|addr<<20
		}
		binary.LittleEndian.PutUint32(buf[i:], ins)
		binary.LittleEndian.PutUint32(buf[i+4:], ins2)
		i += 6
	}
	c.pos += uint32(i)
	return i
}

// delta is the delta filter (0x03): each byte was stored less the byte dist before it.
// hist holds the last 256 bytes, the latest at hist[at].
type delta struct {
	dist int
	at   uint8
	hist [256]byte
}

func (d *delta) convert(buf []byte) int {
	for i := range buf {
		buf[i] += d.hist[uint8(int(d.at)+d.dist)]
		d.hist[d.at] = buf[i]
		d.at--
	}
	return len(buf)
}
