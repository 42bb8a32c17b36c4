package linereader

import (
	"fmt"
	"io"
	"math"

	"github.com/foreachio/foreach/internal/decompress"
)

// NewSection yields the records whose first byte lies in [start, end) of src, reading past
// end to finish the last of them. For any partition of [0, size) into sections, the
// sections' records, in order, are exactly the records of one sequential read. Offset is
// absolute; LineNo counts from 0 within the section. Only separators that cannot overlap
// themselves are splittable (not Paragraph, Whole or Limit, nor a Sep such as "aa" or
// "aba"): with other options the first Next returns false and Err says why (it wraps
// ErrNotSplittable).
//
// A record starts at offset 0 and right after every occurrence of the separator, because
// a separator that cannot overlap itself is always matched where it occurs. So a section
// that does not start at 0 reads from len(Sep) bytes before start and skips to the end of
// the first separator ending at or after start: the record straddling start belongs to
// the section before, and a separator straddling start is seen whole.
//
// With Options.Multiline, the section's first record is the first line that begins at
// or after start and begins a record, found before NewSection returns: it reads the
// lines from start on until one begins a record (a section inside one long record reads
// only up to end), and with MaxLines, when that line is not one its pattern begins, the
// lines back to the last one that is (in an input where no line is, back to its start).
// An error of those reads is reported by Err.
func NewSection(src io.ReaderAt, start, end int64, opt Options) *Reader {
	cfg := newConfig(opt)
	// A section of compressed input cannot be decompressed on its own; a plain input
	// read with Decompress is read as it is.
	var format decompress.Format
	if opt.Decompress {
		format = decompress.FormatAt(src)
		opt.Decompress = false
	}
	fault := sectionFault(cfg, format, start, end)
	from, reads, seek := int64(0), 0, start > 0
	switch {
	case fault == nil && cfg.join != nil:
		from, reads, fault = joinedStart(src, start, end, &cfg)
		seek = false // from is where the first record begins
	case start > 0:
		// A separator ending at start or later may begin up to len(sep) bytes before it.
		from = max(0, start-int64(max(len(cfg.sep), 1)))
	}
	if fault != nil {
		from = 0
	}
	r := newAt(io.NewSectionReader(src, from, math.MaxInt64-from), from, opt)
	e := &r.e
	e.reads = reads
	// A section that cannot be read ends before its first record. The error is the
	// section's, not the options': Reset starts a plain reading of the new source.
	if fault != nil {
		e.fail(fault)
		return r
	}
	e.stopAt = end
	e.seek = seek
	e.setFast()
	return r
}

// sectionFault says why a section cannot be read: options that are not splittable, a
// compressed input, a range out of order.
func sectionFault(cfg config, format decompress.Format, start, end int64) error {
	if err := cfg.splittable(); err != nil {
		return err
	}
	if format != "" {
		return fmt.Errorf("%w: %s input", ErrNotSplittable, format)
	}
	if start < 0 || end < start {
		return fmt.Errorf("linereader: section [%d, %d) is out of order", start, end)
	}
	return nil
}

// seekBoundary consumes input up to the end of the first separator, which is where the
// section's first record starts; without one, the section has no record. It stops early,
// with the buffer consumed, once the buffer reaches stopAt without a separator: any
// boundary further on is at or after stopAt, so a section inside one long record reads
// only about its own bytes instead of running on to the record's end.
func (e *engine) seekBoundary() {
	keep := len(e.cfg.sep) - 1
	for {
		if end := e.cfg.find(e.data[e.scan:]); end >= 0 {
			e.start = e.scan + end
			e.scan = e.start
			e.seek = false
			return
		}
		// No separator starts before len(data)-keep, so the first boundary left is past
		// len(data): past the section's end once the buffer reaches it.
		if e.rerr != nil || e.base+int64(len(e.data)) >= e.stopAt {
			e.start, e.scan = len(e.data), len(e.data)
			e.seek = false
			return
		}
		// Keep only the bytes that could begin a separator straddling the next read.
		e.start = max(e.start, len(e.data)-keep)
		e.scan = e.start
		e.fill()
	}
}
