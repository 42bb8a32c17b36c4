package linereader

import (
	"cmp"
	"io"
)

// Records of many lines found without reading forward from the input's start: where a
// section's first record begins, and, for NewBackward and NewTail, where the records
// before a point begin. Both walk the input's lines with a Reader of plain lines (the
// same separator, nothing else: lineOptions) and test each line with the joiner, so
// that they decide exactly as the forward engine does.
//
// A line that begins a record by its pattern (or the input's first line) is an anchor:
// a record begins there whatever came before. With MaxLines, records also begin every
// MaxLines lines after an anchor, up to the next one: a line that is not an anchor
// begins a record when the lines from the last anchor before it number a multiple of
// MaxLines, which only a walk back to that anchor can tell.

// lineOptions are the options of a Reader of c's lines as they are in the input.
func (c *config) lineOptions() Options {
	return Options{Sep: c.sep, BufferSize: c.readSize}
}

// walk calls fn with the offset of each line of r (a Reader of lineOptions, forward or
// backward), in the order r yields them, and whether the line is an anchor, until fn
// returns false (after that line: r can be walked on from the next) or the lines end;
// it returns r's error. A line longer than r's buffer comes in pieces and is held no
// further than its first bytes decide it (joiner.begins).
func (j *joiner) walk(r *Reader, c *config, fn func(off int64, anchor bool) bool) error {
	var held []byte
	var off int64
	inLine, decided, stop := false, false, false
	for piece := range r.Pieces() {
		last := !r.Partial()
		if !inLine {
			off, held, decided, inLine = r.Offset(), held[:0], false, true
		}
		if !decided {
			text := piece
			if len(held) > 0 || !last {
				held = append(held, piece...)
				text = held
			}
			var anchor bool
			if last {
				anchor, decided = j.begins(c.chomp(text), true)
			} else {
				anchor, decided = j.begins(c.partialText(text), false)
			}
			if decided {
				stop = !fn(off, anchor)
			}
		}
		if last {
			inLine = false
			if stop {
				return nil
			}
		}
	}
	return r.Err()
}

// joinedStart returns where the first record of a section [start, end) of src begins:
// the first line that begins at or after start and begins a record, or end when none
// does before end. It reads the lines from start on, and with MaxLines, when the first
// of them is not an anchor, the lines back to the last anchor before it (linesBack).
// reads counts the reads it made.
func joinedStart(src io.ReaderAt, start, end int64, c *config) (first int64, reads int, err error) {
	if start == 0 {
		return 0, 0, nil // the input's first line always begins a record
	}
	lines := NewSection(src, start, end, c.lineOptions())
	first, m := end, c.join.maxLines
	k := -1 // with MaxLines: the lines of the record in progress before the line at hand, modulo MaxLines; -1 until counted
	werr := c.join.walk(lines, c, func(off int64, anchor bool) bool {
		switch {
		case anchor:
		case m == 0:
			return true
		case k < 0:
			var n int64
			n, reads, err = linesBack(src, off, c)
			k = int(n % int64(m))
		default:
			k = (k + 1) % m
		}
		if anchor || k == 0 || err != nil {
			first = off
			return false
		}
		return true
	})
	reads += lines.Stats().Reads
	return first, reads, cmp.Or(err, werr)
}

// linesBack returns how many lines of src[0:at) lie from the last anchor before at (it
// included) to at, reading backwards; at is where a line begins. Without an anchor, the
// input's first line is one: it counts every line before at.
func linesBack(src io.ReaderAt, at int64, c *config) (n int64, reads int, err error) {
	lines := NewBackward(src, at, c.lineOptions())
	err = c.join.walk(lines, c, func(_ int64, anchor bool) bool {
		n++
		return !anchor
	})
	return n, lines.Stats().Reads, err
}
