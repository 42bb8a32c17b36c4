package linereader

import (
	"bytes"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/bytelist"
)

// Read-ahead: Lines and Batches on a regular file hand the engine to a second goroutine,
// the producer, which reads and copies records out while the caller's loop body works on
// earlier ones: for Lines each record into an exact-size allocation of its own, as the
// plain loop would; for Batches a batch's records into its block with one copy, cut
// apart on the caller's side (unpack). Nothing the caller sees ever aliases the reader's
// buffer. The caller judges, as it goes, whether its loop body gives the second core
// enough to do, and falls back to the plain loop when it does not (receive).
//
// Ownership: while a producer runs, it alone touches the engine (the buffer, the source,
// the fields advance changes); the caller's side touches only the current-record fields,
// the queue and r.ra. Everything passes between them over channels, so the two never
// share a variable without a happens-before edge (go test -race checks this).
//
// Why only regular files: a read from a pipe, a terminal or a socket can block for ever,
// and stopping the producer (when the loop breaks) has to wait for its read to return;
// a caller's own io.Reader may also not be safe to read from another goroutine. A read
// from a regular file returns promptly and *os.File is safe for concurrent use.

// chunk is a run of records produced ahead of the caller, in input order.
type chunk struct {
	recs  [][]byte  // the records; a fresh batch slice when batch is set
	meta  []recMeta // where each record is, as the caller will ask
	batch bool      // recs is a batch for the caller: one fresh block, the slice not reused
	size  int64     // bytes held by the records

	// A packed batch (fastBatch): block holds n whole records, each ending with the
	// one-byte separator, starting at input offset blockOff, with line numbers line0+1,
	// line0+2, ...; recs and meta are cut out of it by unpack on the caller's side.
	packed   bool
	block    []byte
	n        int
	blockOff int64
	line0    int64

	reads int // the engine's Stats after producing this chunk
	buf   bytelist.Stats
}

// count is the number of records in c.
func (c *chunk) count() int {
	if c.packed {
		return c.n
	}
	return len(c.recs)
}

// recMeta is where a record read ahead is: its Offset, the LineNo after it, and the
// input offset just past it (Stats.Bytes once it is given).
type recMeta struct {
	off, line, end int64
}

// Judging read-ahead (receive): every judgeChunks chunks, if the caller waited for the
// producer more than idleShare percent of the time, read-ahead stops for the next
// retryRecords records. Measured on a 64 MiB file of 58-byte lines: with nothing done
// per record the caller waits most of the time and the plain loop is ~10% faster; with
// an FNV-1a hash per record it hardly waits and read-ahead is ~40% faster.
const (
	judgeChunks  = 32
	idleShare    = 65
	retryRecords = 1 << 18
)

// Producer pacing. A chunk closes at chunkRecords records or chunkBytes bytes (one
// channel hand-off per few hundred records keeps synchronisation off the per-record
// path); the producer waits while more than maxInflight bytes are produced and not yet
// given to the caller, so a file of huge records is not copied far ahead of the loop.
const (
	chunkRecords = 512
	chunkBytes   = 64 << 10
	maxInflight  = 4 << 20
	queueDepth   = 8
)

// readAhead is a running producer.
type readAhead struct {
	ch       chan *chunk   // produced chunks; closed when the producer ends
	free     chan *chunk   // chunk holders given back by the caller, for reuse (Lines)
	stop     chan struct{} // closed by the caller to end the producer early
	done     chan struct{} // closed when the producer has returned
	wake     chan struct{} // the caller gave back bytes: re-check maxInflight
	inflight atomic.Int64  // bytes sent on ch and not yet given to the caller
	left     *chunk        // a chunk produced but not sent when stop came; set before done
	batches  bool
}

// readAheadOK reports whether the source may be read ahead: a regular file, more than
// one CPU, and an input that did not end within the first two reads.
func (r *Reader) readAheadOK() bool {
	return r.raAllowed && !r.eof && !r.done && r.stats.Reads >= 2 && r.records >= r.raRetryAt
}

// allowReadAhead decides, once per source, whether read-ahead may be used for it.
func (r *Reader) allowReadAhead() {
	r.raAllowed = false
	if r.cfg.err != nil || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	if r.raForce {
		r.raAllowed = true
		return
	}
	f, ok := r.src.(*os.File)
	if !ok {
		return
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		r.raAllowed = true
	}
}

func (r *Reader) startReadAhead(batches bool) {
	ra := &readAhead{
		ch:      make(chan *chunk, queueDepth),
		free:    make(chan *chunk, queueDepth+2),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		batches: batches,
	}
	r.ra = ra
	r.raStarts++
	r.raChunks, r.raWaited, r.raSince = 0, 0, time.Now()
	go r.produce(ra)
}

// produce is the producer goroutine: it runs the engine until the input ends or the
// caller stops it.
func (r *Reader) produce(ra *readAhead) {
	defer close(ra.done)
	defer close(ra.ch)
	for {
		for ra.inflight.Load() > maxInflight {
			select {
			case <-ra.wake:
			case <-ra.stop:
				return
			}
		}
		c := newChunk(ra.free)
		more := r.fillChunk(c, ra.batches)
		c.reads, c.buf = r.stats.Reads, r.buf.Stats()
		if c.count() > 0 {
			ra.inflight.Add(c.size)
			select {
			case ra.ch <- c:
			case <-ra.stop:
				ra.left = c
				return
			}
		}
		if !more {
			return
		}
	}
}

// fillChunk advances the engine into c until the chunk is full, copying each record out:
// into its own exact-size allocation, or for a batch into the batch's one block. It
// returns false when the engine has ended (its error, if any, is in r.err).
func (r *Reader) fillChunk(c *chunk, batches bool) bool {
	if batches && r.cfg.simple && !r.done && r.fastBatch(c) {
		return true
	}
	maxRecs, maxBytes := chunkRecords, int64(chunkBytes)
	var block []byte
	if batches {
		// The batch slice is the caller's: always fresh, sized from the last batch.
		c.batch = true
		c.recs = make([][]byte, 0, min(r.batchHint+r.batchHint/8+8, batchRecords))
		maxRecs, maxBytes = batchRecords, batchBytes
	}
	for len(c.recs) < maxRecs && c.size < maxBytes {
		if !r.advance() {
			return false
		}
		rec := r.engineRec()
		if batches {
			if len(block)+len(rec) > cap(block) {
				if len(c.recs) > 0 {
					r.unread() // it starts the next batch, in a block of its own
					break
				}
				block = make([]byte, 0, max(batchBytes, len(rec)))
			}
			i := len(block)
			block = append(block, rec...)
			rec = block[i:len(block):len(block)]
		} else {
			rec = clone(rec)
		}
		c.recs = append(c.recs, rec)
		c.meta = append(c.meta, recMeta{r.recOff, r.lineNo, r.base + int64(r.start)})
		c.size += int64(len(rec))
	}
	if batches {
		r.batchHint = len(c.recs)
	}
	return true
}

// fastBatch fills the empty chunk c with a packed batch of the complete records already
// buffered, for the simple separator case: one LastIndexByte finds where the last of
// them ends and bytes.Count counts them, and they are copied into the batch's block with
// one exact-size copy; unpack cuts them apart where the batch is given (with read-ahead,
// on the caller's core). It leaves the engine as advance would after the batch's last
// record, and returns false (having read more at most) when no complete record within
// batchBytes is buffered.
func (r *Reader) fastBatch(c *chunk) bool {
	sep := r.cfg.sepByte
	var lo, hi, n int
	for {
		lo = r.start
		limit := min(len(r.data), lo+batchBytes)
		// One search from the end for where the last complete record ends, and a
		// vectorised count: the records themselves are cut on the caller's side.
		if last := lastIndexByte(r.data[r.scan:limit], sep); last >= 0 {
			hi = r.scan + last + 1
			n = bytes.Count(r.data[lo:hi], r.cfg.sep)
			break
		}
		// Nothing complete is buffered: read more, unless the input is over or one
		// record fills the batch (the record-by-record path deals with both).
		if r.eof || limit-lo >= batchBytes {
			return false
		}
		r.scan = limit
		r.fill()
	}
	if n > batchRecords {
		// Very short records: end the batch at its batchRecords-th record.
		p := lo
		for range batchRecords {
			p += bytes.IndexByte(r.data[p:hi], sep) + 1
		}
		hi, n = p, batchRecords
	}
	// Copy the records at once (make and copy of the same length: no zeroing).
	src := r.data[lo:hi]
	block := make([]byte, len(src))
	copy(block, src)
	c.n, c.block, c.packed, c.batch = n, block, true, true
	c.blockOff, c.line0, c.size = r.base+int64(lo), r.lineNo, int64(len(block))
	last := lo // where the last record starts
	if n > 1 {
		last += lastIndexByte(r.data[lo:hi-1], sep) + 1
	}
	hiLast := hi
	if r.cfg.opt.Chomp {
		hiLast = last + len(r.chomp(r.data[last:hi]))
	}
	r.prevLine, r.lineNo = r.lineNo+int64(n)-1, r.lineNo+int64(n)
	r.recLo, r.recHi, r.recOff = last, hiLast, r.base+int64(last)
	r.start, r.scan = hi, hi
	return true
}

// unpack cuts a packed batch (fastBatch) into its records, a fresh [][]byte, and, when
// the records are to be given one by one, their metadata. It returns the longest record.
func (r *Reader) unpack(c *chunk, withMeta bool) (longest, lastStart int) {
	recs := make([][]byte, 0, c.n)
	sep := r.cfg.sepByte
	for p := 0; p < len(c.block); {
		e := p + bytes.IndexByte(c.block[p:], sep) + 1 // the block ends with a separator
		rec := c.block[p:e:e]
		if r.cfg.opt.Chomp {
			rec = r.chomp(rec)
		}
		if withMeta {
			c.meta = append(c.meta, recMeta{c.blockOff + int64(p), c.line0 + int64(len(recs)) + 1, c.blockOff + int64(e)})
		}
		recs = append(recs, rec)
		longest = max(longest, len(rec))
		lastStart, p = p, e
	}
	c.recs, c.block, c.packed = recs, nil, false
	return longest, lastStart
}

// newChunk returns an empty chunk, reusing a holder given back when there is one.
func newChunk(free chan *chunk) *chunk {
	select {
	case c := <-free:
		c.recs, c.meta, c.n = c.recs[:0], c.meta[:0], 0
		c.size, c.batch, c.packed, c.block = 0, false, false, nil
		return c
	default:
		return &chunk{}
	}
}

// receive takes the next chunk from the producer into the queue, or, when the producer
// has ended, waits for it and returns to the plain loop.
//
// It also judges whether reading ahead pays: when the caller spends most of its time
// waiting for the producer, its loop body does too little for a second core to help, and
// handing records over costs more than it saves. Read-ahead then stops (what it read
// ahead is queued) and the plain loop goes on; it is tried again later, in case the work
// per record changes.
func (r *Reader) receive() {
	var c *chunk
	ok := true
	select {
	case c, ok = <-r.ra.ch:
	default:
		t := time.Now()
		c, ok = <-r.ra.ch
		r.raWaited += time.Since(t)
	}
	if !ok {
		<-r.ra.done
		r.ra = nil
		return
	}
	r.snap.Reads, r.snap.Buffer = c.reads, c.buf
	r.queue = append(r.queue, c)
	if r.raChunks++; r.raChunks == judgeChunks {
		if r.raWaited > time.Since(r.raSince)*idleShare/100 || r.raIdle {
			r.stopReadAhead()
			r.raRetryAt = r.records + retryRecords
		}
		r.raChunks, r.raWaited, r.raSince = 0, 0, time.Now()
	}
}

// stopReadAhead ends a running producer and queues every record it produced that the
// caller has not been given, so that no record read ahead is lost.
func (r *Reader) stopReadAhead() {
	ra := r.ra
	if ra == nil {
		return
	}
	close(ra.stop)
	<-ra.done
	for c := range ra.ch {
		r.queue = append(r.queue, c)
	}
	if ra.left != nil {
		r.queue = append(r.queue, ra.left)
	}
	r.ra = nil
}

// pauseReadAhead runs when a Lines or Batches loop ends for any reason.
func (r *Reader) pauseReadAhead() {
	r.stopReadAhead()
}

// dequeue gives the caller the next queued record.
func (r *Reader) dequeue() []byte {
	c := r.queue[0]
	if c.packed {
		r.unpack(c, true)
	}
	i := r.qi
	rec := c.recs[i]
	m := c.meta[i]
	r.deliver(rec, m.off, m.line)
	r.curEnd = m.end
	if r.qi++; r.qi == len(c.recs) {
		r.popChunk()
	}
	return rec
}

// popChunk drops the fully given chunk queue[0], giving its bytes back to the producer's
// budget and its holder back for reuse.
func (r *Reader) popChunk() {
	// Shift rather than reslice, so that the queue's array is reused: it rarely holds
	// more than one chunk.
	c := r.queue[0]
	n := copy(r.queue, r.queue[1:])
	r.queue[n] = nil
	r.queue, r.qi = r.queue[:n], 0
	if r.ra == nil {
		if c.batch {
			c.recs = nil
		}
		r.spare = c
		return
	}
	r.ra.inflight.Add(-c.size)
	select {
	case r.ra.wake <- struct{}{}:
	default:
	}
	if c.batch {
		c.recs = nil // the caller's now
	}
	select {
	case r.ra.free <- c:
	default:
	}
}

// nextOwned returns the next record as the caller's own copy (Lines).
func (r *Reader) nextOwned() ([]byte, bool) {
	for {
		switch {
		case len(r.queue) > 0:
			batch := r.queue[0].batch
			rec := r.dequeue()
			if batch {
				// Read ahead for Batches, given out by Lines: a record of its own.
				rec = clone(rec)
				r.cur = rec
			}
			return rec, true
		case r.ra != nil:
			r.receive()
		case r.readAheadOK():
			r.startReadAhead(false)
		default:
			if !r.advance() {
				r.endView()
				return nil, false
			}
			// Bytes reports the engine's view of the same record: no pointer stored.
			r.deliverView()
			return clone(r.engineRec()), true
		}
	}
}

// nextBatch returns the next batch (Batches).
func (r *Reader) nextBatch() ([][]byte, bool) {
	for {
		switch {
		case len(r.queue) > 0:
			c := r.queue[0]
			if c.packed && r.qi == 0 {
				// A whole packed batch: cut it and give it, with the metadata of its last
				// record only.
				size := int64(len(c.block))
				longest, lastStart := r.unpack(c, false)
				r.longest = max(r.longest, longest)
				n := len(c.recs)
				r.deliver(c.recs[n-1], c.blockOff+int64(lastStart), c.line0+int64(n))
				r.records += int64(n - 1)
				r.curEnd = c.blockOff + size
				batch := c.recs
				r.popChunk()
				return batch, true
			}
			if c.batch && r.qi == 0 {
				// A whole batch: give it as it is.
				n := len(c.recs)
				for _, rec := range c.recs {
					r.longest = max(r.longest, len(rec))
				}
				m := c.meta[n-1]
				r.deliver(c.recs[n-1], m.off, m.line)
				r.records += int64(n - 1)
				r.curEnd = m.end
				batch := c.recs
				r.popChunk()
				return batch, true
			}
			// What is left of a chunk: the rest of a batch, or records copied out one by
			// one for Lines, each already an allocation of its own.
			batch := make([][]byte, 0, len(c.recs)-r.qi)
			for len(r.queue) > 0 && r.queue[0] == c {
				batch = append(batch, r.dequeue())
			}
			return batch, true
		case r.ra != nil:
			r.receive()
		case r.readAheadOK():
			r.startReadAhead(true)
		default:
			c := r.spare
			if c == nil {
				c = &chunk{}
			}
			r.spare = nil
			c.recs, c.meta, c.n, c.size, c.packed, c.block = nil, c.meta[:0], 0, 0, false, nil
			r.fillChunk(c, true)
			if c.count() == 0 {
				r.endView()
				return nil, false
			}
			r.queue = append(r.queue, c)
		}
	}
}
