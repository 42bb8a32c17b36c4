package linereader

import (
	"bytes"
	"errors"
	"iter"
)

// Lines returns an iterator over the remaining records, each copied out: every record is
// an exact-size allocation owned by the caller, sharing memory with nothing (keeping one
// keeps only that record). This is the safe default. Check Err after the loop.
//
// On a regular file, Lines may read ahead: when the loop body's own work is about twice the
// engine's or more (measured on sampled records, see policy.go), a second goroutine cuts
// and copies the next records while the body works on the current ones, holding at most
// 4 MiB of records ahead of the loop. It stops when the loop turns out no faster for it.
// Records, LineNo, Offset, Stats and Err are exactly those of the plain loop; the
// goroutine stops when the loop ends, breaks or panics, and records it read ahead are kept
// for the next call.
func (r *Reader) Lines() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		defer r.stopReadAhead()
		r.pol.loop()
		for {
			if r.ra == nil && len(r.queue) == 0 {
				if r.pol.countdown--; r.pol.countdown > 0 {
					if !r.e.advance(false) {
						r.noRecord()
						return
					}
					rec := clone(r.e.rec())
					r.engCur(len(rec))
					if !yield(rec) {
						return
					}
					continue
				}
				// A timed step, for the read-ahead policy.
				t0, end := now(), r.e.end()
				if !r.e.advance(false) {
					r.noRecord()
					r.pol.countdown = 1
					return
				}
				rec := clone(r.e.rec())
				t1 := now()
				r.engCur(len(rec))
				more := yield(rec)
				r.pol.sample(t0, t1, now(), end, len(rec))
				if !more {
					return
				}
				if r.mayStart() {
					r.startReadAhead(false)
				}
				continue
			}
			if !r.awaitQueued() {
				continue // the producer ended: the engine is the caller's again
			}
			owned := !r.queue[0].batch
			rec := r.dequeue()
			if !owned {
				// Read ahead for Batches, given out by Lines: a record of its own.
				rec = clone(rec)
				r.cur = rec
			}
			if !yield(rec) {
				return
			}
		}
	}
}

// awaitQueued waits until a record read ahead is queued. It returns false when none is
// and no producer runs (any more): the engine is then the caller's.
func (r *Reader) awaitQueued() bool {
	for len(r.queue) == 0 {
		if r.ra == nil || !r.receive() {
			return false
		}
	}
	return true
}

// Views returns an iterator over the remaining records, borrowed from the reader's
// buffer without copying: each record is valid only until the loop body returns, and
// must be copied to be kept. This is the fastest way to look at records. Views never
// reads ahead. Check Err after the loop.
func (r *Reader) Views() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for {
			if r.ra == nil && len(r.queue) == 0 {
				if !r.e.advance(false) {
					r.noRecord()
					return
				}
				rec := r.e.rec()
				r.engCur(len(rec))
				if !yield(rec) {
					return
				}
				continue
			}
			if !r.nextQueued() {
				continue
			}
			if !yield(r.cur) {
				return
			}
		}
	}
}

// nextQueued takes the engine back from a producer, if one runs, and makes the next
// queued record current. It returns false when nothing is queued.
func (r *Reader) nextQueued() bool {
	r.stopReadAhead()
	if len(r.queue) == 0 {
		return false
	}
	r.dequeue()
	return true
}

// Batches returns an iterator over runs of the remaining records. The records of one
// batch are copied into one fresh block allocated for that batch (a record longer than
// 32 KiB gets a block of its own size); the batch slice is fresh too, and both belong to
// the caller. Each record is capacity-capped, so appending to it reallocates instead of
// overwriting its neighbour; but retaining any record of a batch keeps the whole block
// alive (use Lines for records kept long and few). Batches never share memory with the
// reader's buffer or with other batches. During the loop, LineNo and Offset describe the
// last record of the current batch. Like Lines, Batches may read ahead on regular files,
// and then the batches are cut on the other goroutine. Check Err after the loop.
func (r *Reader) Batches() iter.Seq[[][]byte] {
	return func(yield func([][]byte) bool) {
		defer r.stopReadAhead()
		r.pol.loop()
		for {
			if r.ra == nil && len(r.queue) == 0 {
				r.pol.countdown--
				timed := r.pol.countdown <= 0
				var t0, end int64
				if timed {
					t0, end = now(), r.e.end()
				}
				var c chunk
				if !r.e.batch(&c, 0) {
					r.noRecord()
					return
				}
				batch := r.giveBatch(&c)
				if !timed {
					if !yield(batch) {
						return
					}
					continue
				}
				t1 := now()
				more := yield(batch)
				r.pol.sample(t0, t1, now(), end, int(c.size))
				if !more {
					return
				}
				if r.mayStart() {
					r.startReadAhead(true)
				}
				continue
			}
			if !r.awaitQueued() {
				continue
			}
			var batch [][]byte
			if c := r.queue[0]; c.batch && r.qi == 0 {
				batch = r.giveBatch(c)
				r.popChunk()
			} else {
				// What is left of a chunk: the rest of a batch, or records copied one by
				// one for Lines, each already an allocation of its own.
				batch = make([][]byte, 0, len(c.recs)-r.qi)
				for len(r.queue) > 0 && r.queue[0] == c {
					batch = append(batch, r.dequeue())
				}
			}
			if !yield(batch) {
				return
			}
		}
	}
}

// giveBatch makes the batch c the caller's: its last record is the current one.
func (r *Reader) giveBatch(c *chunk) [][]byte {
	n := len(c.recs)
	m := c.last
	r.cur, r.curOff, r.curLine, r.curEnd, r.partial, r.eng = c.recs[n-1], m.off, m.line, m.end, false, false
	r.records += int64(n)
	r.longest = max(r.longest, c.longest)
	return c.recs
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
		r.stopReadAhead()
		multi := r.runnable()
		for {
			if r.ra != nil || len(r.queue) > 0 {
				if !r.nextQueued() {
					continue
				}
				if !yield(r.cur) {
					return
				}
				continue
			}
			if multi {
				if run := r.nextRun(); run != nil {
					if !yield(run) {
						return
					}
					continue
				}
			}
			if !r.advance(true) || !yield(r.cur) {
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
		for {
			if r.ra == nil && len(r.queue) == 0 {
				// Views' loop, with pieces.
				if !r.e.advance(true) {
					r.noRecord()
					return
				}
				r.setRecord()
				if !yield(r.cur) {
					return
				}
				continue
			}
			if !r.nextQueued() {
				continue
			}
			if !yield(r.cur) {
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
		if lo, hi, n := e.run(0, 0); n > 0 {
			run := e.data[lo:hi:hi]
			r.cur, r.curOff, r.curLine, r.partial, r.eng = run, e.base+int64(lo), e.lineNo, false, false
			r.records += int64(n)
			if n == 1 {
				r.longest = max(r.longest, len(run))
			}
			return run
		}
		if e.done || e.eof || e.partial || e.seek || len(e.data)-e.start >= e.cfg.readSize {
			return nil
		}
		e.fill()
	}
}

// runnable reports whether records can be passed on in runs of several: see Runs.
func (r *Reader) runnable() bool {
	c, o := &r.e.cfg, &r.e.cfg.opt
	return c.err == nil && (c.mode == modeByte || (c.mode == modeBytes && !selfOverlapping(c.sep))) &&
		o.Limit <= 0 && !o.Chomp && o.MaxRecord == 0 && r.e.stopAt < 0
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
