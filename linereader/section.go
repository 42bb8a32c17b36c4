package linereader

import (
	"bytes"
	"fmt"
	"io"
	"math"
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
func NewSection(src io.ReaderAt, start, end int64, opt Options) *Reader {
	cfg := newConfig(opt)
	from := int64(0)
	if start > 0 {
		// A separator ending at start or later may begin up to len(sep) bytes before it.
		from = max(0, start-int64(max(len(cfg.sep), 1)))
	}
	r := New(io.NewSectionReader(src, from, math.MaxInt64-from), opt)
	if err := r.cfg.splittable(); err != nil {
		r.cfg.err = err
		return r
	}
	if start < 0 || end < start {
		r.cfg.err = fmt.Errorf("linereader: section [%d, %d) is out of order", start, end)
		return r
	}
	r.base, r.origin = from, from
	r.stopAt = end
	r.cfg.simple = false // the fast path does not check stopAt
	r.seek = start > 0
	return r
}

// seekBoundary consumes input up to the end of the first separator, which is where the
// section's first record starts; without one, the section has no record. It stops early,
// with the buffer consumed, once the buffer reaches stopAt without a separator: any
// boundary further on is at or after stopAt, so a section inside one long record reads
// only about its own bytes instead of running on to the record's end.
func (r *Reader) seekBoundary() {
	sepLen := len(r.cfg.sep)
	for {
		var i int
		if sepLen == 1 {
			i = bytes.IndexByte(r.data[r.scan:], r.cfg.sepByte)
		} else {
			i = bytes.Index(r.data[r.scan:], r.cfg.sep)
		}
		if i >= 0 {
			r.start = r.scan + i + sepLen
			r.scan = r.start
			r.seek = false
			return
		}
		// No separator starts before len(data)-(sepLen-1), so the first boundary left is
		// past len(data): past the section's end once the buffer reaches it.
		if r.eof || r.base+int64(len(r.data)) >= r.stopAt {
			r.start, r.scan = len(r.data), len(r.data)
			r.seek = false
			return
		}
		// Keep only the bytes that could begin a separator straddling the next read.
		r.start = max(r.start, len(r.data)-(sepLen-1))
		r.scan = r.start
		r.fill()
	}
}
