package bzblock

import "encoding/binary"

// A bzip2 stream is a header, "BZh" and the level ('1'-'9'), then blocks
// one after another from any bit, each starting with BlockMagic, then
// EndMagic, the stream's CRC (32 bits) and zero bits to a byte boundary.
// What every reader of streams needs besides the blocks is here, so that
// the sequential reader (internal/decompress) and the parallel one
// (internal/blockz) read the stream alike.

// HeaderSize is the length of a stream's header, "BZh9".
const HeaderSize = 4

// Level returns the level of the stream whose header starts h (1-9: its
// blocks hold at most level*100,000 bytes before their final run-length
// decoding), and false when h does not start with one.
func Level(h []byte) (int, bool) {
	if len(h) < HeaderSize || string(h[:3]) != "BZh" || h[3] < '1' || h[3] > '9' {
		return 0, false
	}
	return int(h[3] - '0'), true
}

// Bits48 returns the 48 bits of buf from its bit off (0 is the most
// significant bit of buf[0]), zeros past its end: where a magic number is
// looked for.
func Bits48(buf []byte, off int64) uint64 {
	var w [8]byte
	copy(w[:], buf[min(int64(len(buf)), off/8):])
	return binary.BigEndian.Uint64(w[:]) << (off % 8) >> 16
}

// EndBits is the length of a stream's end in bits: EndMagic and the
// stream's CRC, before the padding to a byte.
const EndBits = 48 + 32

// StreamCRC returns the stream's CRC after a block whose CRC is block,
// from crc, its CRC before it (0 before the first block). The end of the
// stream gives it after EndMagic.
func StreamCRC(crc, block uint32) uint32 { return (crc<<1 | crc>>31) ^ block }

// MaxBlockBytes bounds the compressed bytes of a block of a stream of the
// given level, its magic number included: a block decodes to at most
// level*100,000 bytes before its final run-length decoding, every symbol
// but the end of block stands for at least one of them, and a code is at
// most 20 bits long; the header and tables take less than 64 KiB (32,767
// selectors of up to 6 bits, 6 trees of 258 code lengths). A block whose
// end has not come within it is damaged.
func MaxBlockBytes(level int) int { return (level*100000+1)*20/8 + 64<<10 }
