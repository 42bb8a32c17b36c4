package linereader

import (
	"fmt"
	"sync/atomic"
)

// Read-ahead: while a Lines or Batches loop body works on the records it was given, a
// second goroutine, the producer, runs the engine and copies the next records out. The
// whole of the concurrency is this file's readAhead type:
//
//   - Ownership: starting a producer lends it the engine; the caller's goroutine does
//     not touch the engine again until the producer has returned (stop, or the end of
//     the input). The producer hands over whole chunks of records on a channel; nothing
//     else passes between the goroutines but the in-flight byte count and the room
//     signal. Every Reader method that needs the engine stops the producer first, so
//     iterators nest (a Views loop inside a Lines loop body takes the queued records,
//     then the engine's).
//   - Memory: the producer copies a record only when the bytes copied and not yet given
//     to the caller stay within budget (4 MiB) with it, and it never reads ahead a
//     record larger than a chunk (64 KiB): it stops there and the caller's loop reads
//     that record itself. So at most budget bytes of records are ever in flight.
//   - Failure: a panic in the producer (a source whose Read panics) comes back as the
//     engine's error, not a crash.
//
// Whether to read ahead at all is the policy's (policy.go).

const (
	budget       = 4 << 20 // most bytes of records in flight
	chunkRecords = 512     // a Lines chunk closes at this many records...
	chunkBytes   = 64 << 10
	queueDepth   = budget / chunkBytes // ...or bytes: the channel never blocks within budget
)

// readAhead is a running producer.
type readAhead struct {
	e       *engine
	batches bool

	ch       chan *chunk   // chunks produced; closed when the producer returns
	stop     chan struct{} // closed by the caller to end the producer
	done     chan struct{} // closed when the producer has returned
	room     chan struct{} // the caller gave bytes back: look at inflight again
	free     chan *chunk   // Lines chunks the caller is done with, for reuse
	inflight atomic.Int64  // bytes produced and not yet given to the caller

	// Set by the producer before done is closed, read by the caller after it.
	cur     *chunk // the chunk being filled
	left    *chunk // a chunk produced but not sent when stop came or the producer panicked
	refused bool   // the producer stopped at a record larger than a chunk
}

func startReadAhead(e *engine, batches bool) *readAhead {
	ra := &readAhead{
		e:       e,
		batches: batches,
		ch:      make(chan *chunk, queueDepth),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		room:    make(chan struct{}, 1),
		free:    make(chan *chunk, queueDepth),
	}
	go ra.produce()
	return ra
}

// produce runs the engine until the input ends, the caller stops it, or a record is too
// large to read ahead (larger than chunkBytes).
func (ra *readAhead) produce() {
	defer close(ra.done)
	defer close(ra.ch)
	defer func() {
		if p := recover(); p != nil {
			// The source's Read panicked (the engine's state is as before that read):
			// the records copied so far and the bytes buffered are still the caller's,
			// then the panic is the error that ends the input.
			if c := ra.cur; c != nil && len(c.recs) > 0 && len(c.meta) == len(c.recs) {
				c.last = c.meta[len(c.meta)-1]
				ra.left = c
			}
			ra.e.eof, ra.e.rerr = true, fmt.Errorf("linereader: panic while reading ahead: %v", p)
		}
	}()
	for {
		c := ra.newChunk()
		ra.cur = c
		var more bool
		if ra.batches {
			more = ra.fillBatch(c)
		} else {
			more = ra.fillLines(c)
		}
		c.stats = ra.e.chunkStats()
		if len(c.recs) > 0 {
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

// newChunk returns an empty chunk, reusing the holder of a Lines chunk the caller is
// done with when there is one (a batch's slice is the caller's: never reused).
func (ra *readAhead) newChunk() *chunk {
	select {
	case c := <-ra.free:
		clear(c.recs) // the records are the caller's: keep no pointer to them
		*c = chunk{recs: c.recs[:0], meta: c.meta[:0], from: ra}
		return c
	default:
		return &chunk{from: ra}
	}
}

// allowance returns how many more bytes may be copied now.
func (ra *readAhead) allowance() int64 { return budget - ra.inflight.Load() }

// waitRoom waits until n more bytes fit in the budget, and then until at least half the
// budget is free: a producer that went on as soon as one chunk was given back would sleep
// and wake once per chunk (measured: about 2,000 wake-ups per 64 MiB of short lines,
// some 10% of the loop's CPU time, when the loop body is the slower side). It returns false
// when the caller stopped the producer meanwhile.
func (ra *readAhead) waitRoom(n int64) bool {
	if ra.allowance() >= n {
		return true
	}
	n = max(n, budget/2)
	for ra.allowance() < n {
		select {
		case <-ra.room:
		case <-ra.stop:
			return false
		}
	}
	return true
}

// fillLines copies records one by one into c, each into an allocation of its own, until
// the chunk is full. It returns false when the producer is to return: the engine ended,
// a record was too large, or stop came while it waited for room.
func (ra *readAhead) fillLines(c *chunk) bool {
	more := ra.copyLines(c)
	if n := len(c.recs); n > 0 {
		c.last = c.meta[n-1]
	}
	// One atomic add per chunk, not per record: the chunk's bytes were checked against
	// the allowance as they were copied, and nothing else adds to inflight meanwhile.
	ra.inflight.Add(c.size)
	return more
}

// copyLines is fillLines' loop.
func (ra *readAhead) copyLines(c *chunk) bool {
	e := ra.e
	allow := ra.allowance()
	for len(c.recs) < chunkRecords && c.size < chunkBytes {
		if !e.advance(false) {
			return false
		}
		n := int64(e.hi - e.lo)
		if n > chunkBytes {
			e.unread()
			ra.refused = true
			return false
		}
		if c.size+n > allow {
			if allow = ra.allowance(); c.size+n > allow {
				if c.size > 0 {
					e.unread() // it starts the next chunk, once there is room
					break
				}
				if !ra.waitRoom(n) {
					e.unread()
					return false
				}
				allow = ra.allowance()
			}
		}
		rec := clone(e.rec())
		c.recs = append(c.recs, rec)
		c.meta = append(c.meta, recMeta{e.off, e.lineNo, e.end()})
		c.size += n
		c.longest = max(c.longest, len(rec))
	}
	return true
}

// fillBatch cuts the next batch into c, on this side, so that the caller is handed the
// batch ready to use.
func (ra *readAhead) fillBatch(c *chunk) bool {
	if !ra.waitRoom(batchBytes) {
		return false
	}
	for !ra.e.batch(c, int(min(ra.allowance(), chunkBytes))) {
		if c.refused == 0 {
			return false // the input is over
		}
		if c.refused > chunkBytes {
			ra.refused = true
			return false
		}
		n := int64(c.refused)
		c.refused = 0
		if !ra.waitRoom(n) {
			return false
		}
	}
	ra.inflight.Add(c.size)
	return true
}

// give returns the bytes of a chunk the caller has been given to the budget, and the
// chunk's holder for reuse.
func (ra *readAhead) give(c *chunk) {
	// Wake a producer waiting for room only when the bytes in flight fall to half the
	// budget or less (see waitRoom).
	if left := ra.inflight.Add(-c.size); left <= budget/2 && left+c.size > budget/2 {
		select {
		case ra.room <- struct{}{}:
		default:
		}
	}
	if !c.batch {
		select {
		case ra.free <- c:
		default:
		}
	}
}

// startReadAhead lends the engine to a new producer.
func (r *Reader) startReadAhead(batches bool) {
	if r.eng {
		// The current record is in the engine, which is about to be lent: keep a copy.
		r.cur, r.curOff, r.curLine, r.eng = clone(r.e.rec()), r.e.off, r.e.lineNo, false
	}
	r.pol.started(r.e.end())
	r.ra = startReadAhead(&r.e, batches)
}

// receive takes the next chunk from the producer into the queue. When the producer has
// returned, it takes the engine back instead, and returns false.
func (r *Reader) receive() bool {
	ra := r.ra
	var c *chunk
	ok := true
	select {
	case c, ok = <-ra.ch:
	default:
		t := now()
		c, ok = <-ra.ch
		r.pol.waited(now() - t)
	}
	if !ok {
		<-ra.done
		if ra.left != nil {
			r.queue = append(r.queue, ra.left)
		}
		r.ra = nil
		if ra.refused && r.pol.ranShort() {
			// It met a record larger than a chunk soon after it started: records
			// that long come too often for read-ahead to pay its start.
			r.pol.stopped(r.e.end())
		}
		return false
	}
	r.snap = c.stats
	r.queue = append(r.queue, c)
	if r.pol.received(c.last.end, now()) {
		r.stopReadAhead()
		r.pol.stopped(r.e.end())
	}
	return true
}

// stopReadAhead ends a running producer and takes the engine back, queueing every
// record it produced that the caller has not been given, so that none is lost.
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

// dequeue makes the next queued record the current one, and returns it.
func (r *Reader) dequeue() []byte {
	c := r.queue[0]
	c.needMeta(r.e.cfg.sepByte)
	i := r.qi
	rec, m := c.recs[i], c.meta[i]
	r.cur, r.curOff, r.curLine, r.curEnd, r.partial, r.eng = rec, m.off, m.line, m.end, false, false
	r.records++
	r.longest = max(r.longest, len(rec))
	if r.qi++; r.qi == len(c.recs) {
		r.popChunk()
	}
	return rec
}

// popChunk drops queue[0], all of whose records the caller has been given.
func (r *Reader) popChunk() {
	c := r.queue[0]
	// Shift rather than reslice, so that the queue's array is reused: it rarely holds
	// more than one chunk.
	n := copy(r.queue, r.queue[1:])
	r.queue[n] = nil
	r.queue, r.qi = r.queue[:n], 0
	if c.from != nil && c.from == r.ra {
		r.ra.give(c)
	}
}

// dropQueue forgets the queued records (Reset and Close).
func (r *Reader) dropQueue() {
	clear(r.queue)
	r.queue, r.qi = r.queue[:0], 0
}
