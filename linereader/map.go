package linereader

import (
	"iter"
	"math"
	"sync/atomic"
	"time"
)

// Map returns an iterator over fn's results for the remaining records of r, in input
// order, with fn running on `workers` goroutines at once (workers < 1 means GOMAXPROCS).
// r is read by one goroutine and its records handed out in batches, each record copied
// out (fn may keep it). Check r.Err after the loop. Breaking out of the loop stops the
// workers and discards their pending results; a panic in fn is raised again in the loop's
// goroutine. No goroutine outlives the loop. Map consumes r: after the loop only Err,
// Stats, Reset and Close are meaningful (records read ahead for results never yielded are
// dropped).
//
// fn is called concurrently: it must be safe for that, and it is what makes Map pay: use
// it when fn costs several times what reading a record does (parsing, matching, hashing,
// a request per record); a light fn is faster in a plain Lines or Views loop.
//
// With workers == 1, or GOMAXPROCS 1, Map is a plain loop in the loop's goroutine and
// starts no goroutine. Otherwise:
//
//   - During the loop r belongs to Map's reading goroutine: the loop body must not call
//     r's methods. Once the loop has ended (by the end of the input, a break or a panic),
//     every goroutine has returned and r is the caller's again.
//   - Results come back in input order through a window of 4×workers batches: at most
//     4×workers+2 batches are in flight (the window, the batch whose results the loop is
//     being given and the one being filled), each of at most 64 KiB of records (a longer
//     record is a batch of its own) and at most 4096 records, with their results; so
//     memory stays bounded whatever the input's length. Batches are sized to about
//     200 µs of fn's work, down to one record when fn is slow, so the workers share an
//     uneven load; a slow record holds up the results after it, not the workers, until
//     the window is full.
//   - A panic in fn comes in input order too: the loop is first given the results of
//     every record before the one whose fn panicked, then the panic is raised again
//     with its own value (the stack shown is then the loop's), once every goroutine has
//     stopped. A runtime.Goexit in fn is done again in the loop's goroutine.
//   - The input's error ends the results after the last record read before it, as in a
//     plain loop, and r.Err reports it after the loop.
//   - A source that delivers records slowly (a pipe, a socket, a terminal): a record is
//     handed to a worker when its batch is full or the input ends. Batches that take
//     long to fill make the next ones smaller, down to one record, but a record read
//     just before the source stops delivering waits for the next ones. And a loop that
//     breaks, or a panic, waits for the read in progress to return: over a source that
//     can block forever, the loop does not end until the source delivers or fails. To
//     stop such a loop, make its read return first: close the source (closing an
//     *os.File ends a pending read of a pipe with an error, which r.Err then reports) or
//     give it a deadline. For records that must be handled the moment they arrive, use
//     a plain loop.
func Map[T any](r *Reader, workers int, fn func(rec []byte) T) iter.Seq[T] {
	return func(yield func(T) bool) {
		workers := parWorkers(workers)
		if workers == 1 {
			for rec := range r.Views() {
				if !yield(fn(owned(rec))) {
					return
				}
			}
			return
		}
		m := startMapper(r, workers, fn)
		defer m.stop()
		m.deliver(yield)
	}
}

// mapper is the machinery of one Map loop: a reading goroutine that batches the records
// and sends each batch both to order (for the loop) and to work (for the workers), and
// workers that fill each batch's results. Every batch sent to order has its done closed
// eventually, by a worker or by the reader when no worker will take it.
type mapper[T any] struct {
	g     *group
	fn    func(rec []byte) T
	order chan *mapBatch[T] // the batches in input order; its capacity is the window
	work  chan *mapBatch[T] // the same batches, for the workers to take
	pool  batchPool
	size  sizer
	cut   atomic.Int64 // seq of the first batch whose fn panicked: no later one is read or run

	stopped bool // stop has run (the loop's goroutine only)
}

// mapBatch is a batch of Map's, with fn's results.
type mapBatch[T any] struct {
	*batch                // the records; nil once the worker is done with them
	seq     int64         // position among the batches, from 0
	out     []T           // fn's results for the first len(out) records
	thrown  *thrown       // fn panicked (or called Goexit) on record len(out)
	skipped bool          // the group halted before every result was made
	done    chan struct{} // closed once out, thrown and skipped are final
}

func startMapper[T any](r *Reader, workers int, fn func(rec []byte) T) *mapper[T] {
	window := 4 * workers
	m := &mapper[T]{
		g:     newGroup(nil),
		fn:    fn,
		order: make(chan *mapBatch[T], window),
		work:  make(chan *mapBatch[T], window+2),
		pool:  make(batchPool, window+2),
	}
	m.cut.Store(math.MaxInt64)
	for range workers {
		m.g.run(func() {
			for b := range m.work {
				m.process(b)
			}
		})
	}
	m.g.run(func() {
		defer close(m.work)
		defer close(m.order)
		fe := &feeder{r: r, size: &m.size, pool: m.pool, send: m.sender()}
		fe.run()
	})
	return m
}

// sender returns the reading goroutine's send: a batch goes into the window (waiting for
// room) and then to the workers.
func (m *mapper[T]) sender() func(*batch) bool {
	var seq int64
	return func(b *batch) bool {
		mb := &mapBatch[T]{batch: b, seq: seq, done: make(chan struct{})}
		seq++
		select {
		case m.order <- mb:
		case <-m.g.stop:
			return false
		}
		if mb.seq > m.cut.Load() {
			mb.skip() // after a panic: the loop stops before it
			return false
		}
		select {
		case m.work <- mb:
			return true
		case <-m.g.stop:
			mb.skip()
			return false
		}
	}
}

func (b *mapBatch[T]) skip() {
	b.skipped = true
	close(b.done)
}

// process fills b's results, unless the group has halted or an earlier batch panicked.
func (m *mapper[T]) process(b *mapBatch[T]) {
	records := b.batch
	b.batch = nil
	defer close(b.done)
	defer m.pool.put(records)
	if m.g.halted.Load() || b.seq > m.cut.Load() {
		b.skipped = true
		return
	}
	n := records.len()
	b.out = make([]T, 0, n)
	returned := false
	defer func() {
		if !returned {
			b.thrown = caught(recover())
			m.cutAt(b.seq)
		}
	}()
	t0 := time.Now()
	for i := range n {
		if m.g.halted.Load() {
			b.skipped = true
			break
		}
		b.out = append(b.out, m.fn(records.record(i)))
	}
	m.size.observe(time.Since(t0), len(b.out))
	returned = true
}

// cutAt lowers cut to seq.
func (m *mapper[T]) cutAt(seq int64) {
	for {
		old := m.cut.Load()
		if seq >= old || m.cut.CompareAndSwap(old, seq) {
			return
		}
	}
}

// deliver gives the loop every result in input order, until the input ends, the loop
// breaks, or a batch ends in a panic (raised again once every goroutine has stopped) or
// was skipped (the group halted: stop raises its failure).
func (m *mapper[T]) deliver(yield func(T) bool) {
	for b := range m.order {
		<-b.done
		for _, v := range b.out {
			if !yield(v) {
				return
			}
		}
		if b.thrown != nil {
			m.stop()
			b.thrown.raise()
		}
		if b.skipped {
			return
		}
	}
}

// stop halts every goroutine of the loop and waits for them; a panic or Goexit outside
// fn (in reading, say) is raised again. Only its first call does anything: a second one
// runs while the first one's panic or Goexit unwinds.
func (m *mapper[T]) stop() {
	if m.stopped {
		return
	}
	m.stopped = true
	m.g.halt()
	m.g.wait()
}
