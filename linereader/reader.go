package linereader

import (
	"fmt"
	"io"
	"os"

	"github.com/foreachio/foreach/bytelist"
)

// Reader cuts an input into records, reusing one buffer for the whole loop.
//
// Limits and failure modes, up front:
//   - Records are unbounded by default: a record longer than the buffer grows it
//     (doubling up to 64 MiB, then by a quarter at a time), so a record of L bytes needs a
//     buffer of up to 2L (1.25L past 64 MiB), and the process about 2L of memory at its
//     peak (measured for 1 GiB: 1.8× with Views, 2.0× with Lines, which copies it). Set
//     Options.MaxRecord to stop on longer records with a *TooLongError instead, or use
//     Pieces, which yields long records in bounded memory. The buffer is given back by
//     Release, by Reset when it grew past a few times BufferSize, and during a loop, when
//     it grew past 4 MiB (or 16 times BufferSize), once a buffer's worth of ordinary
//     records has passed.
//   - A read error ends iteration after every byte delivered before it has been
//     yielded (the last as a partial record if it has no terminator); Err reports it.
//     A source that returns no data and no error 100 times in a row ends iteration
//     with io.ErrNoProgress.
//   - Bytes, Views, Runs and Pieces borrow from the reader's buffer: the slice is valid
//     only until the next call to Next (or the end of the loop body). Line, Lines and
//     Batches copy.
//   - A Reader is not safe for concurrent use. Its iterators may be nested: an iterator
//     used inside another's loop body takes the next records, and the outer loop goes on
//     after them.
type Reader struct {
	// e is the engine: touched by the caller's goroutine only while ra is nil; while a
	// read-ahead producer runs, it alone touches e (readahead.go).
	e engine

	file *os.File // the file Open made, closed by Close and Reset

	// The caller's current record, what Bytes, LineNo and Offset report (nil when there
	// is none; LineNo and Offset then keep the last values). curEnd is the input offset
	// just past it, used for Stats.Bytes while records read ahead are queued. records
	// and longest count what the caller has been given.
	cur     []byte
	curOff  int64
	curLine int64
	curEnd  int64
	partial bool
	records int64
	longest int

	// eng says the current record is the engine's last one (e.rec(), e.off, e.lineNo)
	// rather than cur, curOff and curLine: the plain loops of Lines and Views set it
	// instead of storing a slice per record, a store that pays a write barrier whenever
	// the collector runs. Only the caller's goroutine reads the engine through it: no
	// producer starts while it is set (startReadAhead clears it).
	eng bool

	// Read-ahead (readahead.go): ra is the running producer, nil when none; queue holds
	// the records it produced that the caller has not been given, in order, from
	// queue[0] record qi; snap holds the engine's Reads and buffer stats as of the last
	// chunk received; pol decides when to read ahead.
	ra    *readAhead
	queue []*chunk
	qi    int
	snap  chunkStats
	pol   policy
}

// Stats describes what a Reader has done since it was made or last Reset.
type Stats struct {
	Records int64
	Bytes   int64 // input bytes consumed, skipped paragraph newlines included
	Reads   int   // calls to the source's Read
	// MaxRecord is the longest record yielded, in bytes, after Chomp. Runs does not cut
	// the records of a run of several apart, so it does not measure them; for a record
	// yielded by Pieces it is the longest piece.
	MaxRecord int
	Buffer    bytelist.Stats

	// With Options.Decompress: the format detected ("gzip", "zstd", "bzip2", "xz", or ""
	// for input that passed unchanged) and the bytes read from the source, compressed.
	// Records, Bytes, Offset, Limit and MaxRecord all count decompressed bytes.
	Format          string
	CompressedBytes int64
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
	r := &Reader{e: newEngine(newConfig(opt))}
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
// (soft reset: its capacity is kept, unless it grew past four times BufferSize for a
// long record, in which case it is given back). It closes a file that Open made. Line
// numbers, offsets and Stats start again from 0, except Stats.Buffer, which is the
// buffer's whole history.
func (r *Reader) Reset(src io.Reader) {
	r.stopReadAhead()
	r.dropQueue()
	if r.file != nil {
		r.file.Close()
		r.file = nil
	}
	r.cur, r.curOff, r.curLine, r.curEnd, r.partial, r.eng = nil, 0, 0, 0, false, false
	r.records, r.longest = 0, 0
	r.e.reset(src)
	r.pol.allow(src, r.e.cfg)
}

// Close closes the file if Open made the reader, and ends iteration. It is idempotent.
// It does not close a source given to New.
func (r *Reader) Close() error {
	if s, ok := r.e.src.(stopper); ok {
		// Follow's source: stopping it may be asked from another goroutine while the
		// loop waits for data, so nothing else is touched here; the loop ends when the
		// source's Read returns errStopped.
		return s.stop()
	}
	r.stopReadAhead()
	r.dropQueue()
	r.e.fail(r.e.err)
	r.e.closeSource()
	r.noRecord()
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}

// Release gives back a buffer that grew beyond BufferSize for a long record, keeping
// what is buffered and not yet yielded: the reader stays usable and yields the same
// records. A record from Bytes or Views is no longer valid after it.
func (r *Reader) Release() {
	r.stopReadAhead()
	r.e.release()
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
	return r.advance(false)
}

// advance moves the engine to its next record and makes it the current one, borrowed.
func (r *Reader) advance(pieces bool) bool {
	if !r.e.advance(pieces) {
		r.noRecord()
		return false
	}
	r.setRecord()
	return true
}

// setRecord makes the engine's last record, borrowed, the current one: a whole record
// or a piece of one (Partial).
func (r *Reader) setRecord() {
	if r.e.partial {
		// A piece: the record it belongs to is counted with its last piece.
		r.cur, r.curOff, r.curLine, r.partial, r.eng = r.e.rec(), r.e.off, r.e.lineNo, true, false
		r.longest = max(r.longest, len(r.cur))
		return
	}
	r.setCur(r.e.rec())
}

// setCur makes rec, the engine's last record or a copy of it, the current record.
func (r *Reader) setCur(rec []byte) {
	r.cur, r.curOff, r.curLine, r.partial, r.eng = rec, r.e.off, r.e.lineNo, false, false
	r.records++
	r.longest = max(r.longest, len(rec))
}

// engCur makes the engine's last record, whole and n bytes long, the current one without
// storing it (see eng).
func (r *Reader) engCur(n int) {
	r.eng, r.partial = true, false
	r.records++
	r.longest = max(r.longest, n)
}

// noRecord says there is no current record (LineNo and Offset keep their last values).
func (r *Reader) noRecord() {
	if r.eng {
		r.curOff, r.curLine, r.eng = r.e.off, r.e.lineNo, false
	}
	r.cur, r.partial = nil, false
}

// clone returns an exact-size copy of p (len == cap) that shares memory with nothing.
// It is the one place a record is copied out on its own.
func clone(p []byte) []byte {
	l := make([]byte, len(p))
	copy(l, p)
	return l
}

// Bytes returns the current record, borrowed from the reader's buffer: it is valid only
// until the next call to Next, Reset, Release or Close, which may overwrite it. Its
// capacity is capped, so appending to it copies. Use Line for a record to keep.
func (r *Reader) Bytes() []byte {
	if r.eng {
		return r.e.rec()
	}
	return r.cur
}

// Line returns a copy of the current record, owned by the caller: an exact-size
// allocation (len == cap) that shares memory with nothing else. It returns nil when there
// is no current record.
func (r *Reader) Line() []byte {
	if !r.eng && r.cur == nil {
		return nil
	}
	return clone(r.Bytes())
}

// Text returns the current record as a string (a copy).
func (r *Reader) Text() string { return string(r.Bytes()) }

// LineNo returns Ruby's lineno after the current record: the number of records so far
// that ended on their separator or at end of input with limit to spare. Records cut by
// Options.Limit, and pieces but the last of a record (Pieces), do not count. In a
// section it counts from 0 at the section's start.
func (r *Reader) LineNo() int64 {
	if r.eng {
		return r.e.lineNo
	}
	return r.curLine
}

// Offset returns the byte offset in the input where the current record starts (in
// paragraph mode, after the newlines skipped before it; for a piece, where the piece
// starts). In a section it is absolute.
func (r *Reader) Offset() int64 {
	if r.eng {
		return r.e.off
	}
	return r.curOff
}

// Partial reports whether the current record is a piece of a longer record that the
// next one continues (see Pieces).
func (r *Reader) Partial() bool { return r.partial }

// Err returns the error that ended iteration, or nil at a clean end of input. It never
// returns io.EOF. Once set it stays set until Reset.
func (r *Reader) Err() error {
	if r.ra != nil || len(r.queue) > 0 {
		return nil // the engine's error comes after the records still queued
	}
	return r.e.err
}

// Stats returns what the reader has done since it was made or Reset.
func (r *Reader) Stats() Stats {
	s := Stats{Records: r.records, MaxRecord: r.longest}
	if r.ra != nil || len(r.queue) > 0 {
		// The engine is ahead of the caller (and, while a producer runs, not ours to
		// read): what the caller has been given ends at curEnd.
		s.Bytes = r.curEnd - r.e.origin
	} else {
		s.Bytes = r.e.end() - r.e.origin
	}
	c := r.snap
	if r.ra == nil {
		c = r.e.chunkStats()
	}
	s.Reads, s.Buffer, s.Format, s.CompressedBytes = c.reads, c.buf, c.format, c.compressed
	return s
}
