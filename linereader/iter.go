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
// while the loop body works on the current ones (see readahead.go). Records, LineNo,
// Offset and Err are exactly those of the plain loop; the goroutine stops when the loop
// ends, breaks or panics, and records it had read ahead are kept for the next call.
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
						break
					}
					start, end := r.start, r.scan+i+1
					rec := r.data[start:end:end]
					if r.cfg.opt.Chomp {
						rec = r.chomp(rec)
					}
					r.prevLine = r.lineNo
					r.lineNo++
					r.recLo, r.recHi, r.recOff = start, start+len(rec), r.base+int64(start)
					r.start, r.scan = end, end
					r.curView, r.curOff, r.curLine = true, r.recOff, r.lineNo
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
// batchRecords records, whichever comes first. A 64 KiB block stays in L2 while the
// caller walks it; the record cap bounds the [][]byte for inputs of empty lines.
const (
	batchBytes   = 64 << 10
	batchRecords = 4096
)

// Batches returns an iterator over runs of the remaining records. The records of one
// batch are copied into one fresh block allocated for that batch (a record longer than
// 64 KiB gets a block of its own size); the batch slice is fresh too, and both belong to
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
