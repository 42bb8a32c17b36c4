package linereader

import "io"

// backJoin finds the records of many lines before a point, last first: for NewBackward
// (each record is then read forward from src as a long record is: backward.joined) and
// for NewTail and TailStart (only where the last n begin). It walks the input's lines
// backwards and ends a record at each anchor (multiline_walk.go); with MaxLines, the
// lines from an anchor to the record found before, when they are more than MaxLines, are
// cut into records of MaxLines lines from the anchor, by a second walk back over them
// once their number is known, so that memory stays that of two line readers.
type backJoin struct {
	src     io.ReaderAt
	lines   *Reader // the input's lines before end, last first: NewBackward of lineOptions
	end     int64   // where the next record (last first) ends: the start of the last one found
	stretch *Reader // with MaxLines: the lines before end of a stretch being cut, last first; nil when none
	left    int64   // the lines of that stretch not yet in a record
	reads   int     // the reads of the stretches walked and done with
	buf     []byte  // NewBackward: the record lent by Next and Views, reused
}

func newBackJoin(src io.ReaderAt, size int64, c *config) *backJoin {
	return &backJoin{src: src, lines: NewBackward(src, size, c.lineOptions()), end: size}
}

// prev returns the bounds of the record that ends at end, the next last first, and
// makes its start the new end; io.EOF when there is none.
func (bj *backJoin) prev(c *config) (start, end int64, err error) {
	if bj.stretch != nil {
		return bj.cut(c)
	}
	var n int64
	start = bj.end
	err = c.join.walk(bj.lines, c, func(off int64, anchor bool) bool {
		n, start = n+1, off
		return !anchor
	})
	switch m := int64(c.join.maxLines); {
	case err != nil:
		return 0, 0, err
	case n == 0:
		return 0, 0, io.EOF // the input's start
	case m > 0 && n > m:
		bj.stretch = NewBackward(bj.src, bj.end, c.lineOptions())
		bj.left = n
		return bj.cut(c)
	}
	end, bj.end = bj.end, start
	return start, end, nil
}

// cut returns the last record of the stretch being cut: its last left%MaxLines lines
// (MaxLines when that is 0), the records from the anchor having MaxLines each.
func (bj *backJoin) cut(c *config) (start, end int64, err error) {
	m := int64(c.join.maxLines)
	take := bj.left % m
	if take == 0 {
		take = m
	}
	var k int64
	err = lineStarts(bj.stretch, func(off int64) bool {
		k, start = k+1, off
		return k < take
	})
	if err == nil && k < take {
		err = io.ErrUnexpectedEOF // the input changed since the first walk counted its lines
	}
	if err != nil {
		return 0, 0, err
	}
	if bj.left -= take; bj.left == 0 {
		bj.reads += bj.stretch.Stats().Reads
		bj.stretch = nil
	}
	end, bj.end = bj.end, start
	return start, end, nil
}

// record returns a buffer of n bytes for a record, reused from one record to the next
// up to keep bytes (a longer record gets one of its own, not kept).
func (bj *backJoin) record(n, keep int) []byte {
	if n > keep {
		return make([]byte, n)
	}
	if cap(bj.buf) < n || bj.buf == nil {
		bj.buf = make([]byte, max(n, 64)) // never nil: an empty record is not no record
	}
	return bj.buf[:n]
}

// readCount is how many reads the walks have made.
func (bj *backJoin) readCount() int {
	n := bj.reads + bj.lines.Stats().Reads
	if bj.stretch != nil {
		n += bj.stretch.Stats().Reads
	}
	return n
}

// lineStarts calls fn with the offset of each line of r (a Reader of lineOptions), in
// the order r yields them, until fn returns false (after that line) or the lines end;
// it returns r's error.
func lineStarts(r *Reader, fn func(off int64) bool) error {
	var off int64
	inLine := false
	for range r.Pieces() {
		if !inLine {
			off, inLine = r.Offset(), true
		}
		if !r.Partial() {
			inLine = false
			if !fn(off) {
				return nil
			}
		}
	}
	return r.Err()
}

// joinedTail returns where the last n records of many lines of src[0:size) begin (size
// when n < 1 or there is none), and the reads it made.
func joinedTail(src io.ReaderAt, size int64, n int, c *config) (start int64, reads int, err error) {
	bj := newBackJoin(src, size, c)
	start = size
	for range max(n, 0) {
		s, _, err := bj.prev(c)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, bj.readCount(), err
		}
		start = s
	}
	return start, bj.readCount(), nil
}

// joined makes the record of many lines before the last one yielded the backward
// Reader's long record, whose bytes longNext reads from src; it reports false, the
// cursor stopped (io.EOF at the input's start), when there is none.
func (b *backward) joined() bool {
	c := b.c
	before := b.join.readCount()
	start, end, err := b.join.prev(b.cfg)
	c.reads += b.join.readCount() - before
	if err != nil {
		return c.stop(err)
	}
	b.setLong(start, end)
	return true
}
