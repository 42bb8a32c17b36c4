package linereader

import (
	"errors"
	"fmt"
	"io"
)

// NewBackward returns a Reader that yields the records of src[0:size) last first: the
// same records, bytes and offsets as a forward read with the same options, in reverse
// order. It reads backwards in blocks through one reusable buffer of twice BufferSize,
// which grows only for a record longer than it (doubling, as tac does) and is given back
// once that record is passed.
//
// Next, Bytes, Line, Text, Offset, EndOffset, Err, Lines, Views, Stats and Close behave
// as for New (Line and Lines copy, Bytes and Views borrow); LineNo counts the records
// yielded so far, and Stats.Bytes the bytes from the current record's start to size.
// Runs and Pieces yield one whole record at a time, last first, never a run of several
// nor a piece (Partial is always false); Batches yields batches of whole records, each
// batch's records last first too. Stats.Buffer does not describe the backward buffer,
// and Release does not give it back. Reset makes the Reader a forward reader of its new
// source.
//
// Only splittable options (Options.Splittable): otherwise the first Next returns false
// and Err says why (it wraps ErrNotSplittable); with Decompress, compressed input is
// refused in the same way, and plain input is read as it is. With MaxRecord, a longer
// record stops iteration with a *TooLongError (its Offset found by reading on backwards
// without keeping the bytes); every record after it has been yielded.
//
// A read error ends iteration after every record that lies, with the separator before
// it, wholly after the bytes that could not be read; Err reports it. A src shorter than
// size is io.ErrUnexpectedEOF.
func NewBackward(src io.ReaderAt, size int64, opt Options) *Reader {
	cfg := newConfig(opt)
	format, opt := refuseCompressed(src, size, opt)
	b := &backward{src: src, size: max(size, 0), plain: !opt.Chomp && opt.MaxRecord <= 0}
	r := New(b, opt)
	e := &r.e
	e.buf.Release(0) // the forward buffer is not used
	// The reading's error, not the options': Reset reads the new source forward.
	switch err := cfg.splittable(); {
	case err != nil:
		e.fail(err)
	case format != "":
		e.fail(fmt.Errorf("%w: %s input", ErrNotSplittable, format))
	case size < 0:
		e.fail(fmt.Errorf("linereader: backward over %d bytes: the size is negative", size))
	}
	// The short path and the runs of Runs cut records forward: a backward Reader takes
	// neither. With simple unset the engine never sets fast; a section end (stopAt >= 0)
	// keeps Runs from cutting runs. No record starts at or after size, as stopAt says.
	e.cfg.simple, e.fast = false, false
	e.stopAt = b.size
	e.base, e.origin = b.size, b.size
	e.lo, e.hi, e.start = 0, -1, 0
	return r
}

// searchChunk is how many bytes backward searches for record boundaries at a time: the
// boundaries of a chunk are found forward, with the vectorised search, and its records
// are then yielded last first while the chunk is in the cache. It bounds ends.
const searchChunk = 4 << 10

// errBackwardRead is what a backward source returns if the engine ever reads it forward:
// it never does, and a Reset gives the engine another source.
var errBackwardRead = errors.New("linereader: a backward Reader's source is not read forward")

// backward is the state of a Reader from NewBackward. It is the engine's source
// (engine.src), so that advance hands over to it, and Reset, giving the engine another
// source, ends it.
//
// The window: e.data is the tail of win and holds src[e.base : e.base+len(e.data)).
// Records are taken from its end towards its start: the last record yielded starts at
// e.lo, so data[e.lo:] is consumed and the next record ends at e.lo (Batches may take a
// record back: e.lo then moves up again, see advance). Reading more (fill) puts the
// block before e.base in front of data[:e.lo], moved to the end of win.
type backward struct {
	src  io.ReaderAt
	size int64  // the input is src[0:size)
	win  []byte // the buffer: e.data is win[len(win)-len(e.data):]

	// The record boundaries (indexes in data just past a separator) found by the last
	// search, ascending. ends[:k] are the boundaries before the next record's end
	// (< e.lo); ends[k:] those of the records yielded since. data[from:e.lo] has been
	// searched: every boundary before e.lo whose separator starts at or after from is
	// in ends[:k].
	ends []int
	k    int
	from int

	rerr  error // a read that failed: data holds what could be read after it, and nothing before it will be
	plain bool  // no Chomp and no MaxRecord: a record is its bytes as they are (next applies)
}

func (b *backward) Read([]byte) (int, error) { return 0, errBackwardRead }

// next is advance's short path, small enough to be inlined into the engine's advance:
// the next record's start is a boundary already found, and nothing is checked per
// record (no Chomp, no MaxRecord).
func (b *backward) next(e *engine) bool {
	if k := b.k - 1; k >= 0 && b.plain && e.err == nil && (k+1 == len(b.ends) || b.ends[k+1] >= e.lo) {
		s, end := b.ends[k], e.lo
		b.k = k
		e.big = nil
		e.lo, e.hi, e.start = s, end, end
		e.lineNo++
		e.longest = max(e.longest, end-s)
		e.origin = e.base + int64(end) - (b.size - (e.base + int64(s))) // see emit
		return true
	}
	return b.advance(e)
}

// advance moves to the record before the last one yielded: it ends at e.lo, and starts
// at the last boundary before that, searched for chunk by chunk and read block by
// block backwards until one is found or the input's start is reached.
func (b *backward) advance(e *engine) bool {
	if e.err != nil {
		return e.fail(e.err) // NewBackward's refusals are e.err too
	}
	e.big = nil
	if b.k < len(b.ends) && b.ends[b.k] < e.lo {
		b.retake(e)
	}
	if b.k == 0 {
		if !b.find(e) {
			return false
		}
		if b.k == 0 {
			return b.emit(e, 0, e.lo) // no boundary before e.lo: the input's first record
		}
	}
	b.k--
	return b.emit(e, b.ends[b.k], e.lo)
}

// retake follows Batches taking a record back (restore): e.lo moved up to that
// record's end, and the boundaries it and the records after it started at are in ends
// again.
func (b *backward) retake(e *engine) {
	for b.k < len(b.ends) && b.ends[b.k] < e.lo {
		b.k++
	}
}

// find looks for the boundaries before e.lo, searching chunk by chunk and reading
// block by block backwards, until it finds one (k > 0) or reaches the input's start. It
// returns false when iteration ends: at the start with nothing left, or on an error.
func (b *backward) find(e *engine) bool {
	for b.k == 0 && (b.from > 0 || e.base > 0) {
		if b.from > 0 {
			b.search(e)
		} else if !b.fill(e) {
			return false
		}
	}
	if b.k == 0 && e.lo == 0 {
		return e.fail(io.EOF)
	}
	return true
}

// emit makes data[s:end] the current record.
func (b *backward) emit(e *engine, s, end int) bool {
	if e.cfg.opt.Chomp || e.cfg.opt.MaxRecord > 0 {
		return b.emitChecked(e, s, end)
	}
	e.lo, e.hi, e.start = s, end, end
	e.lineNo++
	if end-s > e.longest {
		e.longest = end - s
	}
	// Stats.Bytes is end() - origin: the bytes from this record's start to the end.
	e.origin = e.base + int64(end) - (b.size - (e.base + int64(s)))
	return true
}

// emitChecked is emit with MaxRecord and Chomp.
func (b *backward) emitChecked(e *engine, s, end int) bool {
	if m := e.cfg.opt.MaxRecord; m > 0 && end-s > m {
		return e.fail(&TooLongError{Offset: e.base + int64(s), LineNo: e.lineNo + 1, Max: m})
	}
	hi := end
	if e.cfg.opt.Chomp {
		hi = s + len(e.chomp(e.data[s:end]))
	}
	e.lo, e.hi, e.start = s, hi, end
	e.lineNo++
	e.longest = max(e.longest, hi-s)
	e.origin = e.base + int64(end) - (b.size - (e.base + int64(s)))
	return true
}

// search finds the boundaries of the chunk of data before from: those of the separators
// that start in [from-searchChunk, from) and end before e.lo-1 (a separator ending at
// e.lo ends the next record and begins none).
func (b *backward) search(e *engine) {
	lo := max(0, b.from-searchChunk)
	hi := min(b.from+len(e.cfg.sep)-1, e.lo-1)
	b.ends = e.cfg.findAll(e.data[lo:hi], lo, b.ends[:0])
	b.k, b.from = len(b.ends), lo
}

// fill reads the bytes before the window: a block aligned to BufferSize, or more while
// the buffer has room, in front of data[:e.lo], the start of the record in progress,
// which has no boundary. The buffer keeps room for a block: it doubles for a record
// longer than it, and goes back to twice BufferSize once such a record is passed.
func (b *backward) fill(e *engine) bool {
	if b.rerr != nil {
		return e.fail(b.rerr)
	}
	keep := e.lo
	if m := e.cfg.opt.MaxRecord; m > 0 && keep > m {
		return b.tooLong(e, keep)
	}
	bs := e.cfg.readSize
	win := b.win
	if want := max(2*bs, keep+bs); len(win) < want {
		win = make([]byte, max(2*len(win), want))
	} else if len(win) > 4*want {
		win = make([]byte, want)
	}
	room := int64(len(win) - keep)
	lo := max(0, e.base-room)
	if a := (lo + int64(bs) - 1) / int64(bs) * int64(bs); a < e.base {
		lo = a // reads end at multiples of BufferSize after the first
	}
	dst := len(win) - keep
	copy(win[dst:], e.data[:keep])
	b.win, e.data = win, win[dst:]
	p := win[dst-int(e.base-lo) : dst]
	e.reads++
	if err := readBlock(b.src, p, lo); err != nil {
		b.rerr = err
		n := b.readable(e, p, lo)
		if n == 0 {
			return e.fail(err)
		}
		p, lo = p[len(p)-n:], e.base-int64(n)
	}
	n := len(p)
	e.data = win[dst-n:]
	e.base = lo
	e.lo, e.hi, e.start = e.lo+n, e.hi+n, e.start+n
	b.ends, b.k, b.from = b.ends[:0], 0, n
	return true
}

// readable returns how many of the last bytes of p, which a read of src at off failed to
// fill, can be read, and reads them: the read may have failed at one bad byte, and the
// records after it are still to be yielded. It searches for the longest readable suffix
// by halves, a few reads of the failed block, on the error path only.
func (b *backward) readable(e *engine, p []byte, off int64) int {
	good, bad := 0, len(p) // a suffix of good bytes reads; one of bad does not
	for bad-good > 1 {
		mid := (good + bad) / 2
		e.reads++
		if readBlock(b.src, p[len(p)-mid:], off+int64(len(p)-mid)) == nil {
			good = mid
		} else {
			bad = mid
		}
	}
	if good == 0 {
		return 0
	}
	// A failed read after the last good one may have written into its bytes.
	e.reads++
	if readBlock(b.src, p[len(p)-good:], off+int64(len(p)-good)) != nil {
		return 0
	}
	return good
}

// tooLong stops iteration before the record that ends at data[keep], which is longer
// than MaxRecord: its start is found by reading on backwards without keeping the bytes.
func (b *backward) tooLong(e *engine, keep int) bool {
	start, reads, err := tailStart(b.src, e.base+int64(keep), 1, &e.cfg)
	e.reads += reads
	if err != nil {
		return e.fail(err)
	}
	return e.fail(&TooLongError{Offset: start, LineNo: e.lineNo + 1, Max: e.cfg.opt.MaxRecord})
}
