package zindex

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

// ErrNoStructure is the error of FromStructure for a file whose structure
// does not index it: a format without pieces of known size (a plain gzip
// member, bzip2, lz4, a single-threaded xz block without sizes, zstd frames
// without content sizes), or a file the structure does not cover to its end
// (trailing data, damage, a member without the BGZF subfield).
var ErrNoStructure = errors.New("zindex: the file's structure does not index it")

// FromStructure returns the index that the structure of the compressed file
// ra[0:size) gives, without decoding it: the pieces that decode on their own
// and say their decompressed sizes (BGZF members, the blocks of xz -T with
// the stream's index, zstd frames with their content sizes or the seekable
// format's seek table), found by internal/blockz's Scan. Each piece that
// holds text is an access point, without a window; a read through the index
// decodes the piece holding its offset, with the checks of its format (a
// BGZF member's CRC-32 and size, an xz block's check, a zstd frame's
// checksum), and the pieces after it. A file whose structure does not give
// every piece's size, or does not reach its end (only zero padding may
// follow the last piece), is ErrNoStructure. Damage inside a piece is not
// seen until the piece is read: it is then an error of that read.
func FromStructure(ra io.ReaderAt, size int64) (*Index, error) {
	// Only these formats have pieces that say their sizes: any other is refused by its
	// first bytes, before a scan (bzip2's would search the whole file for its blocks).
	switch decompress.FormatAt(io.NewSectionReader(ra, 0, size)) {
	case decompress.Gzip, decompress.Xz, decompress.Zstd:
	default:
		return nil, ErrNoStructure
	}
	l, err := blockz.Scan(ra, size)
	if err != nil {
		return nil, err
	}
	if len(l.Pieces) == 0 || !l.Covers(ra) {
		return nil, ErrNoStructure
	}
	ix := &Index{format: string(l.Format), trailing: -1}
	for i, p := range l.Pieces {
		if p.Size < 0 {
			return nil, ErrNoStructure
		}
		if p.Size > 0 || i == 0 {
			ix.points = append(ix.points, point{kind: pieceStart, in: p.Offset * 8, out: ix.size, stream: p.Stream()})
		}
		ix.size += p.Size
	}
	if ix.file, err = fileIDAt(ra, size); err != nil {
		return nil, err
	}
	return ix, nil
}

// BuildAt returns the index of the compressed file ra[0:size): the one its
// structure gives when it gives one (FromStructure: BGZF, xz -T, zstd
// frames with sizes), made without decoding; otherwise, for gzip, the one
// Build makes by decoding it once, with a point about every span bytes of
// text. Other input is an error wrapping ErrFormat.
func BuildAt(ra io.ReaderAt, size, span int64) (*Index, error) {
	ix, err := FromStructure(ra, size)
	if err == nil || !errors.Is(err, ErrNoStructure) {
		return ix, err
	}
	if f := decompress.FormatAt(io.NewSectionReader(ra, 0, size)); f != decompress.Gzip && f != decompress.None {
		return nil, fmt.Errorf("%w: %s without pieces of known size", ErrFormat, f)
	}
	return Build(bufio.NewReaderSize(io.NewSectionReader(ra, 0, size), 64<<10), span)
}
