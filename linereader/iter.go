package linereader

import (
	"errors"
	"iter"
)

// Lines returns an iterator over the remaining records, each copied out: every record is
// an exact-size allocation owned by the caller, sharing memory with nothing (keeping one
// keeps only that record). This is the safe default. It runs on the caller's goroutine
// alone, as every iterator does. Check Err after the loop.
func (r *Reader) Lines() iter.Seq[[]byte] { return r.records(true) }

// Views returns an iterator over the remaining records, borrowed from the reader's
// buffer without copying: each record is valid only until the loop body returns, and
// must be copied to be kept. This is the fastest way to look at records. Check Err after
// the loop.
func (r *Reader) Views() iter.Seq[[]byte] { return r.records(false) }

// records is the plain loop of Lines (owned) and Views: the short path inline, so that
// the compiler inlines the whole loop into the caller's, loop body included, with no
// call per record but the search's; advance for the rest.
//
// The backward cutter is chosen inside the one func literal, not by returning another
// func: a records that returns one of two is no known closure at the caller's range
// statement, and its loop was called per record instead of inlined (tall Views 2224
// MB/s against 2798 before, benchmarks/run.sh side by side). The backward loop itself
// stays out of line (backward.records).
func (r *Reader) records(owned bool) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		e := &r.e
		if e.back != nil {
			e.back.records(owned, yield)
			return
		}
		for {
			var rec []byte
			if i := -1; e.fast {
				if i = e.shortEnd(); i >= 0 {
					e.take(i)
					if owned {
						rec = clone(e.data[e.lo:e.hi])
					} else {
						rec = e.data[e.lo:e.hi:e.hi]
					}
				} else {
					e.scan = len(e.data) // searched: advance resumes there
				}
			}
			if rec == nil {
				if !e.advance(false) {
					return
				}
				rec = e.view()
				if owned {
					rec = e.line()
				}
			}
			if !yield(rec) {
				return
			}
		}
	}
}

// Foreach opens the named file and calls fn with each record copied out, like Ruby's
// IO.foreach: fn owns every line it is given. It stops at the first error from the file
// or from fn and returns it; the file is closed in every case.
func Foreach(name string, opt Options, fn func(line []byte) error) error {
	r, err := Open(name, opt)
	if err != nil {
		return err
	}
	for line := range r.Lines() {
		if err := fn(line); err != nil {
			r.Close()
			return err
		}
	}
	return errors.Join(r.Err(), r.Close())
}

// Runs returns an iterator over runs of whole records, borrowed from the reader's buffer:
// each run is one or more complete records back to back, exactly as they are in the input,
// valid only until the loop body returns. It is the fastest way to pass records through
// unchanged (a filter that copies its input, a checksum): one search from the end of the
// buffered data finds where the last complete record ends, and the records in between
// are counted with bytes.Count instead of being cut one by one. LineNo, Offset and
// Stats.Records are kept as if each record had been yielded (during the loop LineNo is
// the line number after the run's last record, Offset the offset of its first byte);
// Stats.MaxRecord is measured only for runs of one record.
//
// Runs of several records are made only when records are contiguous input with a
// separator that cannot overlap itself, and no Limit, Chomp, MaxRecord or section end has
// to be checked per record; otherwise, and whenever no complete record is buffered, a run
// is a single record. A record longer than the buffer (BufferSize) comes in pieces, as
// from Pieces, with Partial set for all but its last: Runs never buffers a whole record,
// so its memory stays bounded whatever the input.
func (r *Reader) Runs() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		e := &r.e
		if e.back != nil { // the backward loop out of line: see records
			e.back.runs(yield)
			return
		}
		multi := r.runnable()
		for {
			if multi {
				if run := r.nextRun(); run != nil {
					if !yield(run) {
						return
					}
					continue
				}
			}
			if !e.advance(true) || !yield(e.view()) {
				return
			}
		}
	}
}

// Pieces returns an iterator over the remaining records, borrowed like Views, for
// records of any length in bounded memory: a record that fits in the buffer (BufferSize)
// is yielded whole; a longer one is yielded in pieces of about BufferSize bytes, in order,
// and Partial reports true for every piece but the last of a record. The pieces of a
// record concatenated are the record. Chomp applies to a record's last piece; LineNo
// counts a record when its last piece is yielded; Offset is where the piece starts;
// Options.MaxRecord counts the whole record. Pieces is for passing records on (a filter,
// a counter, a hash) without ever holding one whole. Check Err after the loop.
func (r *Reader) Pieces() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		e := &r.e
		if e.back != nil { // the backward loop out of line: see records
			e.back.pieces(yield)
			return
		}
		for e.advance(true) {
			if !yield(e.view()) {
				return
			}
		}
	}
}

// nextRun makes every complete record buffered the current run and returns it, or nil
// when there is none and reading more will not make one (the input ended, or the record
// does not fit in a read: advance yields it in pieces). When only the tail of a record
// is buffered it reads first, so that the record straddling two reads goes out with the
// records after it, not as a run of its own: one run per read.
func (r *Reader) nextRun() []byte {
	e := &r.e
	for {
		if lo, hi, n := e.run(); n > 0 {
			return e.data[lo:hi:hi]
		}
		if e.err != nil || e.rerr != nil || e.before > 0 || e.seek || len(e.data)-e.start >= e.cfg.readSize {
			return nil
		}
		e.fill()
	}
}

// runnable reports whether records can be passed on in runs of several: see Runs.
func (r *Reader) runnable() bool {
	c, o := &r.e.cfg, &r.e.cfg.opt
	return c.err == nil && (c.mode == modeByte || (c.mode == modeBytes && !selfOverlapping(c.sep))) &&
		o.Limit <= 0 && !o.Chomp && o.MaxRecord == 0 && r.e.stopAt < 0 && c.join == nil
}
