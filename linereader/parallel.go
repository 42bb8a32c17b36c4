package linereader

import (
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
)

// Parallel processing: ForeachParallel (this file) and Map (map.go). All the goroutines
// of this package's own making, apart from Count's, are started here: the engine and
// the plain iterators know nothing of them.

const (
	// A regular file is cut into about parSectionsPerWorker sections per worker, taken in
	// turn by whichever worker is free, so that a worker held up by a few huge records,
	// by a costly stretch of records or by other load on the machine leaves the rest of
	// the file to the others. No section is shorter than parMinSection, unless that would
	// leave a worker without one.
	parSectionsPerWorker = 8
	parMinSection        = 64 << 10

	// A batch holds at most parBatchBytes of records (a longer record is a batch of its
	// own) and at most parBatchRecords of them; within that, the reading goroutine sizes
	// batches to about parBatchTime of fn's work (sizer), so that handing a batch over
	// costs little beside it, and so that a slow fn gets batches of few records, shared
	// evenly among the workers.
	parBatchBytes   = 64 << 10
	parBatchRecords = 4096
	parBatchTime    = 200 * time.Microsecond

	// parFillTime: a batch that took longer than this to fill (a source that delivers
	// records slowly) makes the next ones smaller, so that records do not wait long for
	// the rest of their batch.
	parFillTime = 10 * time.Millisecond
)

// errHalted ends the read of a source whose records nobody will take any more.
var errHalted = errors.New("linereader: parallel reading halted")

// ForeachParallel calls fn on every record of the named file from `workers` goroutines at
// once (workers < 1 means GOMAXPROCS). A regular file read with splittable options is cut
// into sections (Partition), each read by its own goroutine, so that a record never moves
// between cores; any other input (compressed, Paragraph, Whole, Limit, a self-overlapping
// Sep, a FIFO or device) is read by one goroutine and handed to the workers in batches.
// Records reach fn in no particular order, each copied out (fn may keep it), with the
// input offset of its first byte. The first error from the input or from fn stops every
// worker and is returned; a panic in fn is raised again in the caller's goroutine once the
// workers have stopped. No goroutine outlives the call.
//
// fn is called concurrently: it must be safe for that, and it is what makes the call pay.
// Use it when fn costs more than reading the record (parsing, matching, hashing); for a
// light fn on a regular file it still reads in parallel, as Count does.
//
// With workers == 1, or GOMAXPROCS 1, the file is read in the caller's goroutine and no
// goroutine is started: fn sees the records in input order. Otherwise:
//
//   - Records are exactly those of a sequential read with the same options, each given
//     to fn once, with the Offset a sequential Reader reports for it. Each is an
//     exact-size allocation of its own, as from Lines.
//   - A regular file is read up to the size it has when ForeachParallel opens it; bytes
//     appended meanwhile are not read.
//   - Sections: about 8 per worker (fewer for a file under 64 KiB per section), each
//     read by a Reader of its own with Options.BufferSize. In flight: one Reader's buffer
//     per worker (grown for a record longer than BufferSize) and the record fn holds.
//   - Batches: the reading goroutine copies records into batches of at most 64 KiB of
//     records (a longer record is a batch of its own); at most 2×workers+1 batches are
//     in flight (workers queued, one per worker at work, one being filled), and the
//     reader's buffer. Batches are sized to about 200 µs of fn's work, down to a single
//     record when fn is slow. Over a source that is not a regular file (a FIFO, a
//     terminal), the records read so far go to the workers before each read, so a record
//     never waits for input that has yet to come.
//   - On an error or a panic, records after the failing one may have been given to fn
//     (by other workers) and records before it may not have been: only a sequential
//     loop stops at an exact record. The error returned is the first to happen. A panic
//     in fn is raised again with its own value (the stack shown is then the caller's);
//     a runtime.Goexit in fn is done again in the caller. A read blocked on a FIFO is
//     ended by closing the file.
func ForeachParallel(name string, opt Options, workers int, fn func(rec []byte, off int64) error) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	workers = parWorkers(workers)
	var src io.Reader = f
	if st.Mode().IsRegular() {
		// The bytes of the file as it is now, whichever way it is read.
		sized := io.NewSectionReader(f, 0, st.Size())
		src = sized
		if workers > 1 && sectionable(sized, opt) {
			defer f.Close()
			return foreachSections(sized, st.Size(), opt, workers, fn)
		}
	}
	if workers == 1 {
		defer f.Close()
		return foreachInline(New(src, opt), fn)
	}
	return foreachBatches(f, src, !st.Mode().IsRegular(), opt, workers, fn)
}

// parWorkers is the number of workers asked for: workers < 1 means GOMAXPROCS.
func parWorkers(workers int) int {
	if workers < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return workers
}

// sectionable reports whether ra can be read in sections with opt: splittable options,
// and input that Decompress does not decompress.
func sectionable(ra io.ReaderAt, opt Options) bool {
	cfg := newConfig(opt)
	if cfg.splittable() != nil {
		return false
	}
	if opt.Decompress {
		var header [16]byte
		n, _ := ra.ReadAt(header[:], 0)
		return decompress.Detect(header[:n]) == decompress.None
	}
	return true
}

// owned returns an exact-size copy of rec (len == cap) that shares memory with nothing.
func owned(rec []byte) []byte {
	p := make([]byte, len(rec))
	copy(p, rec)
	return p
}

// foreachInline is ForeachParallel with one worker: the caller's goroutine reads and
// calls fn, in input order.
func foreachInline(r *Reader, fn func(rec []byte, off int64) error) error {
	for rec := range r.Views() {
		if err := fn(owned(rec), r.Offset()); err != nil {
			return err
		}
	}
	return r.Err()
}

// foreachSections reads [0, size) of ra in sections, `workers` goroutines each taking the
// next section not yet taken until none is left or the group halts.
func foreachSections(ra io.ReaderAt, size int64, opt Options, workers int, fn func(rec []byte, off int64) error) error {
	spans := Partition(size, sectionCount(size, workers))
	g := newGroup(nil)
	var next atomic.Int64 // the next span to take
	for range min(workers, len(spans)) {
		g.run(func() {
			for !g.halted.Load() {
				k := next.Add(1) - 1
				if k >= int64(len(spans)) {
					return
				}
				if err := readSection(ra, spans[k], opt, g, fn); err != nil {
					g.fail(err)
					return
				}
			}
		})
	}
	return g.wait()
}

// sectionCount is how many sections a file of size bytes is cut into for `workers`.
func sectionCount(size int64, workers int) int {
	n := int64(workers) * parSectionsPerWorker
	n = min(n, max(int64(workers), size/parMinSection))
	return int(n)
}

// readSection calls fn on each record of the section sp of ra. Its Reader's buffer is no
// larger than the section needs at first: a small section of a small file then costs
// little more than its bytes.
func readSection(ra io.ReaderAt, sp Span, opt Options, g *group, fn func(rec []byte, off int64) error) error {
	size := opt.BufferSize
	if size == 0 {
		size = DefaultBufferSize
	}
	opt.BufferSize = int(min(int64(size), max(sp.End-sp.Start, 4<<10)))
	r := NewSection(ra, sp.Start, sp.End, opt)
	for rec := range r.Views() {
		if g.halted.Load() {
			return nil
		}
		if err := fn(owned(rec), r.Offset()); err != nil {
			return err
		}
	}
	return r.Err()
}

// foreachBatches reads src (the file f, or its first bytes) on one goroutine and hands its
// records to `workers` goroutines in batches. blocking says a read of f may wait for input
// indefinitely (a FIFO, a terminal): batched records are then handed on before each read,
// and a halt closes f, which ends a read waiting on it.
func foreachBatches(f *os.File, src io.Reader, blocking bool, opt Options, workers int, fn func(rec []byte, off int64) error) error {
	closeFile := sync.OnceValue(f.Close)
	g := newGroup(func() { closeFile() })
	work := make(chan *batch, workers)
	pool := make(batchPool, 2*workers+1)
	var size sizer
	for range workers {
		g.run(func() {
			for b := range work {
				if !g.halted.Load() {
					t0 := time.Now()
					err := b.each(g, fn)
					size.observe(time.Since(t0), b.len())
					if err != nil {
						g.fail(err)
					}
				}
				pool.put(b)
			}
		})
	}
	g.run(func() {
		defer close(work)
		fe := &feeder{size: &size, pool: pool, offsets: true, send: func(b *batch) bool {
			select {
			case work <- b:
				return true
			case <-g.stop:
				return false
			}
		}}
		if blocking {
			src = &flushingSource{src: src, fe: fe}
		}
		fe.r = New(src, opt)
		fe.run()
		if err := fe.r.Err(); err != nil && !g.halted.Load() {
			g.fail(err)
		}
	})
	err := g.wait()
	if cerr := closeFile(); err == nil && !g.halted.Load() {
		err = cerr
	}
	return err
}

// flushingSource is a source that may block: before each read, the records batched so
// far are handed on, so that they never wait for input that may be slow to come.
type flushingSource struct {
	src io.Reader
	fe  *feeder
}

func (s *flushingSource) Read(p []byte) (int, error) {
	if !s.fe.flush() {
		return 0, errHalted
	}
	return s.src.Read(p)
}

// thrown is how a goroutine ended other than by returning: a panic with value, or a
// runtime.Goexit.
type thrown struct {
	value  any
	goexit bool
}

// caught makes a thrown of what recover returned in a goroutine that did not return:
// nil means runtime.Goexit (a panic(nil) is recovered as a *runtime.PanicNilError).
func caught(recovered any) *thrown {
	return &thrown{value: recovered, goexit: recovered == nil}
}

// raise does again, in the calling goroutine, what t's goroutine did.
func (t *thrown) raise() {
	if t.goexit {
		runtime.Goexit()
	}
	panic(t.value)
}

// group runs the goroutines of one ForeachParallel call or Map loop, and ends them
// together: the first failure halts every one of them, and wait returns only once all
// have returned. Nothing started by run outlives wait.
type group struct {
	wg     sync.WaitGroup
	halted atomic.Bool   // set by halt, before stop is closed: checked once per record
	stop   chan struct{} // closed by halt: a goroutine waiting on a channel gives up
	once   sync.Once     // halt's
	onHalt func()        // called once by the first halt, before stop closes; may be nil

	// The first failure: err, the first error; thrown, the first panic or Goexit, which
	// wait raises again whatever errors came before it (a bug is never hidden by an
	// error). Guarded by mu.
	mu     sync.Mutex
	err    error
	thrown *thrown
}

func newGroup(onHalt func()) *group {
	return &group{stop: make(chan struct{}), onHalt: onHalt}
}

// run calls f on a goroutine of the group. A panic or Goexit in f halts the group and is
// raised again by wait.
func (g *group) run(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		returned := false
		defer func() {
			if !returned {
				g.throw(caught(recover()))
			}
		}()
		f()
		returned = true
	}()
}

// fail records err, unless a failure came before it, and halts the group.
func (g *group) fail(err error) {
	g.mu.Lock()
	if g.err == nil {
		g.err = err
	}
	g.mu.Unlock()
	g.halt()
}

// throw records t, unless a panic or Goexit came before it, and halts the group.
func (g *group) throw(t *thrown) {
	g.mu.Lock()
	if g.thrown == nil {
		g.thrown = t
	}
	g.mu.Unlock()
	g.halt()
}

// halt tells every goroutine of the group to stop at its next check.
func (g *group) halt() {
	g.once.Do(func() {
		g.halted.Store(true)
		if g.onHalt != nil {
			g.onHalt()
		}
		close(g.stop)
	})
}

// wait waits for every goroutine of the group to return, then raises again the first
// panic or Goexit, or returns the first error.
func (g *group) wait() error {
	g.wg.Wait()
	if g.thrown != nil {
		g.thrown.raise()
	}
	return g.err
}

// batch is a run of records copied out of a Reader by the reading goroutine, for a worker
// to hand out one by one.
type batch struct {
	block []byte  // the records back to back; capacity parBatchBytes, never grown
	ends  []int   // record i is block[ends[i-1]:ends[i]] (from 0 for record 0)
	offs  []int64 // offs[i] is record i's Offset (ForeachParallel only)
	long  []byte  // instead of block: one record longer than parBatchBytes, already a copy of its own
}

func (b *batch) len() int {
	if b.long != nil {
		return 1
	}
	return len(b.ends)
}

// record returns record i copied out, exact-size; a long record is already such a copy.
func (b *batch) record(i int) []byte {
	if b.long != nil {
		return b.long
	}
	lo := 0
	if i > 0 {
		lo = b.ends[i-1]
	}
	return owned(b.block[lo:b.ends[i]])
}

// each calls fn on every record of b, until fn fails or the group halts.
func (b *batch) each(g *group, fn func(rec []byte, off int64) error) error {
	for i := range b.len() {
		if g.halted.Load() {
			return nil
		}
		if err := fn(b.record(i), b.offs[i]); err != nil {
			return err
		}
	}
	return nil
}

// batchPool keeps the batches workers are done with for the reading goroutine to fill
// again, instead of allocating a block per batch; it holds at most cap(pool) of them.
type batchPool chan *batch

func (p batchPool) get() *batch {
	select {
	case b := <-p:
		return b
	default:
		return &batch{block: make([]byte, 0, parBatchBytes)}
	}
}

func (p batchPool) put(b *batch) {
	b.block, b.ends, b.offs, b.long = b.block[:0], b.ends[:0], b.offs[:0], nil
	select {
	case p <- b:
	default:
	}
}

// sizer sizes batches to about parBatchTime of fn's work, from the time workers measure.
type sizer struct {
	perRecord atomic.Int64 // fn's time per record, in ns, smoothed over batches; 0 until one is timed
}

// limit is how many records the next batch may hold: one until fn has been timed.
func (s *sizer) limit() int {
	p := s.perRecord.Load()
	if p <= 0 {
		return 1
	}
	return int(min(max(int64(parBatchTime)/p, 1), parBatchRecords))
}

// observe records that fn took d for n records. Workers race to store: any recent
// estimate will do.
func (s *sizer) observe(d time.Duration, n int) {
	if n == 0 {
		return
	}
	p := max(int64(d)/int64(n), 1)
	if old := s.perRecord.Load(); old > 0 {
		p = (3*old + p) / 4
	}
	s.perRecord.Store(p)
}

// feeder cuts the records of r into batches on the reading goroutine and hands each to
// send, which returns false when nobody will take more.
type feeder struct {
	r       *Reader
	size    *sizer
	pool    batchPool
	send    func(*batch) bool
	offsets bool // keep each record's offset

	cur     *batch    // the batch being filled, never nil while run runs
	started time.Time // when cur got its first record
	limit   int       // most records cur may hold: the sizer's, and fillLimit's
	fill    int       // most records that arrive within parFillTime, as last seen
}

// run batches every record of r, and hands on the last batch at the end of the input.
func (fe *feeder) run() {
	fe.fill = parBatchRecords
	fe.renew()
	for rec := range fe.r.Views() {
		if !fe.add(rec) {
			return
		}
	}
	fe.flush()
}

// add puts rec in the current batch, first handing the batch on if rec does not fit in
// it, and then if the batch is full. It returns false when the records are not wanted.
func (fe *feeder) add(rec []byte) bool {
	b := fe.cur
	if len(rec) > parBatchBytes || len(b.block)+len(rec) > cap(b.block) {
		if !fe.flush() {
			return false
		}
		b = fe.cur
	}
	if len(b.ends) == 0 {
		fe.started = time.Now()
	}
	if fe.offsets {
		b.offs = append(b.offs, fe.r.Offset())
	}
	if len(rec) > parBatchBytes {
		b.long = owned(rec)
		return fe.flush()
	}
	b.block = append(b.block, rec...)
	b.ends = append(b.ends, len(b.block))
	if len(b.ends) >= fe.limit {
		return fe.flush()
	}
	return true
}

// flush hands the current batch on, if it holds a record, and starts a new one.
func (fe *feeder) flush() bool {
	b := fe.cur
	if b.len() == 0 {
		return true
	}
	if took := time.Since(fe.started); took > parFillTime {
		fe.fill = max(1, int(int64(b.len())*int64(parFillTime)/int64(took)))
	} else if took < parFillTime/2 {
		fe.fill = min(2*fe.fill, parBatchRecords)
	}
	fe.renew()
	return fe.send(b)
}

// renew starts a new current batch.
func (fe *feeder) renew() {
	fe.cur = fe.pool.get()
	fe.limit = min(fe.size.limit(), fe.fill)
}
