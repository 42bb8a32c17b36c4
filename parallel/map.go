package parallel

import (
	"context"
	"iter"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// Map returns an iterator over fn's results for the remaining records of r, in input
// order, with fn running on `workers` goroutines at once (workers < 1 means GOMAXPROCS).
// r is read by one goroutine and its records handed out in batches, each record a copy
// fn may keep. Check ctx.Err and then r.Err after the loop. Breaking out of the loop
// stops the workers and discards their pending results. A panic in fn is raised again in
// the loop's goroutine as a *Panic holding the value and the panicking goroutine's
// stack; a runtime.Goexit in fn is done again there. Map consumes r: after the loop only
// Err, Stats, Reset and Close are meaningful (records read ahead for results never
// yielded are dropped).
//
// fn is called concurrently: it must be safe for that, and it is what makes Map pay: use
// it when fn costs several times what reading a record does (parsing, matching, hashing,
// a request per record); a light fn is faster in a plain Lines or Views loop.
//
// With workers == 1 (or GOMAXPROCS 1) and a ctx that is never done (Done returns nil, as
// for context.Background), Map is a plain loop in the loop's goroutine and starts no
// goroutine. Otherwise:
//
//   - During the loop r belongs to Map's reading goroutine: the loop body must not call
//     r's methods. Once the loop has ended by the end of the input, a break or a panic,
//     every goroutine has returned and r is the caller's again.
//   - Records already read reach the workers before any read that may wait for input
//     (linereader.Reader.Ready): over a pipe, a socket or a terminal that pauses, no
//     record waits for the ones after it.
//   - When ctx is done the loop ends, even while r's source is blocked in a Read: the
//     workers stop, and the reading goroutine ends as soon as that Read returns; until
//     then it holds r, so r must not be used after such a loop (close r's source, or
//     give it a deadline, to make the Read return). Nothing else outlives the loop.
//   - Results come back in input order through a window of a few batches per worker,
//     each batch of a bounded size, so memory stays bounded whatever the input's length;
//     batches are sized to a small slice of fn's time, down to one record when fn is
//     slow, so the workers share an uneven load. A slow record holds up the results
//     after it, not the workers, until the window is full.
//   - A panic in fn comes in input order too: the loop is first given the results of
//     every record before the one whose fn panicked, then the panic is raised, once
//     every goroutine has stopped.
//   - The input's error ends the results after the last record read before it, as in a
//     plain loop, and r.Err reports it after the loop.
//   - A loop that breaks, or a panic in its body, waits for the read in progress to
//     return. To stop a loop over a source that may block forever, use ctx.
func Map[T any](ctx context.Context, r *linereader.Reader, workers int, fn func(rec []byte) T) iter.Seq[T] {
	return func(yield func(T) bool) {
		workers := numWorkers(workers)
		if workers == 1 && ctx.Done() == nil {
			mapInline(r, fn, yield)
			return
		}
		if ctx.Err() != nil {
			return
		}
		m := startMapper(r, workers, fn)
		defer m.stop(false)
		m.deliver(ctx.Done(), yield)
	}
}

// mapInline is Map with one worker: a plain loop. A panic in fn becomes a *Panic, as on
// several workers; a panic in the loop body goes through untouched.
func mapInline[T any](r *linereader.Reader, fn func(rec []byte) T, yield func(T) bool) {
	inFn := false
	defer rethrow(&inFn)
	for rec := range r.Views() {
		inFn = true
		v := fn(clone(rec))
		inFn = false
		if !yield(v) {
			return
		}
	}
}

// mapper is the machinery of one Map loop: a reading goroutine that batches the records
// and sends each batch both to order (for the loop) and to work (for the workers), and
// workers that fill each batch's results. Every batch sent to order has its done closed
// eventually, by a worker or by the reader when no worker will take it, unless the group
// halted first.
type mapper[T any] struct {
	g     *group // the workers; also holds the reading goroutine's failure
	fn    func(rec []byte) T
	order chan *mapBatch[T] // the batches in input order; its capacity is the window
	work  chan *mapBatch[T] // the same batches, for the workers to take
	pool  batchPool
	size  sizer
	outs  chan []T     // result slices the loop is done with, cleared, for process to fill again
	cut   atomic.Int64 // seq of the first batch whose fn panicked: no later one is read or run

	// awaited is the seq of the batch the loop's goroutine is blocked on, -1 while it is
	// not blocked on one: a worker that finishes a batch meanwhile gives up its P (work1).
	awaited atomic.Int64

	reading    atomic.Bool   // the reading goroutine is in a Next that may read (feeder.reading)
	readerDone chan struct{} // closed when the reading goroutine has returned
	stopped    bool          // stop has run (the loop's goroutine only)
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

// mapWindow is how many batches per worker may wait for the loop: one being worked on
// and one ready to be taken next, so that a worker finds work when it finishes one
// while the loop is still taking the results before it. Every batch in the window holds
// a block of records and a slice of results, all live memory: with an fn that allocates
// much and keeps little, a live heap of a megabyte or two is what the garbage collector
// sizes its cycles to (twice the live heap, at least 4 MB by default), so each batch
// more in the window costs GC cycles and their work, not only memory.
const mapWindow = 2

func startMapper[T any](r *linereader.Reader, workers int, fn func(rec []byte) T) *mapper[T] {
	window := mapWindow * workers
	m := &mapper[T]{
		g:          newGroup(nil),
		fn:         fn,
		order:      make(chan *mapBatch[T], window),
		work:       make(chan *mapBatch[T], window+2),
		pool:       make(batchPool, window+2),
		readerDone: make(chan struct{}),
		outs:       make(chan []T, window+2),
	}
	m.size.target = mapBatchTime
	m.cut.Store(math.MaxInt64)
	m.awaited.Store(-1)
	for range workers {
		m.g.run(m.work1)
	}
	// The reading goroutine is not one of the group's: a loop ended by ctx does not wait
	// for it while it may be blocked in a read (see stop).
	go func() {
		defer close(m.readerDone)
		m.g.catch(func() {
			defer close(m.work)
			defer close(m.order)
			fe := &feeder{r: r, g: m.g, size: &m.size, pool: m.pool, send: m.sender(),
				flushEarly: true, reading: &m.reading}
			fe.run()
		})
	}()
	return m
}

// work1 is one worker: it fills the results of the batches it takes until they end or
// the group halts.
func (m *mapper[T]) work1() {
	for {
		select {
		case b, ok := <-m.work:
			if !ok {
				return
			}
			m.process(b)
			if m.awaited.Load() >= 0 {
				// The loop is blocked on a batch: this one, whose done has made the
				// loop's goroutine runnable on this P but behind this goroutine, or an
				// earlier one, held by a worker that may be waiting for a P. This
				// goroutine would keep its P for its whole time slice while batches
				// wait, so the loop would get nothing until the window had filled and
				// the workers had run dry, and would then take its results in bursts,
				// holding them alive all that time. Yielding lets it, or the worker it
				// waits for, run now.
				runtime.Gosched()
			}
		case <-m.g.stop:
			return
		}
	}
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
	b.out = m.results(n)
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

// results returns an empty slice for n results: one the loop is done with, or a new one.
func (m *mapper[T]) results(n int) []T {
	select {
	case out := <-m.outs:
		if cap(out) >= n {
			return out
		}
	default:
	}
	return make([]T, 0, n)
}

// recycle keeps out, whose results the loop has had, for another batch; cleared, so that
// it holds nothing the loop no longer needs.
func (m *mapper[T]) recycle(out []T) {
	clear(out)
	select {
	case m.outs <- out[:0]:
	default:
	}
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
// breaks, done is closed (the loop's ctx), or a batch ends in a panic (raised again once
// every goroutine has stopped) or was skipped (the group halted: stop raises its
// failure).
func (m *mapper[T]) deliver(done <-chan struct{}, yield func(T) bool) {
	for {
		var b *mapBatch[T]
		select {
		case b = <-m.order:
		case <-done:
			m.stop(true)
			return
		}
		if b == nil {
			return // the input has ended
		}
		if !m.await(b, done) {
			m.stop(true)
			return
		}
		for _, v := range b.out {
			if isDone(done) {
				m.stop(true)
				return
			}
			if !yield(v) {
				return
			}
		}
		if b.thrown != nil {
			m.stop(false)
			b.thrown.raise()
		}
		if b.skipped {
			return
		}
		m.recycle(b.out)
	}
}

// await waits until b's results are final, telling the workers which batch it waits for
// (awaited); it returns false if done is closed first.
func (m *mapper[T]) await(b *mapBatch[T], done <-chan struct{}) bool {
	select {
	case <-b.done:
		return true
	default:
	}
	m.awaited.Store(b.seq)
	defer m.awaited.Store(-1)
	select {
	case <-b.done:
		return true
	case <-done:
		return false
	}
}

// isDone reports whether done is closed; a nil done never is.
func isDone(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// stop halts every goroutine of the loop and waits for them; a panic or Goexit outside
// fn (in reading, say) is raised again. Only its first call does anything: a second one
// runs while the first one's panic or Goexit unwinds. With abandon set (the loop's ctx
// is done) it does not wait for a reading goroutine that may be blocked in a read.
func (m *mapper[T]) stop(abandon bool) {
	if m.stopped {
		return
	}
	m.stopped = true
	m.g.halt() // before reading is looked at: see feeder.beforeNext
	m.g.wg.Wait()
	if !abandon || !m.reading.Load() {
		<-m.readerDone
	}
	m.g.result()
}
