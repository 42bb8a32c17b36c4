package linereader

import (
	"errors"
	"iter"
)

// Lines returns an iterator over the remaining records, each copied out: every record is
// an exact-size allocation owned by the caller, sharing memory with nothing (keeping one
// keeps only that record). This is the safe default. Check Err after the loop.
func (r *Reader) Lines() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for r.Next() {
			if !yield(r.Line()) {
				return
			}
		}
	}
}

// Views returns an iterator over the remaining records, borrowed from the reader's
// buffer without copying: each record is valid only until the loop body returns, and
// must be copied to be kept. This is the fastest way to look at records. Check Err after
// the loop.
func (r *Reader) Views() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for r.Next() {
			if !yield(r.rec) {
				return
			}
		}
	}
}

// Batch sizing: a batch closes when its block holds batchBytes bytes or it has
// batchRecords records, whichever comes first. 64 KiB keeps a block in L2 while the caller
// walks it; the record cap bounds the [][]byte for inputs of empty lines.
const (
	batchBytes   = 64 << 10
	batchRecords = 4096
)

// Batches returns an iterator over runs of the remaining records. The records of one
// batch are copied into one fresh block allocated for that batch; the batch slice is
// fresh too, and both belong to the caller. Each record is capacity-capped, so appending
// to it reallocates instead of overwriting its neighbour; but retaining any record of a
// batch keeps the whole block alive (use Lines for records kept long and few). Batches
// never share memory with the reader's buffer or with other batches. Check Err after the
// loop.
func (r *Reader) Batches() iter.Seq[[][]byte] {
	return func(yield func([][]byte) bool) {
		var block []byte
		var batch [][]byte
		for r.Next() {
			rec := r.rec
			if len(block)+len(rec) > cap(block) {
				if len(batch) > 0 {
					if !yield(batch) {
						return
					}
				}
				block = make([]byte, 0, max(batchBytes, len(rec)))
				batch = make([][]byte, 0, 256)
			}
			i := len(block)
			block = append(block, rec...)
			batch = append(batch, block[i:len(block):len(block)])
			if len(batch) == batchRecords {
				if !yield(batch) {
					return
				}
				block, batch = nil, nil
			}
		}
		if len(batch) > 0 {
			yield(batch)
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
	for r.Next() {
		if err := fn(r.Line()); err != nil {
			r.Close()
			return err
		}
	}
	return errors.Join(r.Err(), r.Close())
}
