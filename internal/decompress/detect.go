package decompress

import (
	"encoding/binary"
	"io"
)

// Format names a compression format: "gzip", "zstd", "bzip2", "xz", "lz4",
// or "" for none (the input is passed on as it is).
type Format string

// The formats NewReader recognises.
const (
	None  Format = ""
	Gzip  Format = "gzip"
	Zstd  Format = "zstd"
	Bzip2 Format = "bzip2"
	Xz    Format = "xz"
	Lz4   Format = "lz4"
	Lzma  Format = "lzma" // the .lzma format (LZMA_Alone), which has no magic number
)

// span is the set of byte values lo..hi, one position of a magic number.
type span struct{ lo, hi byte }

func is(b byte) span { return span{b, b} }

// magic is a byte pattern that starts a stream of a format. Each of these
// patterns also says where, after a complete stream, another one begins:
// bytes that start none of its format's patterns are trailing data.
type magic struct {
	format  Format
	pattern []span
}

// skippable starts a skippable frame, which zstd and lz4 share: the magic
// 0x184D2A50 to 0x184D2A5F, a 4-byte size, then that many bytes of anything.
var skippable = []span{{0x50, 0x5f}, is(0x2a), is(0x4d), is(0x18)}

// magics are the patterns Detect looks for. They are longer than the bare
// magic numbers where a short one could be plain text: "BZh9" starts English
// sentences, so bzip2 also needs the start of its first block ("1AY&SY", the
// digits of pi) or of its end-of-stream marker (an empty stream), which is
// what bzip2 itself writes after the header. Gzip includes its method byte
// (8, deflate, the only one defined). Skippable frames are zstd's and lz4's
// (which of the two is decided by the frame after them, see Detect); lz4's
// legacy frame (lz4 -l, the Linux kernel's) is lz4.
var magics = []magic{
	{Gzip, []span{is(0x1f), is(0x8b), is(0x08)}},
	{Zstd, []span{is(0x28), is(0xb5), is(0x2f), is(0xfd)}},
	{Zstd, skippable},
	{Bzip2, []span{is('B'), is('Z'), is('h'), {'1', '9'}, is(0x31), is(0x41), is(0x59), is(0x26), is(0x53), is(0x59)}},
	{Bzip2, []span{is('B'), is('Z'), is('h'), {'1', '9'}, is(0x17), is(0x72), is(0x45), is(0x38), is(0x50), is(0x90)}},
	{Xz, []span{is(0xfd), is('7'), is('z'), is('X'), is('Z'), is(0x00)}},
	{Lz4, []span{is(0x04), is(0x22), is(0x4d), is(0x18)}},
	{Lz4, []span{is(0x02), is(0x21), is(0x4c), is(0x18)}},
	{Lz4, skippable},
}

// maxMagic is the most bytes detection ever reads before deciding: a .lzma
// header and the first byte of its data (lzmaHeader); the longest pattern in
// magics is 10 bytes.
const maxMagic = lzmaHeaderSize + 1

// Detect reports the format whose magic number starts header, or "" when
// none does. A header shorter than a magic number does not match it, so an
// input cut inside its magic number is taken for plain data.
//
// A header that starts with skippable frames, which zstd and lz4 share, is
// lz4 when the frame after them is an lz4 frame, and zstd otherwise (a zstd
// frame, nothing, or a header that ends before the next frame).
func Detect(header []byte) Format {
	f, _ := match(None, header)
	if f != Zstd || !matches(skippable, header) {
		return f
	}
	for matches(skippable, header) && len(header) >= 8 {
		size := uint64(binary.LittleEndian.Uint32(header[4:8]))
		if uint64(len(header)-8) < size {
			break
		}
		header = header[8+size:]
	}
	if g, _ := match(Lz4, header); g == Lz4 && !matches(skippable, header) {
		return Lz4
	}
	return Zstd
}

// match returns the format whose magic number starts header, and when there
// is none, whether header is a proper prefix of some magic number (so that
// more bytes could still make it one). With only set, it looks at that
// format's magic numbers alone.
func match(only Format, header []byte) (f Format, more bool) {
	for _, m := range magics {
		if only != None && m.format != only {
			continue
		}
		n := min(len(header), len(m.pattern))
		switch {
		case !matches(m.pattern[:n], header):
		case n == len(m.pattern):
			return m.format, false
		default:
			more = true
		}
	}
	if only == None || only == Lzma {
		matched, could := lzmaHeader(header)
		if matched {
			return Lzma, false
		}
		more = more || could
	}
	return None, more
}

// matches reports whether header starts with pattern (all of it).
func matches(pattern []span, header []byte) bool {
	if len(header) < len(pattern) {
		return false
	}
	for i, s := range pattern {
		if header[i] < s.lo || header[i] > s.hi {
			return false
		}
	}
	return true
}

// FormatAt reports the format of the input ra holds, from its first bytes: the one place
// that answers whether, and how, an input the callers can read at any offset is
// compressed (linereader's sections and tails, the parallel package, the command).
func FormatAt(ra io.ReaderAt) Format {
	var header [16]byte
	n, _ := ra.ReadAt(header[:], 0)
	return Detect(header[:n])
}
