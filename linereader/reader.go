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
//   - Records are unbounded by default. The buffer doubles while a record does not fit,
//     up to a cap of a few MiB (more for a larger BufferSize); a longer record is gathered
//     in blocks of that size and made one array of its exact length when its end
//     arrives, so a record of L bytes needs about 2L of memory at its peak (for Lines that
//     array is the record handed out). Set Options.MaxRecord to stop on longer records
//     with a *TooLongError instead, or use Pieces, which yields long records in bounded
//     memory. A buffer grown for a long record is given back by Release, by Reset, and
//     during a loop once a buffer's worth of ordinary records has passed. The reader
//     never starts a goroutine and never calls the runtime's process-wide controls
//     (runtime.GC, debug.FreeOSMemory and the like).
//   - A read error ends iteration after every byte delivered before it has been
//     yielded (the last as a partial record if it has no terminator); Err reports it.
//     A source that keeps returning no data and no error ends iteration with
//     io.ErrNoProgress, as bufio's readers do.
//   - Bytes, Views, Runs and Pieces borrow from the reader's buffer: the slice is valid
//     only until the next call to Next (or the end of the loop body). Line, Lines and
//     Batches copy.
//   - A Reader is not safe for concurrent use. Its iterators may be nested: an iterator
//     used inside another's loop body takes the next records, and the outer loop goes on
//     after them.
type Reader struct {
	e    engine   // all of the reading state (engine.go): the cutter the constructor chose, and the record state every accessor reads
	file *os.File // the file Open made, closed by Close and Reset
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
	// TooLong counts the records longer than Options.MaxRecord that were skipped or cut
	// (Options.TooLong); a skipped record is not in Records.
	TooLong int64

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
	r.e.reset(src, nil)
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
// buffer's whole history. The Reader is then a forward Reader of src alone, whatever
// made it (NewBackward, NewInputs, NewSection).
func (r *Reader) Reset(src io.Reader) {
	if r.file != nil {
		r.file.Close()
		r.file = nil
	}
	r.e.back = nil
	r.e.reset(src, nil)
}

// Close closes the file if Open made the reader, and ends iteration. It is idempotent.
// It does not close a source given to New. Like every method, it is called on the
// goroutine that iterates: a source that must be stopped from elsewhere returns ErrStop
// from its Read (see NewInputs).
func (r *Reader) Close() error {
	if r.e.err == nil {
		r.e.fail(io.EOF)
	}
	if r.e.back != nil {
		r.e.back.setFast() // ended: the short path is off
	}
	r.e.closeSource()
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}

// Release gives back a buffer that grew beyond BufferSize for a long record, keeping
// what is buffered and not yet yielded: the reader stays usable and yields the same
// records. A record from Bytes or Views is no longer valid after it. (A Reader from
// NewBackward keeps its buffer: it gives it back on its own once a long record is
// passed.)
func (r *Reader) Release() {
	if r.e.back == nil {
		r.e.release()
	}
}

// Next advances to the next record, which Bytes, Line and Text then return. It returns
// false at the end of the input or on an error, which Err then reports.
func (r *Reader) Next() bool { return r.e.next() }

// clone returns an exact-size copy of p (len == cap) that shares memory with nothing.
// It is the one place a record is copied out on its own.
func clone(p []byte) []byte {
	l := make([]byte, len(p))
	copy(l, p)
	return l
}

// Bytes returns the current record, borrowed from the reader's buffer: it is valid only
// until the next call to Next, Reset, Release or Close, which may overwrite it. Its
// capacity is capped, so appending to it copies. Use Line for a record to keep. It
// returns nil when there is no current record.
func (r *Reader) Bytes() []byte {
	if r.e.hi < r.e.lo {
		return nil
	}
	return r.e.view()
}

// Line returns a copy of the current record, owned by the caller: an exact-size
// allocation (len == cap) that shares memory with nothing else. It returns nil when there
// is no current record.
func (r *Reader) Line() []byte {
	b := r.Bytes()
	if b == nil {
		return nil
	}
	return clone(b)
}

// Text returns the current record as a string (a copy).
func (r *Reader) Text() string { return string(r.Bytes()) }

// LineNo returns Ruby's lineno after the current record: the number of records so far
// that ended on their separator or at end of input with limit to spare. Records cut by
// Options.Limit, and pieces but the last of a record (Pieces), do not count. In a
// section it counts from 0 at the section's start.
func (r *Reader) LineNo() int64 { return r.e.lineNo }

// Offset returns the byte offset in the input where the current record starts (in
// paragraph mode, after the newlines skipped before it; for a piece, where the piece
// starts; in a Runs loop, where the run starts). In a section it is absolute. After the
// end of the input it keeps the last record's offset.
func (r *Reader) Offset() int64 { return r.e.base + int64(r.e.lo) }

// EndOffset returns the offset just past the current record in the input (its separator
// included, also with Chomp; for a run or a batch, past its last record): where the
// next record starts (a follow.Reader's Checkpoint is made of it and the file's
// identity). Like Offset, it counts from the start of the file being read now.
func (r *Reader) EndOffset() int64 { return r.e.end() }

// Partial reports whether the current record is a piece of a longer record that the
// next one continues (see Pieces).
func (r *Reader) Partial() bool {
	if r.e.back != nil {
		return r.e.back.partial()
	}
	return r.e.before > 0 && r.e.err == nil
}

// Err returns the error that ended iteration, or nil at a clean end of input. It never
// returns io.EOF. Once set it stays set until Reset.
func (r *Reader) Err() error {
	if r.e.err == io.EOF {
		return nil
	}
	return r.e.err
}

// Stats returns what the reader has done since it was made or Reset.
func (r *Reader) Stats() Stats {
	e := &r.e
	s := Stats{
		Records:   e.lineNo + e.uncounted,
		Bytes:     e.end() - e.origin,
		Reads:     e.reads,
		MaxRecord: e.longest,
		Buffer:    e.buf.Stats(),
		TooLong:   e.overLong,
	}
	if e.cfg.opt.TooLong == TooLongSkip {
		s.Records -= e.overLong
	}
	if r.e.back != nil {
		r.e.back.stats(&s)
	}
	s.Format, s.CompressedBytes = e.compressed()
	return s
}
