package parallel

import (
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// Handing records over in batches, for Foreach and Fold over input that is not cut into
// sections, and for Map: a reading goroutine copies records into batches, workers take
// the batches.

const (
	// A batch holds at most batchBytes of records (a longer record is a batch of its
	// own) and at most batchRecords of them; within that, the reading goroutine sizes
	// batches to about batchTime of fn's work (sizer), so that handing a batch over costs
	// little beside it, and so that a slow fn gets batches of few records, shared evenly
	// among the workers. Map's batches are larger (mapBatchTime): each one also costs
	// the loop a wait for its results, in order; but not much larger, since every batch
	// in Map's window holds its records and results alive (see mapWindow).
	batchBytes   = 64 << 10
	batchRecords = 4096
	batchTime    = 200 * time.Microsecond
	mapBatchTime = 500 * time.Microsecond

	// fillTime: a batch that took longer than this to fill (a source that delivers
	// records slowly) makes the next ones smaller, so that records do not wait long for
	// the rest of their batch.
	fillTime = 10 * time.Millisecond
)

// batch is a run of records copied out of a Reader by the reading goroutine, for a worker
// to hand out one by one.
type batch struct {
	block []byte  // the records back to back; capacity batchBytes, never grown
	ends  []int   // record i is block[ends[i-1]:ends[i]] (from 0 for record 0)
	offs  []int64 // offs[i] is record i's Offset (Foreach and Fold only)
	long  []byte  // instead of block: one record longer than batchBytes, already a copy of its own
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
	return clone(b.view(i))
}

// view returns record i where it lies in the batch, valid until the batch is reused.
func (b *batch) view(i int) []byte {
	if b.long != nil {
		return b.long
	}
	lo := 0
	if i > 0 {
		lo = b.ends[i-1]
	}
	return b.block[lo:b.ends[i]]
}

// clone returns an exact-size copy of p (len == cap) that shares memory with nothing: a
// record fn may keep. (Reader.Line is the same copy of the current record; a batch
// holds records that are no longer current.)
func clone(p []byte) []byte {
	c := make([]byte, len(p))
	copy(c, p)
	return c
}

// each calls fn on every record of b, until fn fails or the group halts: on a copy of
// each, or with borrows on the record where it lies in b.
func (b *batch) each(g *group, fn recordFunc, borrows bool) error {
	for i := range b.len() {
		if g.over() {
			return nil
		}
		rec := b.view(i)
		if !borrows && b.long == nil { // a long record is a copy of its own already
			rec = clone(rec)
		}
		if err := fn(rec, b.offs[i]); err != nil {
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
		return &batch{block: make([]byte, 0, batchBytes)}
	}
}

func (p batchPool) put(b *batch) {
	b.block, b.ends, b.offs, b.long = b.block[:0], b.ends[:0], b.offs[:0], nil
	select {
	case p <- b:
	default:
	}
}

// sizer sizes batches to about target of fn's work, from the time workers measure.
type sizer struct {
	target    time.Duration // batchTime or mapBatchTime
	perRecord atomic.Int64  // fn's time per record, in ns, smoothed over batches; 0 until one is timed
}

// limit is how many records the next batch may hold: one until fn has been timed.
func (s *sizer) limit() int {
	p := s.perRecord.Load()
	if p <= 0 {
		return 1
	}
	return int(min(max(int64(s.target)/p, 1), batchRecords))
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
	r       *linereader.Reader
	g       *group
	size    *sizer
	pool    batchPool
	send    func(*batch) bool
	offsets bool // keep each record's offset

	// flushEarly: before a Next that may read (Reader.Ready is false), hand on the
	// records batched so far, so that none of them waits for a read that may block.
	// reading, if not nil, is set from then until that Next returns (see mapper.stop).
	flushEarly bool
	reading    *atomic.Bool

	cur     *batch    // the batch being filled, never nil while run runs
	started time.Time // when cur got its first record
	limit   int       // most records cur may hold: the sizer's, and fill's
	fill    int       // most records that arrive within fillTime, as last seen
}

// run batches every record of r, and hands on the last batch at the end of the input.
func (fe *feeder) run() {
	fe.fill = batchRecords
	fe.renew()
	if !fe.beforeNext() {
		return
	}
	for rec := range fe.r.Views() {
		fe.afterNext()
		if !fe.add(rec) || !fe.beforeNext() {
			return
		}
	}
	fe.afterNext()
	fe.flush()
}

// beforeNext is called before each Next: with flushEarly, a Next that may read has the
// batch handed on first. It returns false when the records are not wanted any more.
func (fe *feeder) beforeNext() bool {
	if !fe.flushEarly || fe.r.Ready() {
		return true
	}
	if !fe.flush() {
		return false
	}
	if fe.reading != nil {
		// Set before halted is checked, while stop sets halted before it looks at
		// reading: either this goroutine sees the halt, or stop sees it reading.
		fe.reading.Store(true)
	}
	return !fe.g.halted.Load()
}

// afterNext is called when a Next has returned.
func (fe *feeder) afterNext() {
	if fe.reading != nil && fe.reading.Load() {
		fe.reading.Store(false)
	}
}

// add puts rec in the current batch, first handing the batch on if rec does not fit in
// it, and then if the batch is full. It returns false when the records are not wanted.
func (fe *feeder) add(rec []byte) bool {
	b := fe.cur
	if len(rec) > batchBytes || len(b.block)+len(rec) > cap(b.block) {
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
	if len(rec) > batchBytes {
		b.long = clone(rec)
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
	if took := time.Since(fe.started); took > fillTime {
		fe.fill = max(1, int(int64(b.len())*int64(fillTime)/int64(took)))
	} else if took < fillTime/2 {
		fe.fill = min(2*fe.fill, batchRecords)
	}
	fe.renew()
	return fe.send(b)
}

// renew starts a new current batch.
func (fe *feeder) renew() {
	fe.cur = fe.pool.get()
	fe.limit = min(fe.size.limit(), fe.fill)
}
