package linereader

import (
	"fmt"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
)

// NewTail returns a Reader over the last n records of src[0:size): it finds where they
// begin by reading backwards from size in blocks, then reads them forward as NewSection
// does. The records, their bytes and their absolute offsets are exactly the last n of a
// forward read with the same options (an unterminated last record counts, as it does
// forward); LineNo counts from 0, Stats.Bytes from where the records begin. n < 1 yields
// nothing.
//
// Only splittable options (Options.Splittable): otherwise the first Next returns false
// and Err says why (it wraps ErrNotSplittable). With Decompress, compressed input is
// refused in the same way, as NewSection refuses it; plain input is read as it is.
//
// The search reads blocks of BufferSize bytes aligned to multiples of BufferSize, as GNU
// tail does, from the end towards the start, counting separators: the last n short
// records of a large input cost about one block of reads, not the input, and records
// far longer than the buffer cost only their own bytes. With Options.Multiline it walks
// the lines backwards, testing each, to the first line of the n-th record from the end
// (with MaxLines, to the line its pattern begins before it: see NewSection); the records
// are then read forward from there, as without it. A read error during the search,
// or a src shorter than size (io.ErrUnexpectedEOF), is reported by Err before any record.
func NewTail(src io.ReaderAt, size int64, n int, opt Options) *Reader {
	cfg := newConfig(opt)
	format, opt := refuseCompressed(src, size, opt)
	refuse := cfg.splittable()
	switch {
	case refuse != nil:
	case format != "":
		refuse = fmt.Errorf("%w: %s input", ErrNotSplittable, format)
	case size < 0:
		refuse = fmt.Errorf("linereader: tail of %d bytes: the size is negative", size)
	}
	start, reads := size, 0
	switch {
	case refuse == nil && cfg.join != nil:
		start, reads, refuse = joinedTail(src, size, n, &cfg)
	case refuse == nil:
		start, reads, refuse = tailStart(src, size, n, &cfg)
	}
	start = max(0, min(start, size))
	r := newAt(io.NewSectionReader(src, start, size-start), start, opt)
	r.e.reads = reads
	if refuse != nil {
		r.e.fail(refuse) // the tail's error, not the options': Reset reads the new source
	}
	return r
}

// TailStart returns the offset where the last n records of src[0:size) begin, as NewTail
// finds it (an unterminated last record counts; size when n < 1 or there is no record):
// the one answer to "where do the last n records start", for a program that reads them
// itself (in pieces, or across a following file's rotations). Only splittable options:
// otherwise, or with Decompress over compressed input, the error wraps
// ErrNotSplittable. A read error, or a src shorter than size (io.ErrUnexpectedEOF), is
// returned as it is.
func TailStart(src io.ReaderAt, size int64, n int, opt Options) (int64, error) {
	cfg := newConfig(opt)
	if err := cfg.splittable(); err != nil {
		return 0, err
	}
	if format, _ := refuseCompressed(src, size, opt); format != "" {
		return 0, fmt.Errorf("%w: %s input", ErrNotSplittable, format)
	}
	if size < 0 {
		return 0, fmt.Errorf("linereader: tail of %d bytes: the size is negative", size)
	}
	tail := tailStart
	if cfg.join != nil {
		tail = joinedTail
	}
	start, _, err := tail(src, size, n, &cfg)
	return max(0, min(start, size)), err
}

// refuseCompressed looks at src's first bytes when opt asks for Decompress: a part of a
// compressed input cannot be decompressed, so the format found is returned for the caller
// to refuse, and the options it returns read plain input as it is.
func refuseCompressed(src io.ReaderAt, size int64, opt Options) (decompress.Format, Options) {
	if !opt.Decompress {
		return "", opt
	}
	opt.Decompress = false
	return decompress.FormatAt(io.NewSectionReader(src, 0, max(size, 0))), opt
}

// tailStart returns the offset where the last n records of src[0:size) begin, and the
// number of reads it made. A record begins at 0 and just past every separator before
// size, so it looks for the n-th separator from the end that lies wholly in
// src[0:size-1): the one ending at size, if any, begins no record. It reads aligned
// blocks backwards (the first one shorter, from size-1 down to a multiple of the block
// size), and counts the separators of a block at once (config.count) before it looks
// for the one it needs (config.findLast): a large n costs a count per block.
func tailStart(src io.ReaderAt, size int64, n int, c *config) (start int64, reads int, err error) {
	if n < 1 {
		return size, 0, nil
	}
	end := size - 1
	k := int64(len(c.sep) - 1)
	bs := int64(c.readSize)
	buf := make([]byte, min(bs+k, max(end, 0)))
	need := n // separators still to pass, from the end
	for hi := end; hi > 0; {
		// The block holds the separators that start in [lo, hi): their last bytes reach
		// k bytes past hi, and none that starts at hi or later fits.
		lo := (hi - 1) / bs * bs
		p := buf[:min(end, hi+k)-lo]
		reads++
		if err := readBlock(src, p, lo); err != nil {
			return 0, reads, err
		}
		if m := c.count(p); m < need {
			need -= m
			hi = lo
			continue
		}
		j := len(p)
		for {
			i := c.findLast(p[:j])
			if need--; need == 0 {
				return lo + int64(i), reads, nil
			}
			j = i - len(c.sep)
		}
	}
	return 0, reads, nil
}

// readBlock fills p from src at off. A src that ends before p is full is shorter than the
// size it was given for: that is io.ErrUnexpectedEOF.
func readBlock(src io.ReaderAt, p []byte, off int64) error {
	n, err := src.ReadAt(p, off)
	switch {
	case n == len(p):
		return nil
	case err == nil || err == io.EOF:
		return io.ErrUnexpectedEOF
	}
	return err
}
