package linereader

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"github.com/foreachio/foreach/bytelist"
)

// Reader cuts an input into records, reusing one buffer for the whole loop.
//
// Limits and failure modes, up front:
//   - Records are unbounded by default: a record longer than the buffer grows it
//     (geometrically, so a 1 GiB line costs about 14 growths), and the buffer can then
//     hold the longest record's size until the reader is released. Set
//     Options.MaxRecord to stop on longer records with a *TooLongError instead.
//   - A read error ends iteration after every byte delivered before it has been
//     yielded (the last as a partial record if it has no terminator); Err reports it.
//     A source that returns no data and no error 100 times in a row ends iteration
//     with io.ErrNoProgress.
//   - Bytes and Views borrow from the reader's buffer: the slice is valid only until
//     the next call to Next (or the end of the loop body). Line, Lines and Batches copy.
//   - A Reader is not safe for concurrent use.
type Reader struct {
	// ---- The engine. While a read-ahead producer runs (readahead.go), only it touches
	// this part; otherwise only the caller's goroutine does.

	cfg config

	// The source. file is non-nil when Open made the source; Close closes it.
	src  io.Reader
	file *os.File

	// The buffer. Invariants, restored by every method before it returns:
	//   - data == buf.Bytes(): refreshed after every call that changes buf.
	//   - data[:start] is consumed (yielded or skipped); data[start:] is input not yet
	//     yielded, and it starts the next record (paragraph mode: after the newlines
	//     that Next skips first).
	//   - start <= scan <= len(data): data[start:scan] has been searched and holds no
	//     separator that could end the record starting at start, so a search resumes at
	//     scan instead of rescanning (for a multi-byte separator scan backs off by
	//     len(sep)-1 bytes, since a separator may straddle two reads).
	//   - base is the input offset of data[0]; origin is the offset reading began at.
	buf    *bytelist.ByteList
	data   []byte
	start  int
	scan   int
	base   int64
	origin int64

	// The source's state. eof: the source will deliver nothing more (io.EOF, or an error
	// kept in rerr to report once the buffered bytes are yielded). empties counts reads in
	// a row that returned nothing.
	eof     bool
	rerr    error
	empties int

	// The engine's last record is data[recLo:recHi], valid until the engine advances (kept
	// as indexes, not a slice, so that advancing stores no pointer: with the garbage
	// collector running, every pointer store pays a write barrier); recOff is its offset
	// and lineNo the line count after it; prevLine is lineNo before it (for unread).
	recLo, recHi int
	recOff       int64
	lineNo       int64
	prevLine     int64

	// stopAt >= 0 ends a section: no record starting at or after it is yielded. seek: the
	// section has yet to skip to its first record boundary.
	stopAt int64
	seek   bool

	err  error // sticky: set when the engine stops because of an error
	done bool  // the engine has stopped and will yield nothing more

	stats Stats // Reads; the rest of Stats is computed by Stats()

	// sinceGrow is the number of bytes consumed since the buffer last grew: once it is
	// past the capacity, a large buffer has outlived the record that needed it.
	sinceGrow  int64
	growsSeen  int
	releaseCap int

	// batchHint is the size of the last batch.
	batchHint int

	// raAllowed: this source may be read ahead (a regular file). Set by Reset, read-only
	// while a producer runs.
	raAllowed bool

	// The two parts sit on different cache lines: with read-ahead, the producer writes
	// the engine's fields for every record and the caller's goroutine its own, and
	// sharing a line would bounce it between the cores on every record.
	_ [128]byte

	// ---- The caller's side: only the caller's goroutine touches this part.

	// The caller's current record, what Bytes, LineNo and Offset report: the engine's
	// record (data[recLo:recHi], lineNo, recOff) when curView is set, else cur, curLine
	// and curOff (a record read ahead, or nil when there is none). curView is never set
	// while a producer runs. With read-ahead the engine runs ahead of it. curEnd is the input offset just
	// past cur (Stats.Bytes while records read ahead are still queued); records and
	// longest count what the caller has been given.
	cur     []byte
	curView bool
	curOff  int64
	curLine int64
	curEnd  int64
	records int64
	longest int

	// Read-ahead (readahead.go): ra is the running producer, nil when none; queue holds
	// records produced but not yet given to the caller, in order, from queue[0].recs[qi].
	ra    *readAhead
	queue []*chunk
	qi    int
	snap  Stats  // the engine's Reads and Buffer stats as of the last chunk received
	spare *chunk // a chunk holder kept for the next batch of the plain loop

	// Judging read-ahead (receive): chunks received and time spent waiting for them since
	// raSince; no new producer before records reaches raRetryAt.
	raChunks  int
	raWaited  time.Duration
	raSince   time.Time
	raRetryAt int64

	raForce  bool // tests: read any source ahead
	raIdle   bool // tests: judge every read-ahead idle (stop it at each judgement)
	raStarts int  // producers started, for tests
}

// Stats describes what a Reader has done since it was made or last Reset.
type Stats struct {
	Records   int64
	Bytes     int64 // input bytes consumed, skipped paragraph newlines included
	Reads     int   // calls to the source's Read
	MaxRecord int   // longest record yielded, in bytes, after Chomp (not measured inside Runs)
	Buffer    bytelist.Stats
}

// TooLongError is the error Err reports when a record is longer than Options.MaxRecord.
// Iteration stops before the record; every record before it has been yielded.
type TooLongError struct {
	Offset int64 // where the record starts
	LineNo int64 // line number of the record that was too long (LineNo()+1 at the time)
	Max    int   // the MaxRecord in force
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("linereader: record %d at offset %d is longer than the maximum of %d bytes", e.LineNo, e.Offset, e.Max)
}

// New returns a Reader of the records of src. Invalid options are reported by Err after
// the first Next returns false.
func New(src io.Reader, opt Options) *Reader {
	r := &Reader{cfg: newConfig(opt), stopAt: -1}
	size := r.cfg.readSize
	if r.cfg.err != nil {
		size = 0
	}
	r.buf = bytelist.New(size)
	r.releaseCap = max(16*r.cfg.readSize, 1<<20)
	r.Reset(src)
	return r
}

// Open opens the named file and returns a Reader of its records that owns the file:
// Close closes it. Invalid options are returned (see Options.Validate) before the file is
// opened; an error opening the file is returned as is (an *fs.PathError).
func Open(name string, opt Options) (*Reader, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	r := New(f, opt)
	r.file = f
	return r, nil
}

// Reset makes the reader start over on src, with the same options and the same buffer
// (soft reset: its capacity is kept). It closes a file that Open made. Line numbers,
// offsets and Stats start again from 0, except Stats.Buffer, which is the buffer's whole
// history.
func (r *Reader) Reset(src io.Reader) {
	r.stopReadAhead()
	clear(r.queue)
	r.queue, r.qi = r.queue[:0], 0
	r.cur, r.curView, r.curOff, r.curLine, r.curEnd, r.records, r.longest = nil, false, 0, 0, 0, 0, 0
	r.raRetryAt = 0
	if r.file != nil {
		r.file.Close()
		r.file = nil
	}
	r.src = src
	r.buf.Reset()
	r.data = r.buf.Bytes()
	r.start, r.scan, r.base, r.origin = 0, 0, 0, 0
	r.eof, r.rerr, r.empties = false, nil, 0
	r.recLo, r.recHi, r.recOff, r.lineNo = 0, 0, 0, 0
	r.stopAt, r.seek = -1, false
	r.err, r.done = nil, false
	r.stats = Stats{}
	r.sinceGrow, r.growsSeen = 0, r.buf.Stats().Grows
	r.allowReadAhead()
}

// Close closes the file if Open made the reader, and ends iteration. It is idempotent.
// It does not close a source given to New.
func (r *Reader) Close() error {
	r.stopReadAhead()
	clear(r.queue)
	r.queue, r.qi = r.queue[:0], 0
	r.done = true
	r.endView()
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}

// Next advances to the next record, which Bytes, Line and Text then return. It returns
// false at the end of the input or on an error, which Err then reports.
func (r *Reader) Next() bool {
	if r.ra != nil {
		// Next inside a Lines or Batches loop: the records read ahead are queued.
		r.stopReadAhead()
	}
	if len(r.queue) > 0 {
		r.dequeue()
		return true
	}
	if !r.advance() {
		r.endView()
		return false
	}
	r.deliverView()
	return true
}

// deliver makes rec, a record read ahead, the caller's current record.
func (r *Reader) deliver(rec []byte, off, lineNo int64) {
	r.cur, r.curView, r.curOff, r.curLine = rec, false, off, lineNo
	r.records++
	r.longest = max(r.longest, len(rec))
}

// deliverView makes the engine's record the caller's current record.
func (r *Reader) deliverView() {
	r.curView = true
	r.records++
	r.longest = max(r.longest, r.recHi-r.recLo)
}

// endView leaves the caller with no current record, keeping LineNo and Offset: while
// curView is set they are read from the engine, so they are copied out first.
func (r *Reader) endView() {
	if r.curView {
		r.curLine, r.curOff = r.lineNo, r.recOff
	}
	r.cur, r.curView = nil, false
}

// engineRec returns the engine's last record, a view of the buffer.
func (r *Reader) engineRec() []byte { return r.data[r.recLo:r.recHi:r.recHi] }

// advance moves the engine to its next record: recLo, recHi, recOff and lineNo. It
// returns false at the end of the input or on an error, kept in err.
func (r *Reader) advance() bool {
	if r.cfg.simple && !r.done {
		// The common case, kept short: a one-byte separator, no limit, no maximum, not a
		// section, and the record's end already buffered.
		if i := bytes.IndexByte(r.data[r.scan:], r.cfg.sepByte); i >= 0 {
			end := r.scan + i + 1
			hi := end
			if r.cfg.opt.Chomp {
				hi = r.start + len(r.chomp(r.data[r.start:end]))
			}
			r.prevLine = r.lineNo
			r.lineNo++
			r.recLo, r.recHi, r.recOff = r.start, hi, r.base+int64(r.start)
			r.start, r.scan = end, end
			return true
		}
		r.scan = len(r.data) // searched: the general path below resumes there
	}
	if r.done {
		return false
	}
	if r.cfg.err != nil {
		return r.fail(r.cfg.err)
	}
	if r.seek {
		r.seekBoundary()
	}
	sepLen := len(r.cfg.sep)
	limit, maxRec := r.cfg.opt.Limit, r.cfg.opt.MaxRecord
	for {
		if r.cfg.mode == modeParagraph {
			r.skipNewlines()
		}
		if r.stopAt >= 0 && r.base+int64(r.start) >= r.stopAt {
			return r.finish()
		}
		avail := len(r.data) - r.start
		if avail == 0 {
			if r.eof {
				return r.finish()
			}
			r.fill()
			continue
		}

		// The search window: the whole buffer, or the first Limit bytes of the record.
		hi, cut := len(r.data), false
		if limit > 0 && limit <= avail {
			hi, cut = r.start+limit, true
		}
		end := -1
		switch r.cfg.mode {
		case modeByte:
			if i := bytes.IndexByte(r.data[r.scan:hi], r.cfg.sepByte); i >= 0 {
				end = r.scan + i + 1
			}
		case modeBytes, modeParagraph:
			if i := bytes.Index(r.data[r.scan:hi], r.cfg.sep); i >= 0 {
				end = r.scan + i + sepLen
			}
		}
		switch {
		case end >= 0:
			return r.emit(end, true)
		case cut:
			return r.cutAtLimit(hi)
		case maxRec > 0 && avail > maxRec:
			return r.tooLong()
		case r.eof:
			// The last record, unterminated, with limit to spare: it counts as a line.
			return r.emit(len(r.data), true)
		}
		// Nothing ends the record in what is buffered: remember how far the search got
		// (a separator may straddle this read and the next) and read more.
		if sepLen > 1 {
			r.scan = max(r.start, hi-(sepLen-1))
		} else {
			r.scan = hi
		}
		r.fill()
	}
}

// unread undoes the last successful advance, so that the next one yields the same record.
// It is valid only right after advance returned true: the record is still in data then.
func (r *Reader) unread() {
	r.start, r.scan = r.recLo, r.recLo
	r.lineNo = r.prevLine
}

// skipNewlines drops the newlines before a paragraph, reading as needed.
func (r *Reader) skipNewlines() {
	for {
		for r.start < len(r.data) && r.data[r.start] == '\n' {
			r.start++
		}
		r.scan = max(r.scan, r.start)
		if r.start < len(r.data) || r.eof {
			return
		}
		r.fill()
	}
}

// cutAtLimit yields the record data[start:hi] that the limit cut, first extending it by
// up to 3 bytes when Options.UTF8 says not to split a character.
func (r *Reader) cutAtLimit(hi int) bool {
	n := hi - r.start
	if !r.cfg.opt.UTF8 {
		return r.emit(hi, false)
	}
	ext := 0
	for ext < 3 && incompleteUTF8(r.data[r.start:r.start+n]) {
		if r.start+n < len(r.data) {
			n++
			ext++
			continue
		}
		if r.eof {
			break
		}
		r.fill() // may move the buffer: n is relative to start, which stays valid
	}
	end := r.start + n
	ended := ext > 0 && r.cfg.mode != modeWhole && bytes.HasSuffix(r.data[r.start:end], r.cfg.sep)
	return r.emit(end, ended)
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

// emit makes data[start:end] the current record. ended says whether the record counts as
// a line for LineNo: it ended on its separator, or at end of input with limit to spare.
func (r *Reader) emit(end int, ended bool) bool {
	rec := r.data[r.start:end:end]
	if max := r.cfg.opt.MaxRecord; max > 0 && len(rec) > max {
		return r.tooLong()
	}
	r.prevLine = r.lineNo
	if ended {
		r.lineNo++
		if r.cfg.opt.Chomp {
			rec = r.chomp(rec)
		}
	}
	r.recLo, r.recHi = r.start, r.start+len(rec)
	r.recOff = r.base + int64(r.start)
	r.start, r.scan = end, end
	return true
}

// chomp removes the separator that ends rec, if it ends with one (a record that ended at
// end of input may not).
func (r *Reader) chomp(rec []byte) []byte {
	switch r.cfg.mode {
	case modeWhole:
		return rec
	case modeByte:
		n := len(rec)
		if n == 0 || rec[n-1] != r.cfg.sepByte {
			return rec
		}
		if r.cfg.crlf && n >= 2 && rec[n-2] == '\r' {
			return rec[: n-2 : n-2]
		}
		return rec[: n-1 : n-1]
	}
	if bytes.HasSuffix(rec, r.cfg.sep) {
		n := len(rec) - len(r.cfg.sep)
		return rec[:n:n]
	}
	return rec
}

func (r *Reader) tooLong() bool {
	return r.fail(&TooLongError{Offset: r.base + int64(r.start), LineNo: r.lineNo + 1, Max: r.cfg.opt.MaxRecord})
}

// finish ends iteration at the end of the input, reporting a read error kept until the
// buffered bytes were yielded.
func (r *Reader) finish() bool {
	r.done = true
	r.err = r.rerr
	return false
}

func (r *Reader) fail(err error) bool {
	r.done = true
	r.err = err
	return false
}

// fill reads once from the source into the buffer. To make room it first moves the
// unconsumed bytes to the front when that frees enough space, and otherwise lets the
// buffer grow geometrically: it grows only when one record does not fit.
func (r *Reader) fill() {
	rs := r.cfg.readSize
	if r.start > 0 && r.buf.Cap()-r.buf.Len() < rs {
		r.compact()
	}
	spare := r.buf.Cap() - r.buf.Len()
	n := rs
	if spare >= rs/2 && spare > 0 {
		n = min(spare, rs)
	}
	m, err := r.buf.Fill(r.src, n)
	r.stats.Reads++
	r.data = r.buf.Bytes()
	if g := r.buf.Stats().Grows; g != r.growsSeen {
		r.growsSeen, r.sinceGrow = g, 0
	}
	switch {
	case err != nil:
		r.eof = true
		if err != io.EOF {
			r.rerr = err
		}
	case m > 0:
		r.empties = 0
	default:
		r.empties++
		if r.empties >= maxEmptyReads {
			r.eof, r.rerr = true, io.ErrNoProgress
		}
	}
}

// compact drops the consumed prefix data[:start], moving the rest to the front. When the
// buffer grew for a record long gone, it also gives the large array back; when what it
// moved fills more than half the buffer, the buffer grows (geometrically, like any
// growth), since records that long would otherwise be moved at nearly every read.
func (r *Reader) compact() {
	s := r.start
	r.sinceGrow += int64(s)
	if s == len(r.data) {
		r.buf.Reset()
	} else {
		r.buf.Discard(s)
	}
	if c := r.buf.Cap(); c > r.releaseCap && r.sinceGrow > int64(c) && r.buf.Len() < c/4 {
		r.buf.Release(max(r.cfg.readSize, 2*r.buf.Len()))
		r.sinceGrow = 0
	} else if r.buf.Len() > c/2 {
		// The unfinished record fills most of the buffer: it fits, but only just, and
		// every read would move it again. Room for two such records halves what is moved.
		r.buf.Grow(c)
	}
	r.data = r.buf.Bytes()
	r.base += int64(s)
	r.start, r.scan = 0, r.scan-s
}

// Bytes returns the current record, borrowed from the reader's buffer: it is valid only
// until the next call to Next, Reset or Close, which may overwrite it. Its capacity is
// capped, so appending to it copies. Use Line for a record to keep.
func (r *Reader) Bytes() []byte {
	if r.curView {
		return r.engineRec()
	}
	return r.cur
}

// Line returns a copy of the current record, owned by the caller: an exact-size
// allocation (len == cap) that shares memory with nothing else. It returns nil when there
// is no current record.
func (r *Reader) Line() []byte {
	if r.curView {
		return clone(r.engineRec())
	}
	if r.cur == nil {
		return nil
	}
	return clone(r.cur)
}

// clone returns an exact-size copy of p (len == cap) that shares memory with nothing.
func clone(p []byte) []byte {
	l := make([]byte, len(p))
	copy(l, p)
	return l
}

// Text returns the current record as a string (a copy).
func (r *Reader) Text() string { return string(r.Bytes()) }

// LineNo returns Ruby's lineno after the current record: the number of records so far
// that ended on their separator or at end of input with limit to spare. Records cut by
// Options.Limit do not count. In a section it counts from 0 at the section's start.
func (r *Reader) LineNo() int64 {
	if r.curView {
		return r.lineNo
	}
	return r.curLine
}

// Offset returns the byte offset in the input where the current record starts (in
// paragraph mode, after the newlines skipped before it). In a section it is absolute.
func (r *Reader) Offset() int64 {
	if r.curView {
		return r.recOff
	}
	return r.curOff
}

// Err returns the error that ended iteration, or nil at a clean end of input. It never
// returns io.EOF. Once set it stays set until Reset.
func (r *Reader) Err() error {
	if r.ra != nil || len(r.queue) > 0 {
		return nil // the engine's error comes after the records still queued
	}
	return r.err
}

// Stats returns what the reader has done since it was made or Reset.
func (r *Reader) Stats() Stats {
	var s Stats
	switch {
	case r.ra != nil:
		s = r.snap
		s.Bytes = r.curEnd - r.origin
	case len(r.queue) > 0:
		s = r.stats
		s.Buffer = r.buf.Stats()
		s.Bytes = r.curEnd - r.origin
	default:
		s = r.stats
		s.Buffer = r.buf.Stats()
		s.Bytes = r.base + int64(r.start) - r.origin
	}
	s.Records, s.MaxRecord = r.records, r.longest
	return s
}
