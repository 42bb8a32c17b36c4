package linereader

import (
	"bytes"

	"github.com/foreachio/foreach/bytelist"
)

// Batch sizing: a batch closes when its block would pass batchBytes or it has
// batchRecords records, whichever comes first. 32 KiB is the largest block the Go
// allocator serves from its size classes: a larger one is a large object, whose fresh
// pages cost page faults on every batch (measured: ~15% of a Batches loop over a 64 MiB
// file with 64 KiB blocks). The record cap bounds the [][]byte for inputs of empty lines.
const (
	batchBytes   = 32 << 10
	batchRecords = 4096
)

// chunk is a run of records copied out of the engine, in input order: a batch for
// Batches, or records copied one by one for Lines by the read-ahead producer.
type chunk struct {
	recs [][]byte  // the records
	meta []recMeta // where each record is; for a packed batch made on demand (needMeta)
	last recMeta   // where the last record is

	batch   bool  // recs is a batch: one fresh block, the slice itself the caller's
	size    int64 // bytes held by the records
	longest int   // the longest record

	// A packed batch (engine.batch's fast path): block holds the records as they were
	// in the input, each ending with the one-byte separator, from input offset blockOff,
	// with line numbers line0+1, line0+2, ...
	packed   bool
	block    []byte
	blockOff int64
	line0    int64

	refused int        // a record of this size was left unread: it did not fit (read-ahead)
	from    *readAhead // the producer that made it, nil for the caller's own batches

	stats chunkStats // the engine's, after this chunk
}

// chunkStats is what Stats reports of the engine while a producer owns it.
type chunkStats struct {
	reads      int
	buf        bytelist.Stats
	format     string
	compressed int64
}

func (e *engine) chunkStats() chunkStats {
	format, n := e.compressed()
	return chunkStats{e.reads, e.buf.Stats(), format, n}
}

// recMeta is where a record is: its Offset, the LineNo after it, and the input offset
// just past it (Stats.Bytes once it is given).
type recMeta struct {
	off, line, end int64
}

// batch fills the empty chunk c with the next batch, each record copied into the batch's
// one fresh block (a record longer than batchBytes gets a block of its own size). A record
// longer than maxRec (when > 0) is left unread and its size put in c.refused. It returns
// false when no record was taken (the engine ended, or the first record was refused).
func (e *engine) batch(c *chunk, maxRec int) bool {
	c.batch = true
	for e.fast {
		// Every complete record buffered within batchBytes at once: one copy, then the
		// records are cut apart in the block.
		if lo, hi, n := e.run(batchBytes, batchRecords); n > 0 {
			e.pack(c, lo, hi, n)
			return true
		}
		if e.eof || len(e.data)-e.start >= batchBytes {
			break // the record-by-record path below deals with both
		}
		e.fill()
	}
	hint := e.batchHint
	c.recs = make([][]byte, 0, min(hint+hint/8+8, batchRecords))
	var block []byte
	for len(c.recs) < batchRecords && len(block) < batchBytes {
		if !e.advance(false) {
			break
		}
		rec := e.rec()
		if maxRec > 0 && len(rec) > maxRec {
			e.unread()
			c.refused = len(rec)
			break
		}
		if len(block)+len(rec) > cap(block) && len(c.recs) > 0 {
			e.unread() // it starts the next batch, in a block of its own
			break
		}
		switch {
		case len(c.recs) == 0 && len(rec) >= batchBytes:
			// A batch of its own, its block an exact copy (make and copy of the same
			// length: a large block is not zeroed first).
			block = clone(rec)
			rec = block
		case len(c.recs) == 0:
			block = make([]byte, 0, batchBytes)
			fallthrough
		default:
			i := len(block)
			block = append(block, rec...)
			rec = block[i:len(block):len(block)]
		}
		c.recs = append(c.recs, rec)
		c.meta = append(c.meta, recMeta{e.off, e.lineNo, e.end()})
		c.size += int64(len(rec))
		c.longest = max(c.longest, len(rec))
	}
	e.batchHint = len(c.recs)
	if n := len(c.recs); n > 0 {
		c.last = c.meta[n-1]
		return true
	}
	return false
}

// pack makes c a packed batch of the n records data[lo:hi] that run just took: one
// exact-size copy (make and copy of the same length: no zeroing), then the records are
// cut apart in the block, each capacity-capped.
func (e *engine) pack(c *chunk, lo, hi, n int) {
	block := make([]byte, hi-lo)
	copy(block, e.data[lo:hi])
	recs := make([][]byte, n)
	sep, cfg := e.cfg.sepByte, &e.cfg
	p, lastStart, longest := 0, 0, 0
	for i := range recs {
		end := p + bytes.IndexByte(block[p:], sep) + 1 // every record ends with sep
		hi := cfg.byteEnd(block, p, end)
		recs[i] = block[p:hi:hi]
		longest = max(longest, hi-p)
		lastStart, p = p, end
	}
	off := e.base + int64(lo)
	c.recs, c.packed, c.block, c.blockOff, c.line0 = recs, true, block, off, e.lineNo-int64(n)
	c.size, c.longest = int64(len(block)), longest
	c.last = recMeta{off + int64(lastStart), e.lineNo, off + int64(len(block))}
	e.batchHint = n
}

// needMeta makes the metadata of a packed batch, whose records are given one by one
// (a Next, Lines or Views loop inside a Batches loop). It walks the block again, which
// only this rare case pays for.
func (c *chunk) needMeta(sep byte) {
	if !c.packed || len(c.meta) == len(c.recs) {
		return
	}
	c.meta = c.meta[:0]
	for p, i := 0, 0; p < len(c.block); i++ {
		end := p + bytes.IndexByte(c.block[p:], sep) + 1
		c.meta = append(c.meta, recMeta{c.blockOff + int64(p), c.line0 + int64(i) + 1, c.blockOff + int64(end)})
		p = end
	}
}
