package linereader

import (
	"bytes"
	"iter"
)

// Batch sizing: a batch closes when its block would pass batchBytes or it has
// batchRecords records, whichever comes first. 32 KiB is the largest block the Go
// allocator serves from its size classes: a larger one is a large object, whose fresh
// pages cost page faults on every batch. The record cap bounds the [][]byte for inputs
// of empty lines.
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
// reader's buffer or with other batches. During the loop, Bytes, LineNo and Offset
// describe the last record of the current batch. Check Err after the loop.
func (r *Reader) Batches() iter.Seq[[][]byte] {
	return func(yield func([][]byte) bool) {
		avg := 64
		for {
			var b [][]byte
			if r.e.back != nil { // a direct call: a method value costs the forward loop
				b = r.e.back.batch(&avg)
			} else {
				b = r.e.batch(&avg)
			}
			if b == nil || !yield(b) {
				return
			}
		}
	}
}

// batch returns the next batch, or nil when there is no record left. avg is the average
// length of the records of the batches so far, to size the batch's slice; batch updates it.
func (e *engine) batch(avg *int) [][]byte {
	e.big = nil
	e.setFast()
	// Records as long as half a batch go one by one: a window of them would hold one or
	// none, and searching it from its end for a separator that is not there costs more
	// than the record's own search.
	for e.fast && *avg < batchBytes/2 {
		if b := e.cutBatch(avg); b != nil {
			return b
		}
		if e.rerr != nil || len(e.data)-e.start >= batchBytes {
			break // the record-by-record path deals with both
		}
		e.fill()
		e.setFast() // a section's end may now be buffered
	}
	b := e.batchSlow(*avg)
	if len(b) > 0 {
		n := 0
		for _, rec := range b {
			n += len(rec)
		}
		*avg = max(1, n/len(b))
	}
	return b
}

// cutBatch takes the complete records buffered within batchBytes of start as one batch:
// findLast finds where the last of them ends, one copy makes the batch's block, count
// sizes the slice exactly, and the records are cut apart in the block, each separator
// found once. It applies where the short path does (a one-byte separator, nothing
// checked per record but Chomp). It returns nil, having consumed nothing, when no
// complete record is buffered there.
func (e *engine) cutBatch(avg *int) [][]byte {
	window := e.data[e.start:min(len(e.data), e.start+batchBytes)]
	end := e.cfg.findLast(window)
	if end < 0 {
		return nil
	}
	src := window[:end]
	block := make([]byte, len(src))
	copy(block, src)
	// The slice is made to size: counting the separators first (one vectorised pass over
	// the block, in cache) costs less than growing it or guessing.
	n := min(e.cfg.count(block), batchRecords)
	recs := make([][]byte, n)
	sep, longest := e.cfg.sepByte, e.longest
	p, last := 0, 0
	for i := range recs {
		q := p + bytes.IndexByte(block[p:], sep) + 1 // every record in the block ends with sep
		hi := e.cfg.byteEnd(block, p, q)
		recs[i] = block[p:hi:hi]
		if hi-p > longest {
			longest = hi - p
		}
		last, p = p, q
	}
	*avg = max(1, p/n)
	// The batch's last record is the current one, held in its block.
	e.lo, e.hi = e.start+last, e.start+last+len(recs[len(recs)-1])
	e.big = recs[len(recs)-1]
	e.start += p
	e.scan, e.longest = e.start, longest
	e.lineNo += int64(len(recs))
	e.fast = false
	return recs
}

// batchSlow makes a batch record by record, for the options the short path does not
// take and for records longer than a batch. A record longer than batchBytes is a batch of
// its own, in a block of its own size.
func (e *engine) batchSlow(avg int) [][]byte {
	recs := make([][]byte, 0, min(batchBytes/avg+8, batchRecords))
	var block []byte
	for len(recs) < batchRecords && len(block) < batchBytes {
		m := e.mark()
		// Once the batch has records, a record too long for a buffer comes as a piece
		// instead of being gathered: it starts the next batch.
		if !e.advance(len(recs) > 0) {
			break
		}
		rec := e.view()
		if len(recs) > 0 && (e.before > 0 || len(block)+len(rec) > cap(block)) {
			e.restore(m) // it starts the next batch, in a block of its own
			break
		}
		switch {
		case len(recs) == 0 && len(rec) >= batchBytes:
			if e.big == nil {
				rec = clone(rec)
			}
			block = rec // a gathered record is already an array of its own
		case len(recs) == 0:
			block = make([]byte, 0, batchBytes)
			fallthrough
		default:
			i := len(block)
			block = append(block, rec...)
			rec = block[i:len(block):len(block)]
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil
	}
	// The batch's last record is the current one, held in its block, even when the
	// input ended after it.
	e.big = recs[len(recs)-1]
	e.hi = e.lo + len(e.big)
	e.fast = false
	return recs
}

// mark is what restore needs to take back an advance: the last record's bounds (as input
// offsets, since reading may move the buffer) and the counts.
type mark struct {
	lo, hi            int64
	lineNo, uncounted int64
	longest           int
}

func (e *engine) mark() mark {
	return mark{e.base + int64(e.lo), e.base + int64(e.hi), e.lineNo, e.uncounted, e.longest}
}

// restore takes back the advance made after m: the record it yielded, still buffered
// from data[lo], is unread, and the record before it is the last one again.
func (e *engine) restore(m mark) {
	e.start, e.scan, e.before = e.lo, e.lo, 0
	e.lo, e.hi = int(m.lo-e.base), int(m.hi-e.base)
	e.lineNo, e.uncounted, e.longest = m.lineNo, m.uncounted, m.longest
	e.setFast()
}
