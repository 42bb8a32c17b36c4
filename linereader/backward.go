package linereader

import (
	"bytes"
	"fmt"
	"io"
	"sort"
)

// NewBackward returns a Reader that yields the records of src[0:size) last first: the
// same records, bytes and offsets as a forward read with the same options, in reverse
// order. It reads backwards in blocks through one reusable buffer of twice BufferSize,
// which grows only for a record longer than it (doubling, as tac does) and is given back
// once that record is passed. A record longer than about 8 MiB (twice BufferSize if
// more) is not held in that buffer: its start is found by reading on backwards without
// keeping the bytes, and the record is then read forward from src, by Next, Lines and
// Views into one array of its own length, by Pieces and Runs in pieces of BufferSize, so
// that Pieces and Runs pass records of any length in bounded memory.
//
// Next, Bytes, Line, Text, Offset, EndOffset, Err, Lines, Views, Stats and Close behave
// as for New (Line and Lines copy, Bytes and Views borrow); LineNo counts the records
// yielded so far, and Stats.Bytes the bytes from the current record's start to size.
// Runs yields runs of whole records last first: each run is the records of a stretch
// [Offset, EndOffset) of the input, in reverse order, back to back, copied into a
// buffer of BufferSize bytes that the reader reuses (borrowed, as for Views), so that
// passing records on in reverse, as tac does, costs a copy per record and nothing more;
// the input's last record, if it has no separator, comes alone, so that every record of
// a run of several ends with the separator; Stats.MaxRecord is measured for runs of one
// record only, as forward. Pieces yields one whole record at a time. Both yield a
// record too long for the buffer in pieces, in order, Partial reporting true for all of
// them but the last. Batches yields batches of whole records, each batch's records last
// first too. Stats.Buffer does not describe the backward
// buffer, and Release does not give it back (it goes back on its own). Reset makes the
// Reader a forward reader of its new source.
//
// Only splittable options (Options.Splittable): otherwise the first Next returns false
// and Err says why (it wraps ErrNotSplittable); with Decompress, compressed input is
// refused in the same way, and plain input is read as it is. With MaxRecord, a longer
// record gets what Options.TooLong says (with TooLongStop, iteration stops with a
// *TooLongError whose Offset is found by reading on backwards without keeping the
// bytes; every record after it has been yielded).
//
// A read error ends iteration after every record that lies, with the separator before
// it, wholly after the bytes that could not be read; Err reports it. A src shorter than
// size is io.ErrUnexpectedEOF.
func NewBackward(src io.ReaderAt, size int64, opt Options) *Reader {
	cfg := newConfig(opt)
	splittable := cfg.splittable()
	format, opt := refuseCompressed(src, size, opt)
	r := &Reader{e: engine{cfg: newConfig(opt)}}
	r.e.buf.Init(0, 1.25) // the forward buffer is not used (a Reset gets one)
	b := &backward{c: &r.e.cursor, cfg: &r.e.cfg, src: src, size: max(size, 0)}
	b.longAt = r.e.cfg.gatherAt
	if opt.MaxRecord > 0 {
		b.longAt = min(b.longAt, opt.MaxRecord) // no more than MaxRecord of a record is held
	}
	r.e.back = b
	c := b.c
	c.base, c.origin = b.size, b.size
	c.lo, c.hi = 0, -1
	// The reading's error, not the options': Reset reads the new source forward.
	switch {
	case splittable != nil:
		c.stop(splittable)
	case format != "":
		c.stop(fmt.Errorf("%w: %s input", ErrNotSplittable, format))
	case size < 0:
		c.stop(fmt.Errorf("linereader: backward over %d bytes: the size is negative", size))
	case r.e.cfg.join != nil:
		b.join = newBackJoin(src, b.size, &r.e.cfg)
	}
	b.setFast()
	return r
}

// searchChunk is how many bytes backward searches for record boundaries at a time: the
// boundaries of a chunk are found forward, with the vectorised search, and its records
// are then yielded last first while the chunk is in the cache. It bounds ends.
const searchChunk = 4 << 10

// backward cuts the records of a Reader from NewBackward, last first, over the Reader's
// cursor (c), which Bytes, Offset and the other accessors read.
//
// The window: c.data is the tail of win and holds src[c.base : c.base+len(c.data)).
// Records are taken from its end towards its start: the last record yielded starts at
// c.lo, so data[c.lo:] is consumed and the next record ends at c.lo. Reading more (fill)
// puts the block before c.base in front of data[:c.lo], moved to the end of win.
type backward struct {
	c    *cursor // the Reader's cursor: r.e.cursor
	cfg  *config // the Reader's options: r.e.cfg
	src  io.ReaderAt
	size int64  // the input is src[0:size)
	win  []byte // the buffer: c.data is win[len(win)-len(c.data):]

	// The record boundaries (indexes in data just past a separator) found by the last
	// search, ascending: ends[:k] are those before the next record's end (< c.lo), not
	// yet yielded. data[from:c.lo] has been searched: every boundary before c.lo whose
	// separator starts at or after from is in ends[:k].
	ends []int
	k    int
	from int

	// fast: the next record, when a boundary is found (k > 0), is data[ends[k-1]:c.lo]
	// as it is: no Chomp or MaxRecord to apply, no long record or carried record
	// pending, and the current record is not held in big. One flag for the short path
	// to test.
	fast bool

	longAt int        // a record in progress longer than this is read from src, not held in win
	long   longRecord // such a record
	carry  *cursor    // a record taken by Batches that starts the next batch
	runBuf []byte     // the buffer of Runs' runs, reused
	rerr   error      // a read that failed: data holds what could be read after it, and nothing before it will be
	join   *backJoin  // Options.Multiline: where the records begin (multiline_back.go); each is then a long record; nil without it
}

// longRecord is a record longer than longAt, src[start:end), found by locate: its bytes
// are read forward from src when it is yielded, from at (where its next piece starts)
// to stop (end, or before its separator with Chomp). While active or ended, data is
// empty and base is start, so that the record before it ends at data[0]; ended says it
// has been yielded whole and c.lo is to be set back to 0 (it is the offset of its last
// piece until then).
type longRecord struct {
	start, end, at, stop int64
	active, ended        bool
	piece                bool // the current record is a piece of it and more follow (Partial)
}

// next is Next: the short path when the next record's start is a boundary already
// found, advance otherwise.
func (b *backward) next() bool {
	if k := b.k - 1; k >= 0 && b.fast {
		b.take(k)
		return true
	}
	return b.advance(false)
}

// take makes data[ends[k]:c.lo] the current record, and returns its bounds: the short
// path, small enough to be inlined into the loops of Lines and Views. (big is nil: fast
// is unset whenever it is not.)
func (b *backward) take(k int) (s, end int) {
	c := b.c
	s, end = b.ends[k], c.lo
	b.k = k
	c.lo, c.hi, c.start = s, end, end
	c.lineNo++
	if end-s > c.longest { // a branch, not max: the store is rare
		c.longest = end - s
	}
	return s, end
}

// records is the loop of Lines (owned) and Views over a backward Reader. It is kept out
// of the caller's loop (go:noinline) so that the forward loop, inlined there, stays as
// small as it was: with this loop inlined beside it, forward Views ran 8-14% slower
// against Scanner.Bytes (benchmarks/run.sh beside c84dd94, the same hour).
//
//go:noinline
func (b *backward) records(owned bool, yield func([]byte) bool) {
	c := b.c
	for {
		var rec []byte
		if k := b.k - 1; k >= 0 && b.fast {
			s, end := b.take(k)
			if rec = c.data[s:end:end]; owned {
				rec = clone(rec)
			}
		} else {
			if !b.advance(false) {
				return
			}
			if rec = c.view(); owned {
				rec = c.line()
			}
		}
		if !yield(rec) {
			return
		}
	}
}

// run takes, at once, every record whose start is a boundary already found, last first,
// while they fit in BufferSize bytes, copied into b.runBuf, and returns them:
// the current record is then the run, Offset where its last record starts and
// EndOffset where its first ends, LineNo counting each record. It returns nil, taking
// nothing, when the short path does not apply.
func (b *backward) run() []byte {
	c := b.c
	if !b.plain() || b.k == 0 || c.base+int64(c.lo) == b.size && !b.terminated() {
		// The input's unterminated last record goes alone: records after it in a run
		// would run on from it, and the run could not be cut into its records.
		return nil
	}
	// Records data[ends[j]:...] to c.lo, last first, as many as fit in a read's worth:
	// ends ascend, so their total is c.lo - ends[j]. A record longer than that goes
	// alone, borrowed from the window, not copied.
	room, k := b.cfg.readSize, b.k
	j := k - 1
	if c.lo-b.ends[j] > room {
		return nil
	}
	j = min(j, sort.SearchInts(b.ends[:k], c.lo-room)) // the first boundary within room of c.lo
	if cap(b.runBuf) < room {
		b.runBuf = make([]byte, room)
	}
	run := b.runBuf[:reverseRecords(b.runBuf[:room], c.data, b.ends[j:k], c.lo)]
	if k-j == 1 {
		c.longest = max(c.longest, len(run)) // as forward, only a run of one record is measured
	}
	end := b.ends[j]
	k = j
	c.lineNo += int64(b.k - k)
	c.start, c.lo, b.k = c.lo, end, k
	c.hi = c.lo + len(run)
	c.big, b.runBuf = run, run
	b.fast = false // until advance lets go of big
	return run
}

// advance moves to the record before the last one yielded: it ends at c.lo, and starts
// at the last boundary before that, searched for chunk by chunk and read block by block
// backwards until one is found or the input's start is reached. With pieces, a long
// record comes in pieces.
func (b *backward) advance(pieces bool) bool {
	c := b.c
	if c.err != nil {
		return c.stop(c.err) // NewBackward's refusals are c.err too
	}
	c.big = nil
	if !b.fast {
		b.setFast() // a run or a batch held big
	}
	if b.carry != nil {
		*c, b.carry = *b.carry, nil
		b.setFast()
		return true
	}
	if b.long.ended {
		b.long = longRecord{} // the next record ends where it started, at data[0]
		c.lo = 0
		b.setFast()
	}
	for {
		if b.long.active {
			if settled, ok := b.longNext(pieces); settled {
				return ok
			}
			continue
		}
		if b.join != nil {
			if !b.joined() {
				return false
			}
			continue
		}
		if b.k == 0 && !b.find() {
			return false
		}
		if b.long.active {
			continue
		}
		s := 0 // no boundary before c.lo: the input's first record
		if b.k > 0 {
			b.k--
			s = b.ends[b.k]
		}
		if b.emit(s, c.lo) {
			return true
		}
		if c.err != nil {
			return false // refused by MaxRecord
		}
	}
}

// find looks for the boundaries before c.lo, searching chunk by chunk and reading block
// by block backwards, until it finds one (k > 0), reaches the input's start (the next
// record is data[:c.lo]), or the record in progress outgrows longAt (locate: long is
// then active). It returns false when iteration ends: at the start with nothing left, or
// on an error.
func (b *backward) find() bool {
	c := b.c
	for b.k == 0 && (b.from > 0 || c.base > 0) {
		switch {
		case b.from > 0:
			b.search()
		case c.lo > b.longAt+len(b.cfg.sep)-1: // data[:lo] may begin with a separator's last bytes
			return b.locate()
		case !b.fill():
			return false
		}
	}
	if b.k == 0 && c.lo == 0 {
		return c.stop(io.EOF)
	}
	return true
}

// emit makes data[s:end] the current record, applying Chomp and MaxRecord. It reports
// false for a record refused by MaxRecord (c.err is then set) or skipped by TooLongSkip
// (advance goes on with the one before it).
func (b *backward) emit(s, end int) bool {
	c, opt := b.c, &b.cfg.opt
	if m := opt.MaxRecord; m > 0 && end-s > m {
		return b.overLong(c.base+int64(s), int64(end-s), func(p []byte) error { copy(p, c.data[s:]); return nil }, s, end)
	}
	hi := end
	if opt.Chomp {
		hi = s + len(b.cfg.chomp(c.data[s:end]))
	}
	c.lo, c.hi, c.start = s, hi, end
	c.lineNo++
	c.longest = max(c.longest, hi-s)
	return true
}

// overLong settles a record of n bytes at offset off that is longer than MaxRecord, as
// Options.TooLong says: Stop ends iteration with a *TooLongError; Skip drops it (false);
// Cut makes its first MaxRecord bytes (prefix copies them into a slice of that length),
// then its separator unless Chomp, the current record, in big. s and end are the
// record's bounds in data (both 0 for a long record, read from src). Only the first
// MaxRecord bytes of the record are ever held.
func (b *backward) overLong(off, n int64, prefix func([]byte) error, s, end int) bool {
	c, opt := b.c, &b.cfg.opt
	c.lo, c.start = s, end // the record before it ends at s
	switch opt.TooLong {
	case TooLongSkip:
		c.overLong++
		return false
	case TooLongCut:
		sep := b.cfg.sep
		if opt.Chomp || off+n == b.size && !b.endsWithSep() {
			sep = nil // no separator to keep (the input's unterminated last record)
		}
		rec := make([]byte, opt.MaxRecord+len(sep))
		if err := prefix(rec[:opt.MaxRecord]); err != nil {
			return c.stop(err)
		}
		copy(rec[opt.MaxRecord:], sep)
		c.big, c.hi = rec, s+len(rec)
		c.overLong++
		c.lineNo++
		c.longest = max(c.longest, len(rec))
		return true
	}
	return c.stop(&TooLongError{Offset: off, LineNo: c.lineNo + 1, Max: opt.MaxRecord})
}

// terminated reports whether data[:c.lo], the end of the record in progress, ends with
// the separator.
func (b *backward) terminated() bool {
	return bytes.HasSuffix(b.c.data[:b.c.lo], b.cfg.sep)
}

// endsWithSep reports whether the input ends with the separator (its last record is
// terminated); a read error counts as not.
func (b *backward) endsWithSep() bool {
	n := len(b.cfg.sep)
	if b.size < int64(n) {
		return false
	}
	end := make([]byte, n)
	b.c.reads++
	return readBlock(b.src, end, b.size-int64(n)) == nil && string(end) == string(b.cfg.sep)
}

// search finds the boundaries of the chunk of data before from: those of the separators
// that start in [from-searchChunk, from) and end before c.lo-1 (a separator ending at
// c.lo ends the next record and begins none).
func (b *backward) search() {
	lo := max(0, b.from-searchChunk)
	hi := min(b.from+len(b.cfg.sep)-1, b.c.lo-1)
	b.ends = b.cfg.findAll(b.c.data[lo:hi], lo, b.ends[:0])
	b.k, b.from = len(b.ends), lo
}

// setFast says whether the short path applies (see fast).
func (b *backward) setFast() { b.fast = b.plain() && b.c.big == nil }

// plain reports whether the next records are their bytes as they are, taken from
// boundaries found (fast, but for the current record held in big).
func (b *backward) plain() bool {
	opt := &b.cfg.opt
	return !opt.Chomp && opt.MaxRecord <= 0 && !b.long.active && !b.long.ended && b.carry == nil && b.c.err == nil && b.join == nil
}

// ready is Ready: the next record's start is a boundary already found, or iteration
// has ended, so that Next reads nothing.
func (b *backward) ready() bool {
	return b.c.err != nil || b.carry != nil || b.k > 0 && !b.long.active && !b.long.ended
}

// partial is Partial: the current record is a piece of a long record that more pieces
// continue.
func (b *backward) partial() bool { return b.long.piece && b.c.err == nil }

// stats fills in what a backward reading counts differently: Records are the records
// yielded, and Bytes the bytes from the current record's start to the end.
func (b *backward) stats(s *Stats) {
	s.Records = b.c.lineNo
	s.Bytes = b.size - (b.c.base + int64(b.c.lo))
}

// runs is the loop of Runs over a backward Reader, out of line as records is: the
// records whose starts are already found (those of a searched chunk) copied last first,
// back to back, into one reused buffer (run), so that passing records on in reverse
// (tac) costs a copy per record and a call per run; other records one at a time, as
// pieces does.
//
//go:noinline
func (b *backward) runs(yield func([]byte) bool) {
	for {
		run := b.run()
		if run == nil {
			if !b.advance(true) {
				return
			}
			run = b.c.view()
		}
		if !yield(run) {
			return
		}
	}
}

// pieces is the loop of Pieces over a backward Reader: whole records, but for a long
// record, which comes in pieces.
//
//go:noinline
func (b *backward) pieces(yield func([]byte) bool) {
	for b.advance(true) {
		if !yield(b.c.view()) {
			return
		}
	}
}
