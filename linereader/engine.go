package linereader

import (
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/foreachio/foreach/bytelist"
)

// engine cuts an input into records. It is the whole of a Reader's state, in a few
// parts, each with its invariants; only the goroutine that iterates touches it: no
// iterator starts another.
//
// The data path, which every iterator goes through:
//   - shortEnd and take find and take the next record when it is already buffered and
//     nothing but a one-byte separator can end it (the short path, inlined into next
//     and into the loop of Lines and Views); advance does everything else: Limit,
//     MaxRecord, Chomp of longer separators, paragraphs, sections, pieces, reads;
//   - emit applies Chomp and makes a record the last one;
//   - fill (and fillRecord) is the only caller of the source's Read, and makeRoom
//     (buffer.go) the only place the buffer is compacted, grown, given back or gathered
//     into blocks;
//   - run takes all the complete records buffered at once, for Runs; cutBatch (batch.go)
//     does the same for Batches, cutting them apart in the batch's own block.
//
// Separators are searched by config's methods (find, findAll, findLast, count:
// options.go), by shortEnd and cutBatch for the one-byte separator of the short path,
// and by the backward searches built on findLast (boundary.go): nowhere else. Records are copied
// out by clone (reader.go), by the batch paths (batch.go) and by gatherEnd (buffer.go),
// which assembles a record that outgrew the largest buffer.
type engine struct {
	cfg    config
	src    io.Reader // the input being read: the caller's, or dec.r around it with Options.Decompress
	dec    decoding  // Options.Decompress: the decompressor around the input being read
	inputs           // NewInputs: where the next input comes from
	back   *backward // NewBackward: the records are cut last first, over cursor (backward.go); nil forward

	cursor   // the bytes at hand and the last record: what Bytes, Offset, LineNo and Stats read
	window   // the forward buffer, and where reading stands in it
	reading  // what the source has done
	gathered // a record longer than the buffer holds, or one being skipped (Options.TooLong)
	section  // the byte range of NewSection, if any
	joining  // Options.Multiline: where the record of many lines in progress stands (multiline_engine.go)

	// fast: the short path applies: a one-byte separator, no Limit or MaxRecord, no
	// section end within what is buffered, no record in pieces or held apart in big,
	// not ended. One flag, so that the short path tests one byte.
	fast bool
}

// cursor is the bytes at hand and the last record taken from them: the state the
// accessors (Bytes, Offset, EndOffset, LineNo, Err, Stats) read, written by the cutter
// the constructor chose, forward (engine) or backward (backward.go). Invariants, restored
// by every cutter method before it returns:
//   - data[i] is the input's byte at offset base+i; origin is the offset reading began
//     at, so that Stats.Bytes is end() - origin. Forward, data == buf.Bytes() (see
//     window); backward, data is the tail of the backward buffer.
//   - data[:start] is consumed (yielded or skipped): EndOffset is base+start.
//   - err is sticky: what stopped the cutter, io.EOF at a clean end; nil while it runs.
//   - reads counts the calls to the source's Read (backward: ReadAt).
type cursor struct {
	data         []byte
	start        int
	base, origin int64
	current      // the last record
	counters     // what has been yielded
	err          error
	reads        int
}

// window is the forward buffer and where reading stands in it. Invariants, restored by
// every engine method before it returns:
//   - data == buf.Bytes() (cursor.data). Only the window's methods (buffer.go) change
//     buf, and each ends with sync. data is kept beside buf rather than read through
//     buf.Bytes() because the short path must stay small enough to be inlined into the
//     caller's loop, and Bytes' capped slice costs it that.
//   - data[start:] is input not yet yielded: the next record (paragraph mode: after the
//     newlines advance skips first), or the rest of the record in progress when
//     gathered.before > 0.
//   - When start <= scan <= len(data), data[start:scan] has been searched and holds no
//     separator that ends the record in progress, so a search resumes at scan (for a
//     multi-byte separator scan stays len(sep)-1 bytes back, since one may straddle two
//     reads). scan < start means nothing after start has been searched: the short path
//     does not keep scan.
//   - sinceGrow counts the bytes consumed since the last long record (one holding more
//     than a quarter of the buffer when it had to be read further) or since the buffer
//     last grew: once it passes the capacity, a buffer larger than cfg.releaseCap has
//     outlived the record that needed it, and makeRoom gives it back.
type window struct {
	buf       bytelist.ByteList // by value: no pointer to follow on the way to the bytes
	scan      int
	sinceGrow int64
}

// sync restores data == buf.Bytes() after a change to buf.
func (e *engine) sync() { e.data = e.buf.Bytes() }

// reading is what the source has done: rerr is what ended it (io.EOF; an error, reported
// once every byte before it has been yielded; ErrStop), nil while it may deliver more.
// quiet says the last read returned ErrFlush: nothing has arrived for a while, and a
// record of many lines whose lines are complete is not to wait for the next line.
type reading struct {
	rerr  error
	quiet bool
}

// current is the last record: data[lo:hi], or big when it is held outside the buffer (a
// record gathered from blocks, or the last record of a batch, in the batch's block). It
// is valid until the engine advances; hi < lo means there is none. Its offset is base+lo:
// moving the buffer's bytes shifts lo and hi with them, so the offset stays right after
// the record's bytes are gone (lo is then negative).
type current struct {
	lo, hi int
	big    []byte
}

// counters is what has been yielded: lineNo is Ruby's lineno after the last record;
// uncounted the records that did not count as lines (cut by Limit); overLong the records
// longer than MaxRecord that were skipped or cut (Options.TooLong), so that
// Stats.Records is lineNo+uncounted, less overLong when they were skipped; longest the
// longest record yielded, after Chomp (for Pieces, the longest piece).
type counters struct {
	lineNo    int64
	uncounted int64
	overLong  int64
	longest   int
}

// gathered is a record longer than what data[start:] holds: before counts its bytes
// that are no longer there, either yielded as pieces (Pieces and Runs: the last record
// was a piece, and Partial reports it) or, inside one call of advance, gathered into
// blocks (a record that outgrew a buffer of cfg.gatherAt bytes: see gather) or dropped
// (toss). before == 0, blocks == nil and toss unset between records.
//
// toss: the record in progress is longer than MaxRecord and TooLong is Skip or Cut: it
// is read to its end without being kept, its bytes consumed as they come (for Cut its
// first MaxRecord bytes are kept first, in blocks), so that it costs no more memory
// than MaxRecord whatever its length (see tossing.go).
type gathered struct {
	before int
	blocks [][]byte
	toss   bool
}

// section is the byte range of a Reader from NewSection: no record starting at or after
// stopAt >= 0 is yielded (stopAt < 0: no end); seek says the section has yet to skip to
// its first record boundary.
type section struct {
	stopAt int64
	seek   bool
}

// releaseMult: Reset gives back a buffer grown past releaseMult × BufferSize.
const releaseMult = 4

func newEngine(cfg config) engine {
	size := cfg.readSize
	if cfg.err != nil {
		size = 0
	}
	// The growth factor is the least bytelist allows: the engine asks for the size it
	// wants (twice the buffer, or what a long record needs) and gets exactly that.
	e := engine{cfg: cfg}
	e.buf.Init(size, 1.25)
	return e
}

// reset starts the engine over on src, keeping the buffer (a soft reset), unless it grew
// past releaseMult × BufferSize for a record of the last input. With next set, src is
// nil and the inputs come from next (NewInputs); otherwise src is the one input.
func (e *engine) reset(src io.Reader, next func() (Input, bool)) {
	e.closeSource()
	e.dec = decoding{}
	e.inputs = inputs{nextInput: next}
	e.buf.Reset()
	if e.buf.Cap() > releaseMult*e.cfg.readSize {
		e.buf.Release(e.cfg.readSize)
	}
	e.window = window{buf: e.buf}
	e.cursor = cursor{current: current{hi: -1}}
	e.sync()
	e.reading = reading{}
	e.gathered = gathered{}
	e.section = section{stopAt: -1}
	e.joining = noJoin
	if next == nil {
		e.open(src)
	} else {
		e.src, e.rerr = nil, io.EOF // the first Next asks next for the first input
	}
	e.setFast()
}

// setFast says whether the short path applies. In a section it does while what is
// buffered ends at or before the section's end: every record that starts there starts
// inside the section.
func (e *engine) setFast() {
	e.fast = e.cfg.simple && e.err == nil && e.before == 0 && e.big == nil && !e.seek &&
		(e.stopAt < 0 || e.base+int64(len(e.data)) <= e.stopAt)
}

// end returns the input offset just past what has been consumed.
func (c *cursor) end() int64 { return c.base + int64(c.start) }

// view returns the last record, borrowed: a view of the buffer, or big.
func (c *cursor) view() []byte {
	if c.big != nil {
		return c.big
	}
	return c.data[c.lo:c.hi:c.hi]
}

// line returns the last record copied out: big itself when it was gathered (it is
// already a record of its own, and the one copy it costs), a clone of the view otherwise.
func (c *cursor) line() []byte {
	if c.big != nil {
		return c.big
	}
	return clone(c.data[c.lo:c.hi])
}

// next advances to the next record: by the short path when it can (see shortEnd), by
// advance otherwise, or for a backward Reader by its cutter (fast is never set then).
func (e *engine) next() bool {
	if e.fast {
		if i := e.shortEnd(); i >= 0 {
			e.take(i)
			return true
		}
		e.scan = len(e.data) // searched: advance resumes there
	}
	if e.back != nil {
		return e.back.next()
	}
	return e.advance(false)
}

// shortEnd is the short path's search: the index in data[start:] of the separator that
// ends the next record, or -1. With fast set, a one-byte separator already buffered is
// all there is to a record. It and take are small enough to be inlined into the plain
// loops of Lines and Views (iter.go), which the compiler then inlines, whole, into
// the caller's loop.
func (e *engine) shortEnd() int { return bytes.IndexByte(e.data[e.start:], e.cfg.sepByte) }

// take makes the record that ends with the separator at data[start+i] the last one.
func (e *engine) take(i int) {
	lo := e.start
	e.start += i + 1
	hi := e.cfg.byteEnd(e.data, lo, e.start)
	e.lo, e.hi = lo, hi
	e.lineNo++
	if hi-lo > e.longest { // a branch, not max: the store is rare
		e.longest = hi - lo
	}
}

// advance moves to the next record. It returns false at the end of the input or on an
// error, kept in err. With pieces set, a record that does not fit in BufferSize bytes is
// not buffered whole: it comes in pieces of about BufferSize bytes (before > 0 after all
// but the last), so that memory stays bounded whatever its length.
func (e *engine) advance(pieces bool) bool {
	if e.err != nil {
		return e.fail(e.err) // no current record after an attempt past the end
	}
	if e.cfg.err != nil {
		return e.fail(e.cfg.err)
	}
	e.big = nil
	if e.seek {
		e.seekBoundary()
	}
	for {
		if e.before == 0 && !e.atRecordStart() {
			return e.finish()
		}
		if e.start == len(e.data) && !(e.toss && e.rerr != nil) {
			// before > 0 never gets here but for a record being read past (toss), which
			// search ends at the input's end: a piece and a gather both leave bytes
			// behind.
			if e.rerr == nil {
				e.fill()
				continue
			}
			if e.moveOn() {
				continue
			}
			return e.finish()
		}
		if settled, ok := e.search(pieces); settled {
			e.setFast()
			return ok
		}
	}
}

// atRecordStart does what comes before a record: paragraph mode skips the newlines
// before it. It reports false when a section's end is reached.
func (e *engine) atRecordStart() bool {
	if e.cfg.mode == modeParagraph {
		e.skipNewlines()
	}
	return e.stopAt < 0 || e.end() < e.stopAt
}

// search looks for the end of the record in progress in what is buffered. It reports
// settled when the record, a piece of it or the end of iteration is decided (ok is then
// advance's result); otherwise it has read more input, and advance goes round again.
func (e *engine) search(pieces bool) (settled, ok bool) {
	avail := len(e.data) - e.start
	limit, cut := len(e.data), false
	if l := e.cfg.opt.Limit; l > 0 && l-e.before <= avail {
		limit, cut = e.start+l-e.before, true
	}
	e.scan = max(e.scan, e.start)
	end, known := e.recordEnd(limit)
	if end >= 0 {
		return e.ended(end, true)
	}
	avail = known - e.start
	switch {
	case cut:
		return e.cutAtLimit(limit)
	case e.cfg.opt.MaxRecord > 0 && !e.toss && e.before+avail > e.cfg.opt.MaxRecord:
		if e.cfg.opt.TooLong == TooLongStop {
			return true, e.tooLong()
		}
		e.beginToss()
	}
	switch {
	case e.rerr == ErrStop:
		// A stopped source: the bytes without their separator are not a record.
		e.start, e.blocks, e.toss = len(e.data), nil, false
		return true, e.finish()
	case e.rerr != nil:
		// The last record, unterminated, with limit to spare: it counts as a line.
		return e.ended(len(e.data), true)
	}
	if e.toss {
		e.drop(e.tossTo())
		e.fill()
		return false, false
	}
	// With TooLongSkip or TooLongCut, records up to MaxRecord are held whole, to be
	// skipped or cut whole.
	pieces = pieces && !e.cfg.tossing
	if pieces && avail >= e.cfg.readSize && e.blocks == nil { // a record being gathered is not cut into pieces
		if p := e.pieceEnd(); p > e.start {
			return true, e.emitPiece(p)
		}
	}
	if pieces {
		e.fill()
	} else {
		e.fillRecord()
	}
	return false, false
}

// recordEnd returns where the record in progress ends in data[:limit] (just past its
// separator, or where joinEnd ends a record of many lines), or -1 and how much of data
// it is then known to hold; scan is left where the next search resumes.
func (e *engine) recordEnd(limit int) (end, known int) {
	if e.cfg.join != nil {
		if end := e.joinEnd(); end >= 0 {
			return end, end
		}
		return -1, e.joinKnown()
	}
	if end := e.cfg.find(e.data[e.scan:limit]); end >= 0 {
		return e.scan + end, e.scan + end
	}
	e.scan = max(e.start, limit-max(len(e.cfg.sep)-1, 0))
	return -1, len(e.data)
}

// pieceEnd returns where a piece of the unfinished record may end: before the bytes that
// could still belong to its separator (with Multiline, to a line not known to be the
// record's: joinKeep), before a "\r" that chomp may remove with the "\n" of the next
// read, far enough before a UTF-8 Limit cut that the bytes it looks back at stay
// buffered, and always before the last byte, so that the record's last piece is never
// empty.
func (e *engine) pieceEnd() int {
	keep := e.scan
	if e.cfg.join != nil {
		keep = e.joinKeep()
	}
	p := min(keep, len(e.data)-1)
	if e.cfg.crlf && e.cfg.opt.Chomp && p > e.start && e.data[p-1] == '\r' {
		p--
	}
	if e.cfg.opt.UTF8 && e.cfg.opt.Limit > 0 {
		p = min(p, e.start+e.cfg.opt.Limit-e.before-4)
	}
	return p
}

// emitPiece yields data[start:p], a piece of a record that goes on after it.
func (e *engine) emitPiece(p int) bool {
	e.lo, e.hi = e.start, p
	e.longest = max(e.longest, p-e.start)
	e.before += p - e.start
	e.start = p
	return true
}

// skipNewlines drops the newlines before a paragraph, reading as needed.
func (e *engine) skipNewlines() {
	for {
		for e.start < len(e.data) && e.data[e.start] == '\n' {
			e.start++
		}
		if e.start < len(e.data) || e.rerr != nil {
			return
		}
		e.fill()
	}
}

// cutAtLimit yields the record that the limit cut at data[hi], first extending it by up
// to 3 bytes when Options.UTF8 says not to split a character.
func (e *engine) cutAtLimit(hi int) (settled, ok bool) {
	if !e.cfg.opt.UTF8 {
		return e.ended(hi, false)
	}
	// n counts from the record's first byte: fill may move data[start:] and before.
	n, ext := e.before+hi-e.start, 0
	for ext < 3 && incompleteUTF8(e.data[e.start:e.start+n-e.before]) {
		if e.start+n-e.before < len(e.data) {
			n++
			ext++
			continue
		}
		if e.rerr != nil {
			break
		}
		e.fillRecord()
	}
	end := e.start + n - e.before
	line := ext > 0 && e.cfg.mode != modeWhole && bytes.HasSuffix(e.data[e.start:end], e.cfg.sep)
	return e.ended(end, line)
}

// incompleteUTF8 reports whether p ends inside a UTF-8 sequence that more bytes could
// still complete: its last character starts with a lead byte that announces more bytes
// than follow it. An invalid sequence counts as complete, so it is never extended.
func incompleteUTF8(p []byte) bool {
	for k := 1; k <= 3 && k <= len(p); k++ {
		if c := p[len(p)-k]; !utf8.RuneStart(c) {
			continue
		}
		return !utf8.FullRune(p[len(p)-k:])
	}
	return false
}

// ended settles the record that ends at data[end] (line: it counts as a line): emit
// yields it, unless it is longer than MaxRecord, when Options.TooLong says what it gets
// (tossing.go). settled and ok are search's.
func (e *engine) ended(end int, line bool) (settled, ok bool) {
	if m := e.cfg.opt.MaxRecord; !e.toss && (m <= 0 || e.before+end-e.start <= m) {
		return true, e.emit(end, line)
	}
	if e.cfg.opt.TooLong == TooLongStop {
		return true, e.tooLong()
	}
	if !e.toss {
		e.beginToss()
	}
	return e.endToss(end, line)
}

// emit makes the record that ends at data[end] the last one: the whole record, the last
// piece of one, or a gathered one. ended says whether it counts as a line: it ended on
// its separator, or at end of input with limit to spare. Only such a record is chomped.
func (e *engine) emit(end int, ended bool) bool {
	hi := end
	if ended {
		e.lineNo++
		if e.cfg.opt.Chomp {
			hi = e.start + len(e.cfg.chomp(e.data[e.start:end]))
		}
	} else {
		e.uncounted++
	}
	e.lo, e.hi = e.start, hi
	n := hi - e.start
	if e.blocks != nil {
		n = e.gatherEnd(hi)
	}
	e.longest = max(e.longest, n)
	e.start, e.scan, e.before = end, end, 0
	return true
}

// tooLong stops iteration before a record longer than Options.MaxRecord.
func (e *engine) tooLong() bool {
	off := e.end() - int64(e.before)
	if e.blocks != nil {
		// The bytes gathered of the refused record were never consumed: Stats.Bytes
		// ends where the record starts, as it does for a record refused in the buffer.
		e.origin += int64(e.before)
	}
	return e.fail(&TooLongError{Offset: off, LineNo: e.lineNo + 1, Max: e.cfg.opt.MaxRecord})
}

// finish ends iteration at the end of the input, reporting a read error kept until the
// buffered bytes were yielded (none for a stopped source).
func (e *engine) finish() bool {
	if e.rerr == nil || e.rerr == ErrStop {
		return e.fail(io.EOF)
	}
	return e.fail(e.rerr)
}

// fail stops the engine with err (io.EOF for a clean end); it yields nothing more, and
// has no current record (its offset stays).
func (e *engine) fail(err error) bool {
	e.fast, e.blocks, e.toss = false, nil, false
	return e.stop(err)
}

// stop ends the cursor's records with err (io.EOF for a clean end): there is no current
// record (its offset stays).
func (c *cursor) stop(err error) bool {
	c.err = err
	c.hi = c.lo - 1
	return false
}

// run takes, at once, every complete record buffered after start: findLast finds where
// the last of them ends, count counts them. It returns the run's bounds in data and its
// number of records, 0 (having consumed nothing) when no complete record is buffered
// there. It applies only where records are the input as it is, cut at a separator that
// cannot overlap itself, with nothing checked per record (see Reader.runnable).
// Afterwards the last record is the run, and LineNo counts its records.
func (e *engine) run() (lo, hi, n int) {
	if e.err != nil || e.before > 0 {
		return 0, 0, 0
	}
	e.big = nil
	lo = e.start
	from := max(e.scan, lo)
	last := e.cfg.findLast(e.data[from:])
	if last < 0 {
		// Searched: advance resumes there (a separator may straddle the next read).
		e.scan = max(lo, len(e.data)-(len(e.cfg.sep)-1))
		return 0, 0, 0
	}
	hi = from + last
	n = e.cfg.count(e.data[lo:hi])
	if n == 1 {
		e.longest = max(e.longest, hi-lo)
	}
	e.lineNo += int64(n)
	e.lo, e.hi = lo, hi
	e.start, e.scan = hi, hi
	e.setFast()
	return lo, hi, n
}

// lastWindow is how many bytes lastIndexByte looks at per step.
const lastWindow = 256

// lastIndexByte is bytes.LastIndexByte for long inputs whose last c may be far from the
// end: bytes.LastIndexByte tests one byte at a time, so a long record costs a byte-wise
// scan; here each window from the end is first tested with the vectorised IndexByte.
func lastIndexByte(p []byte, c byte) int {
	for hi := len(p); hi > 0; hi -= lastWindow {
		lo := max(0, hi-lastWindow)
		if bytes.IndexByte(p[lo:hi], c) >= 0 {
			return lo + bytes.LastIndexByte(p[lo:hi], c)
		}
	}
	return -1
}
