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
// When the source is a regular file and more than one CPU is available, Lines reads
// ahead: after the first two reads, a second goroutine cuts and copies the next records
// while the loop body works on the current ones (see readahead.go). It pays when the loop
// body does real work per record; when the body does so little that it mostly waits for
// the other goroutine, Lines notices within a few hundred records and goes on without it.
// Records, LineNo, Offset and Err are exactly those of the plain loop; the goroutine
// stops when the loop ends, breaks or panics, and records it had read ahead are kept for
// the next call.
func (r *Reader) Lines() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		defer r.pauseReadAhead()
		for {
			rec, ok := r.nextOwned()
			if !ok || !yield(rec) {
				return
			}
		}
	}
}

// Views returns an iterator over the remaining records, borrowed from the reader's
// buffer without copying: each record is valid only until the loop body returns, and
// must be copied to be kept. This is the fastest way to look at records. Views never
// reads ahead. Check Err after the loop.
func (r *Reader) Views() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for {
			if r.cfg.simple && !r.done && r.ra == nil && len(r.queue) == 0 {
				// The common case without Next's dispatch: records whose end is already
				// buffered, one IndexByte each. The state is kept exactly as Next keeps it,
				// since the loop body may call LineNo, Offset or Stats.
				sep := r.cfg.sepByte
				for {
					i := bytes.IndexByte(r.data[r.scan:], sep)
					if i < 0 {
						r.scan = len(r.data) // searched: Next resumes there
						break
					}
					start, end := r.start, r.scan+i+1
					rec := r.data[start:end:end]
					if r.cfg.opt.Chomp {
						rec = r.chomp(rec)
					}
					r.lineNo++
					r.recLo, r.recHi, r.recOff = start, start+len(rec), r.base+int64(start)
					r.start, r.scan = end, end
					r.curView = true
					r.records++
					r.longest = max(r.longest, len(rec))
					if !yield(rec) {
						return
					}
				}
			}
			if !r.Next() || !yield(r.Bytes()) {
				return
			}
		}
	}
}

// Batch sizing: a batch closes when its block would pass batchBytes or it has
// batchRecords records, whichever comes first. 32 KiB is the largest block the Go
// allocator serves from its size classes: a larger one is a large object, whose fresh
// pages cost page faults on every batch (measured: ~15% of a Batches loop over a 64 MiB
// file with 64 KiB blocks). The record cap bounds the [][]byte for inputs of empty lines.
const (
	batchBytes   = 32 << 10
	batchRecords = 4096
)

// Batches returns an iterator over runs of the remaining records. The records of one
// batch are copied into one fresh block allocated for that batch (a record longer than
// 32 KiB gets a block of its own size); the batch slice is fresh too, and both belong to
// the caller. Each record is capacity-capped, so appending to it reallocates instead of
// overwriting its neighbour; but retaining any record of a batch keeps the whole block
// alive (use Lines for records kept long and few). Batches never share memory with the
// reader's buffer or with other batches. During the loop, LineNo and Offset describe the
// last record of the current batch. Like Lines, Batches reads ahead on regular files.
// Check Err after the loop.
func (r *Reader) Batches() iter.Seq[[][]byte] {
	return func(yield func([][]byte) bool) {
		defer r.pauseReadAhead()
		for {
			batch, ok := r.nextBatch()
			if !ok || !yield(batch) {
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
// the line number after the run's last record, Offset the offset of its first byte), but
// Stats.MaxRecord is not: Runs never measures the records inside a run of several.
//
// Runs of several records are made only when records are contiguous input with a
// separator that cannot overlap itself, and no Limit, Chomp, MaxRecord or section end has
// to be checked per record: otherwise, and whenever no complete record is buffered, each
// run is a single record, as from Next.
func (r *Reader) Runs() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		multi := r.runnable()
		for {
			if multi && !r.done && r.ra == nil && len(r.queue) == 0 {
				if run := r.nextRun(); run != nil {
					if !yield(run) {
						return
					}
					continue
				}
			}
			if !r.Next() || !yield(r.Bytes()) {
				return
			}
		}
	}
}

// runnable reports whether records can be passed on in runs: see Runs.
func (r *Reader) runnable() bool {
	o := &r.cfg.opt
	return r.cfg.err == nil && (r.cfg.mode == modeByte || (r.cfg.mode == modeBytes && !selfOverlapping(r.cfg.sep))) &&
		o.Limit <= 0 && !o.Chomp && o.MaxRecord == 0 && r.stopAt < 0
}

// nextRun consumes every complete record buffered and returns them as one run, or nil
// when no complete record is buffered. A separator that cannot overlap itself is matched
// wherever it occurs, so the last occurrence ends the last complete record and
// bytes.Count counts the records.
func (r *Reader) nextRun() []byte {
	sep := r.cfg.sep
	var last int
	if len(sep) == 1 {
		last = lastIndexByte(r.data[r.scan:], sep[0])
	} else {
		last = bytes.LastIndex(r.data[r.scan:], sep)
	}
	if last < 0 {
		// Searched: Next resumes after it (a multi-byte separator may straddle the
		// next read).
		r.scan = max(r.start, len(r.data)-(len(sep)-1))
		return nil
	}
	start, end := r.start, r.scan+last+len(sep)
	run := r.data[start:end:end]
	n := int64(bytes.Count(run, sep))
	r.prevLine = r.lineNo + n - 1
	r.lineNo += n
	r.recLo, r.recHi, r.recOff = start, end, r.base+int64(start)
	r.start, r.scan = end, end
	r.curView = true
	r.records += n
	return run
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
