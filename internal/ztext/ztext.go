// Package ztext answers, in one place, how the text of a compressed file is read: from a
// fresh index kept beside it (NAME.zidx), at any offset; from the pieces of its format's
// structure when they give their sizes (BGZF, xz -T, zstd frames with sizes), at any
// offset too, through an index made from them without decoding; as a stream decoded in
// order on several cores from pieces without sizes (bzip2, lz4, zstd frames without
// sizes); or as the stream of one sequential decoder. linereader's Count and CountAt,
// parallel's Foreach and Fold and the command's -z modes ask it, and read what it gives.
//
//	t := ztext.Open(f, size, name, workers)
//	if t.Ignored != nil {
//		// NAME.zidx is there but stale or damaged: not used (warn)
//	}
//	if t.At != nil {
//		// the text at any offset, t.Size bytes: sections cut at t.Points, NewTail, ...
//		// then t.Trailing(), the error a sequential read would end with
//	} else {
//		s := t.Stream() // the text in order
//		defer s.Close()
//	}
//
// The text is always exactly that of a sequential read (internal/decompress), bytes and
// offsets; a stale index is never used.
package ztext

import (
	"errors"
	"io"
	"io/fs"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/zindex"
)

// How is the way a Text is read, as Open found it.
type How uint8

const (
	// Plain: the file is not compressed; At is the file itself.
	Plain How = iota
	// Indexed: a fresh NAME.zidx; At reads through it.
	Indexed
	// Structured: the format's pieces give their sizes; At reads through the index they
	// make (zindex.FromStructure).
	Structured
	// Streamed: the text is read in order only (Stream): decoded on several cores from
	// the format's pieces where it has some, sequentially otherwise.
	Streamed
)

func (h How) String() string {
	return [...]string{"plain", "indexed", "structured", "streamed"}[h]
}

// Text is the text of one file, as the file allows it to be read. Its fields are set by
// Open and not changed after.
type Text struct {
	How    How
	Format decompress.Format // the compressed format; None when Plain
	// At holds the text, Size bytes, at any offset (safe for concurrent reads); nil when
	// Streamed.
	At   io.ReaderAt
	Size int64
	// Points are the offsets of At where a read starts decoding without the bytes before
	// it (the index's access points, increasing, the first 0): sections cut there (just
	// past them: sections.AtPoints) decode nothing twice. Nil when Plain (any offset is)
	// or Streamed.
	Points []int64
	// Ignored is why NAME.zidx, there, was not used: an error wrapping zindex.ErrStale
	// (the file no longer matches it), ErrCorrupt or ErrVersion, or the error reading
	// it; nil when there is none or it was used.
	Ignored error

	ix      *zindex.Index // when Indexed or Structured
	file    io.ReaderAt   // the compressed file, fileSize bytes
	size    int64
	workers int // goroutines a Stream decodes with; 1: none
}

// Open returns how the text of the file ra[0:size) is read, in this order: plain input is
// itself; a fresh index beside the file (name.zidx, when name is not "") gives the text at
// any offset; so does the structure of a BGZF, xz or zstd file whose pieces give their
// sizes; anything else is a stream (Stream), decoded by workers goroutines where the
// format's pieces allow it (workers < 1 means 1). Open reads the file's first bytes, the
// index, and for a BGZF, xz or zstd file its headers; it decodes nothing and starts no
// goroutine. An error reading the file is met again by the reading.
func Open(ra io.ReaderAt, size int64, name string, workers int) *Text {
	t := &Text{file: ra, size: size, workers: max(workers, 1), Size: -1}
	t.Format = decompress.FormatAt(io.NewSectionReader(ra, 0, size))
	if t.Format == decompress.None {
		t.How, t.At, t.Size = Plain, ra, size
		return t
	}
	if name != "" {
		ix, err := zindex.LoadAt(name, ra, size)
		switch {
		case err == nil:
			return t.through(Indexed, ix)
		case !errors.Is(err, fs.ErrNotExist):
			t.Ignored = err
		}
	}
	if sized(t.Format) {
		if ix, err := zindex.FromStructure(ra, size); err == nil && ix.Points() > 1 {
			return t.through(Structured, ix)
		}
	}
	t.How = Streamed
	return t
}

// sized reports whether files of the format may have pieces that give their sizes.
func sized(f decompress.Format) bool {
	return f == decompress.Gzip || f == decompress.Xz || f == decompress.Zstd
}

// through makes t read through ix.
func (t *Text) through(how How, ix *zindex.Index) *Text {
	t.How, t.ix = how, ix
	t.At, t.Size, t.Points = ix.ReaderAt(t.file), ix.Size(), ix.Offsets()
	return t
}

// Trailing returns the error a sequential read of the file ends with after its text when
// the text is read through At: trailing data after the last gzip member (an error
// wrapping decompress.ErrTrailingData, which a caller reading like zcat takes for a
// warning), which At does not give. Nil otherwise; a Stream ends with it itself.
func (t *Text) Trailing() error {
	if t.ix == nil {
		return nil
	}
	if off, ok := t.ix.TrailingData(); ok {
		return &decompress.Error{Format: t.Format, Offset: off, Err: decompress.ErrTrailingData}
	}
	return nil
}

// Stream returns the text in order from its start, ending with the error a sequential
// read ends with (io.EOF, trailing data, the damage and its offset, after every byte
// before it). With more than one worker it is internal/blockz's ordered fetcher: a file
// whose format has pieces is decoded by them (blockz.NewReader); an indexed file's spans
// between access points are read ahead of the reader, in order (blockz.NewSpanReader).
// Otherwise the sequential decoder reads it (internal/decompress; plain input is passed
// on as it is). Close stops the stream's goroutines and waits for them.
func (t *Text) Stream() io.ReadCloser {
	if t.workers > 1 && t.How != Plain {
		opt := blockz.Options{Workers: t.workers}
		r, err := blockz.NewReader(t.file, t.size, opt)
		if err == nil {
			return r
		}
		if t.At != nil {
			return blockz.NewSpanReader(t.At, t.Size, t.Points, t.Trailing(), opt)
		}
	}
	return t.sequential()
}

// sequential returns the one-goroutine decoder of the file: the way every other way of
// reading must agree with. (A decoder of a single gzip member on several cores, by
// speculation, would slot in here.)
func (t *Text) sequential() io.ReadCloser {
	return decompress.NewReader(io.NewSectionReader(t.file, 0, t.size))
}
