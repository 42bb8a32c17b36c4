// Package zstdframe reads the structure of the zstd format (RFC 8878, section 3.1) in
// one place: a frame's header, its blocks' headers, skippable frames, and the seek table
// of the seekable format (contrib/seekable_format in the zstd sources); and it sets up
// the project's one zstd decoder (klauspost/compress). The sequential reader's framing
// (internal/decompress), the structure scan (internal/blockz) and, through it, Beam's
// walks of zstd objects all parse with it, so that they agree on what a frame is.
//
//	h, err := zstdframe.ParseHeader(b) // b: the frame's first bytes, magic included
//	if err != nil { ... }              // ErrShort: more bytes are needed (HeaderLen says how many)
//	for pos := off + int64(h.Len); ; {
//		blk, err := zstdframe.ParseBlock(file[pos:])
//		...
//		pos += zstdframe.BlockHeaderLen + blk.Bytes()
//		if blk.Last { break }
//	}
package zstdframe

import (
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/klauspost/compress/zstd"
)

const (
	// Magic starts a frame, little-endian.
	Magic = 0xFD2FB528
	// MaxHeaderLen is the longest frame header: the magic, the descriptor, the window
	// descriptor, a 4-byte dictionary ID and an 8-byte content size.
	MaxHeaderLen = 4 + 1 + 1 + 4 + 8
	// BlockHeaderLen is the size of a block's header.
	BlockHeaderLen = 3
	// BlockMax is the most a block decompresses to (Block_Maximum_Size).
	BlockMax = 128 << 10
	// SkippableHeaderLen is the size of a skippable frame's magic and size.
	SkippableHeaderLen = 8
)

var (
	// ErrShort is the error of a header cut short: more bytes are needed.
	ErrShort = errors.New("zstd: header cut short")
	// ErrReserved is the error of a frame header whose reserved bit is set, and of a
	// block of the reserved type.
	ErrReserved = errors.New("zstd: reserved bit or block type")
	// ErrContentSize is the error of a frame header whose content size does not fit in
	// an int64 (the format allows up to 2^64-1; no file has that much text).
	ErrContentSize = errors.New("zstd: content size out of range")
)

// Header is a frame's header, as its bytes say.
type Header struct {
	Len int // the header's bytes, magic included
	// Window is the frame's window size; for a single-segment frame, its content size
	// (at least 1 KiB).
	Window      uint64
	ContentSize int64  // -1 when the header does not give it
	DictID      uint32 // 0 when there is none
	Checksum    bool   // a 4-byte checksum follows the last block
	Single      bool   // single segment: no window descriptor
}

// IsFrame reports whether b begins with a frame's magic number.
func IsFrame(b []byte) bool { return len(b) >= 4 && binary.LittleEndian.Uint32(b) == Magic }

// IsSkippable reports whether b begins with a skippable frame's magic number (any of
// the sixteen, which zstd and lz4 share).
func IsSkippable(b []byte) bool {
	return len(b) >= 4 && binary.LittleEndian.Uint32(b)&0xfffffff0 == 0x184D2A50
}

// SkippableLen returns the length of the skippable frame b begins with, its 8-byte
// header included (64-bit on every platform: a frame of 4 GiB is not negative), or
// ErrShort.
func SkippableLen(b []byte) (int64, error) {
	if len(b) < SkippableHeaderLen {
		return 0, ErrShort
	}
	return SkippableHeaderLen + int64(binary.LittleEndian.Uint32(b[4:])), nil
}

// HeaderLen returns the length of a frame header, magic included, from its descriptor
// (the byte after the magic), or ErrReserved when the descriptor's reserved bit is set.
func HeaderLen(descriptor byte) (int, error) {
	if descriptor&0x08 != 0 {
		return 0, ErrReserved
	}
	n := 5 + [4]int{0, 1, 2, 4}[descriptor&3] // the dictionary ID
	single := descriptor&0x20 != 0
	if !single {
		n++ // the window descriptor
	}
	switch fcs := descriptor >> 6; {
	case fcs == 0 && single:
		n++
	case fcs > 0:
		n += 1 << fcs // 2, 4 or 8 bytes
	}
	return n, nil
}

// ParseHeader parses the frame header b begins with (its magic first): ErrShort when b
// holds less than the whole header, ErrReserved or ErrContentSize when the header is not
// one this package reads, an error when b does not begin with the magic.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < 5 {
		return Header{}, ErrShort
	}
	if !IsFrame(b) {
		return Header{}, errors.New("zstd: not a frame's magic number")
	}
	fhd := b[4]
	n, err := HeaderLen(fhd)
	if err != nil {
		return Header{}, err
	}
	if len(b) < n {
		return Header{}, ErrShort
	}
	h := Header{Len: n, ContentSize: -1, Checksum: fhd&0x04 != 0, Single: fhd&0x20 != 0}
	pos := 5
	if !h.Single {
		wd := b[pos]
		base := uint64(1) << (10 + wd>>3)
		h.Window = base + base/8*uint64(wd&7)
		pos++
	}
	switch k := [4]int{0, 1, 2, 4}[fhd&3]; k {
	case 1:
		h.DictID = uint32(b[pos])
	case 2:
		h.DictID = uint32(binary.LittleEndian.Uint16(b[pos:]))
	case 4:
		h.DictID = binary.LittleEndian.Uint32(b[pos:])
	}
	pos += [4]int{0, 1, 2, 4}[fhd&3]
	switch n - pos {
	case 1:
		h.ContentSize = int64(b[pos])
	case 2:
		h.ContentSize = int64(binary.LittleEndian.Uint16(b[pos:])) + 256
	case 4:
		h.ContentSize = int64(binary.LittleEndian.Uint32(b[pos:]))
	case 8:
		v := binary.LittleEndian.Uint64(b[pos:])
		if v > math.MaxInt64 {
			return Header{}, ErrContentSize
		}
		h.ContentSize = int64(v)
	}
	if h.Single {
		h.Window = uint64(max(h.ContentSize, 1<<10))
	}
	return h, nil
}

// BlockType is the type of a block.
type BlockType uint8

const (
	Raw        BlockType = 0 // its bytes, stored
	RLE        BlockType = 1 // one byte, repeated
	Compressed BlockType = 2
)

// Block is a block's header.
type Block struct {
	Last bool
	Type BlockType
	// Size is the header's Block_Size: the decompressed size of a raw or RLE block,
	// the compressed size of a compressed one.
	Size int64
}

// ParseBlock parses the block header b begins with: ErrShort for fewer than 3 bytes,
// ErrReserved for the reserved block type.
func ParseBlock(b []byte) (Block, error) {
	if len(b) < BlockHeaderLen {
		return Block{}, ErrShort
	}
	v := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
	blk := Block{Last: v&1 != 0, Type: BlockType(v >> 1 & 3), Size: int64(v >> 3)}
	if blk.Type == 3 {
		return Block{}, ErrReserved
	}
	return blk, nil
}

// Bytes is the size of the block's content in the file, after its header: one byte for
// an RLE block.
func (b Block) Bytes() int64 {
	if b.Type == RLE {
		return 1
	}
	return b.Size
}

// Bound is the most the block decompresses to: its size for a raw or RLE block,
// blockMax (the smaller of the frame's window and BlockMax) for a compressed one.
func (b Block) Bound(blockMax int64) int64 {
	if b.Type == Compressed {
		return blockMax
	}
	return b.Size
}

// Seek table (the seekable format): a skippable frame at the end of the file whose last
// 9 bytes are the number of frames, a descriptor (bit 7: a checksum in each entry; bits
// 2 to 6 reserved) and its magic number; before them, an entry per frame: its compressed
// size, its decompressed size and, with the checksum bit, the frame's checksum, each 4
// bytes.
const (
	// SeekFooterLen is the size of the seek table's footer.
	SeekFooterLen = 9
	seekableMagic = 0x8F92EAB1
	seekTableTag  = 0x184D2A5E // the magic of the skippable frame that holds the table
)

// SeekTable is where a seek table's entries lie in the file.
type SeekTable struct {
	Frames    int64 // the entries
	EntrySize int64 // 8, or 12 with checksums
	// Entries is the file offset of the first entry; Start that of the skippable
	// frame holding the table.
	Entries, Start int64
}

// ParseSeekFooter parses the seek table footer foot, the last SeekFooterLen bytes of a
// file of size bytes: the table's place in the file, or false when foot is no footer or
// the table it describes does not fit in the file.
func ParseSeekFooter(foot []byte, size int64) (SeekTable, bool) {
	if len(foot) < SeekFooterLen || binary.LittleEndian.Uint32(foot[5:]) != seekableMagic || foot[4]&0x7c != 0 {
		return SeekTable{}, false
	}
	t := SeekTable{Frames: int64(binary.LittleEndian.Uint32(foot)), EntrySize: 8}
	if foot[4]&0x80 != 0 {
		t.EntrySize = 12
	}
	tableLen := t.Frames*t.EntrySize + SeekFooterLen
	t.Start = size - tableLen - SkippableHeaderLen
	t.Entries = t.Start + SkippableHeaderLen
	if t.Start < 0 {
		return SeekTable{}, false
	}
	return t, true
}

// CheckSeekHeader reports whether h, the 8 bytes at t.Start, is the header of the
// skippable frame that holds the table t.
func (t SeekTable) CheckSeekHeader(h []byte) bool {
	return len(h) >= SkippableHeaderLen && binary.LittleEndian.Uint32(h) == seekTableTag &&
		int64(binary.LittleEndian.Uint32(h[4:])) == t.Frames*t.EntrySize+SeekFooterLen
}

// Entry parses entry e (EntrySize bytes): the frame's compressed and decompressed sizes.
func (t SeekTable) Entry(e []byte) (compressed, decompressed int64) {
	return int64(binary.LittleEndian.Uint32(e)), int64(binary.LittleEndian.Uint32(e[4:]))
}

// NewDecoder returns the project's zstd decoder reading r (nil: set later by Reset), the
// one set-up every zstd decode uses: in the calling goroutine (concurrency 1: on two
// cores the library's concurrent stream decoding took 1.2 to 2.4 times the CPU time and
// was no faster in wall time, BenchmarkDecode in benchmarks/results/compress.md), low
// memory, and windows and frames within maxWindow bytes.
func NewDecoder(r io.Reader, maxWindow uint64) (*zstd.Decoder, error) {
	return zstd.NewReader(r,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(maxWindow),
		zstd.WithDecoderMaxMemory(maxWindow))
}
