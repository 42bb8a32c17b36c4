package linereader

import (
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"
)

// policy decides when a Lines or Batches loop reads ahead (readahead.go). Read-ahead
// costs CPU time (records are handed between goroutines, and the caller finds them in
// another core's cache) and saves wall time only when the loop body's work can overlap
// the engine's. So the policy measures, and never guesses from record counts:
//
//   - Before: every few records (about every sampleBytes of input, at most every
//     sampleRecords records) the plain loop times one step: the engine's part (cut and
//     copy) and the loop body's. After decideSamples samples (the first time sooner),
//     read-ahead starts when in most of them the body took at least startShare percent of
//     the engine's time: ten times it, because handing records to another core costs
//     about as much as the overlap saves until the body is much heavier than the engine.
//     Measured on the project's 2-core VM, 64 MiB of 58-byte lines, read-ahead forced on
//     against off: with an FNV-1a body (about twice the engine's time) 176 against 156 ms
//     wall and 299 against 175 ms CPU; with four FNV-1a passes (about eight times) 270
//     against 312 ms wall, 13% faster, for 451 against 333 ms CPU. Read-ahead is for loop
//     bodies that do real work per record (parsing, say), not for light ones.
//   - While: the caller times its waits for the producer; after at least judgeBytes and
//     judgeTime, if it waited more than idleShare percent of the time, its body is too
//     light for the second core to pay, and read-ahead stops. It stops too when the
//     loop ran less than 10% faster than the samples say the plain loop runs (the
//     median cost per byte of the last decision's samples): then no core was free, or
//     handing records over cost what the overlap saved.
//   - After: a producer that stopped because it did not pay is not started again before
//     retryBytes more of input, doubling at each failure in a row, up to maxBackoff
//     doublings. One that stopped at a record larger than a chunk (it never copies
//     those: their copy on another core costs the caller more in cache misses than it
//     saves) may start again after that record.
//
// Only a regular file is read ahead: a read from a pipe, a terminal or a socket can block
// for ever, and stopping the producer (when the loop breaks) would wait for it; a
// caller's own io.Reader may also not be safe to read from another goroutine.
type policy struct {
	mode  policyMode
	retry int64 // retryBytes; tests lower it
	ok    bool  // this source may be read ahead

	// Sampling the plain loop.
	countdown int // records before the next sample
	samples   int
	votes     int  // samples in which the body took at least startShare of the engine's time
	decided   bool // a first decision was made
	want      bool // the samples say read-ahead pays

	// The plain loop's cost per byte of record (engine and body), the median of the last
	// decision's samples: what read-ahead must beat.
	perByte [decideSamples]float64
	plainNs float64

	// Judging a running producer.
	since  int64 // when the judgement window began (now)
	waitNs int64 // time the caller waited for chunks in it
	recv   int64 // bytes received in it

	// Backing off.
	fails   int   // producers stopped in a row
	retryAt int64 // no producer starts before this input offset
	starts  int   // producers started since the source was set (tests)
}

type policyMode uint8

const (
	policyAuto       policyMode = iota // measure, as above
	policyAlways                       // tests: start whenever allowed, never judge
	policyAlwaysIdle                   // tests: start whenever allowed, judge idle every time
)

const (
	sampleRecords = 256
	sampleBytes   = 64 << 10
	decideSamples = 16
	firstRecords  = 32
	firstSamples  = 4
	startShare    = 1000
	judgeBytes    = 8 << 20
	judgeTime     = int64(20 * time.Millisecond)
	idleShare     = 50
	fasterBy      = 0.9 // read-ahead must beat the plain loop's time by 10%
	retryBytes    = 16 << 20
	maxBackoff    = 6
)

var epoch = time.Now()

// now is a monotonic clock reading in nanoseconds.
func now() int64 { return int64(time.Since(epoch)) }

// clockCost returns what one reading of now costs, measured once: the median of a few
// back-to-back readings.
var clockCost = sync.OnceValue(func() int64 {
	var d [31]int64
	for i := range d {
		t := now()
		d[i] = now() - t
	}
	slices.Sort(d[:])
	return d[len(d)/2]
})

// allow starts the policy over for a new source.
func (p *policy) allow(src io.Reader, cfg config) {
	mode, retry := p.mode, p.retry
	if retry == 0 {
		retry = retryBytes
	}
	*p = policy{mode: mode, retry: retry}
	p.ok = cfg.err == nil && runtime.GOMAXPROCS(0) >= 2 && (mode != policyAuto || regularFile(src))
	p.countdown = math.MaxInt
	if p.ok {
		p.countdown = 1
	}
	p.want = mode != policyAuto
}

func regularFile(src io.Reader) bool {
	f, ok := src.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode().IsRegular()
}

// sample records one timed step of the plain loop: the engine took engineNs for a record
// of size bytes, the loop body bodyNs.
//
// The first decision comes sooner (firstSamples samples, firstRecords records apart), so
// that a loop over a small file does not end before it; a wrong first start costs at most
// one judgement's worth of read-ahead.
func (p *policy) sample(engineNs, bodyNs int64, size int) {
	if p.mode != policyAuto {
		p.countdown = 1
		return
	}
	every, need := sampleRecords, decideSamples
	if !p.decided {
		every, need = firstRecords, firstSamples
	}
	p.countdown = max(1, min(every, sampleBytes/(size+1)))
	// The clock's own cost is in both readings: take it out.
	engineNs, bodyNs = max(0, engineNs-clockCost()), max(0, bodyNs-clockCost())
	p.perByte[p.samples] = float64(engineNs+bodyNs) / float64(size+1)
	// Each sample votes, so that one step slowed by a page fault, a collection or the
	// scheduler cannot swing the decision as it would swing a sum of times. A record
	// larger than a chunk votes against: the producer would not take it.
	if bodyNs*100 >= engineNs*startShare && size <= chunkBytes {
		p.votes++
	}
	if p.samples++; p.samples >= need {
		p.want = 2*p.votes > p.samples
		costs := p.perByte[:p.samples]
		slices.Sort(costs)
		p.plainNs = costs[len(costs)/2]
		p.samples, p.votes, p.decided = 0, 0, true
	}
}

func (p *policy) started() {
	p.starts++
	p.since, p.waitNs, p.recv = now(), 0, 0
}

func (p *policy) waited(ns int64) { p.waitNs += ns }

// received counts a chunk's bytes, and reports whether the producer should stop.
func (p *policy) received(size int64) bool {
	p.recv += size
	if p.mode == policyAlways || p.recv < judgeBytes && p.mode == policyAuto {
		return false
	}
	t := now()
	span := t - p.since
	if span < judgeTime && p.mode == policyAuto {
		return false
	}
	// Not paying: the caller mostly waited for the producer (its body is too light), or
	// the loop ran no faster than the plain loop would have (no core to spare: another
	// load on the machine, or the hand-over costs what the overlap saves).
	slower := p.plainNs > 0 && float64(span) > fasterBy*p.plainNs*float64(p.recv+1)
	idle := p.waitNs*100 > span*idleShare || slower || p.mode == policyAlwaysIdle
	p.since, p.waitNs, p.recv = t, 0, 0
	if !idle {
		p.fails = 0
	}
	return idle
}

// stopped backs off after a producer that did not pay; end is the input offset reached.
func (p *policy) stopped(end int64) {
	p.retryAt = end + p.retry<<min(p.fails, maxBackoff)
	p.fails++
	p.want = p.mode != policyAuto
	p.samples, p.votes = 0, 0
}

// mayStart reports whether a producer may start now, the engine being where it is.
func (r *Reader) mayStart() bool {
	e := &r.e
	return r.pol.want && r.pol.ok && !e.done && !e.eof && !e.partial && e.reads >= 2 &&
		(e.end() >= r.pol.retryAt || r.pol.mode != policyAuto && r.pol.mode != policyAlwaysIdle)
}
