package zindex

import (
	"errors"
	"sort"
)

var (
	// ErrStale is the error of an index that does not match its file (Load).
	ErrStale = errors.New("zindex: the index does not match its file")
	// ErrCorrupt is wrapped by the error of index bytes that are not a valid
	// index (Read): a wrong magic number, a checksum that does not match,
	// fields out of range.
	ErrCorrupt = errors.New("zindex: not a valid index")
	// ErrVersion is wrapped by the error of an index written in a version of
	// the format this package does not read.
	ErrVersion = errors.New("zindex: unsupported index version")
	// ErrFormat is wrapped by Build's error for input that is not in a
	// format the package indexes.
	ErrFormat = errors.New("zindex: not a format the package indexes")
)

// DefaultSpan is the span Build uses when given 0: the decompressed bytes
// between access points. An access point of a gzip file keeps its 32 KiB
// window, compressed (about 8 KiB of text): at 4 MiB the index is about
// 0.2% of the decompressed size, and a read at any offset decodes at most
// 4 MiB before it.
const DefaultSpan = 4 << 20

// kind is how decoding starts at an access point: the format's structure at
// the point. The file format writes it as a number; a format indexed later
// (from its structure: a bzip2 block, an xz block, a zstd frame) adds kinds.
type kind uint8

const (
	// memberStart: a gzip member starts at the point's byte (In is a
	// multiple of 8): its header, then a deflate stream with no history.
	memberStart kind = 1
	// deflateBlock: a deflate block starts at bit In, inside a member; the
	// point keeps the window before it.
	deflateBlock kind = 2
	// pieceStart: a piece of a block format that decodes on its own starts
	// at the point's byte (a BGZF member, an xz block, a zstd frame), found
	// from the file's structure. An index with such points has one at every
	// piece that holds text, and no other kind.
	pieceStart kind = 3
)

// point is an access point.
type point struct {
	kind kind
	in   int64 // the compressed offset, in bits
	out  int64 // the decompressed offset
	// window is the history before a deflateBlock point (the last
	// windowLen decompressed bytes of its member before out, at most 32
	// KiB), compressed as a raw deflate stream; nil for other kinds.
	window    []byte
	windowLen int
	// member and crc are, for a deflateBlock point, the length of its
	// member's text before it and the CRC-32 of that text: a read from the
	// point goes on summing the member's text and checks its trailer; a
	// read that reaches the point checks the text it decoded against them.
	// (Read leaves both 0 in an index of version 2, which has no such point.)
	member int64
	crc    uint32
	// stream is the compressed offset, in bytes, of the stream a pieceStart
	// point's piece belongs to (blockz.Piece.Stream): the piece's own for a
	// BGZF member or a zstd frame, its stream header's for an xz block.
	stream int64
}

// Index is an index of one compressed file: its access points, each with
// its compressed and decompressed offsets, in the order of both, the first
// at the start of the file; the decompressed size; and what identifies the
// file (its size, digests of its first and last bytes). An Index is not
// changed once made: it is safe for concurrent use, and so are the
// ReaderAts made from it.
type Index struct {
	format string // "gzip", "xz" or "zstd"
	size   int64  // the decompressed size
	span   int64  // the span the index was built with
	points []point
	file   fileID // what the file was: its size, digests, modification time
	// trailing is the compressed offset at which bytes that are neither a
	// member nor zero padding follow the last member (gzip -d warns of
	// them), or -1.
	trailing int64
}

// Size returns the decompressed size of the file.
func (ix *Index) Size() int64 { return ix.size }

// Points returns the number of access points.
func (ix *Index) Points() int { return len(ix.points) }

// Offsets returns the decompressed offsets of the access points, in order
// (the first is 0): where reads start decoding. A section of the text that
// starts at one costs no decoding before it, so that a parallel reader
// should cut its sections there, or just after.
func (ix *Index) Offsets() []int64 {
	offs := make([]int64, len(ix.points))
	for i, p := range ix.points {
		offs[i] = p.out
	}
	return offs
}

// Point returns access point i's offsets (0 <= i < Points()): where its
// text begins (Offsets()[i]) and where its compressed data begins, the byte
// that holds its first bit (a deflate block may start inside a byte, whose
// first bits end the block before). A reader that fetches a file's bytes
// for a range of its text (a ranged GET) fetches from the compressed
// offset of the point at or before the range's start up to that of the
// first point past its end, plus one byte.
func (ix *Index) Point(i int) (text, compressed int64) {
	p := &ix.points[i]
	return p.out, p.in / 8
}

// Format returns the compressed format of the file: "gzip", "xz" or "zstd".
func (ix *Index) Format() string { return ix.format }

// CompressedSize returns the size of the compressed file the index was
// built from.
func (ix *Index) CompressedSize() int64 { return ix.file.size }

// TrailingData reports where bytes that are neither a gzip member nor zero
// padding follow the last member, if they do: a sequential read of the file
// ends there with an error that wraps decompress.ErrTrailingData (gzip -d's
// warning), which a reader through the index does not see.
func (ix *Index) TrailingData() (offset int64, ok bool) {
	return ix.trailing, ix.trailing >= 0
}

// pieces reports whether the index was made from the file's structure:
// its points are pieces (pieceStart), each decoded on its own.
func (ix *Index) pieces() bool { return ix.points[0].kind == pieceStart }

// pointAt returns the index of the last access point at or before the
// decompressed offset off (0 <= off).
func (ix *Index) pointAt(off int64) int {
	i := sort.Search(len(ix.points), func(i int) bool { return ix.points[i].out > off })
	return max(i-1, 0)
}
