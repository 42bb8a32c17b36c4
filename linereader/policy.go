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
//     copy) and the loop body's. The time between two such steps, over the input bytes
//     between them, is the plain loop's whole pace, reads and collections included:
//     what read-ahead must beat. Steps come in blocks of blockSamples, and each block
//     votes, on the means of its engine and body times but the largest eighth of each.
//     Read-ahead starts when most blocks of a decision (decideSamples steps) found the
//     body at least startShare percent of the engine's time, 1.8 times it, and the plain
//     pace has been measured over at least minPlainTime. A decision that says no is
//     followed by one on twice as many steps, up to maxSamples: a body near the
//     threshold would otherwise win one of many decisions by chance.
//     Why 1.8: handing records to the other core costs the caller a cache miss or two
//     per record, so read-ahead gains only when the body outweighs the engine. Measured
//     on the project's 2-core VM (BenchmarkReadAheadPolicy, 64 MiB of 58-byte lines,
//     read-ahead forced on against off, medians of 6 rounds: scripts/readahead.sh,
//     benchmarks/results/readahead.md): a body hashing 32 bytes of each record, which
//     the steps find 1.2 to 1.9 times the engine, ran 1.04 times as fast by wall for 1.56
//     times the CPU time; an FNV-1a hash of the whole record, 1.5 to 2.9 times (most
//     blocks above 2), 1.23 times as fast for 1.36 times the CPU time; bodies hashing 16
//     bytes or less, 0.70 to 0.84 times as fast for 1.56 to 1.79 times the CPU time.
//     Read-ahead is for loop bodies that do real work per record (a hash of it, parsing
//     it), not for light ones.
//   - While: the caller times its waits for the producer. After judgeBytes of input
//     (counted from the first chunk, so that the producer's start is not judged as its
//     pace) and judgeTime, if the caller waited more than idleShare percent of the time,
//     its body is too light for the second core to pay, and read-ahead stops. It stops
//     too when the loop ran less than 10% faster than the plain loop's pace: then no
//     core was free, or handing records over cost what the overlap saved. Each
//     judgement weighs all before it three times as much as the window since: the pace
//     of one window of a few MiB can differ by half from the next.
//   - After: a producer that stopped because it did not pay is not started again before
//     retryBytes more of input, doubling at each failure in a row, up to maxBackoff
//     doublings. One that stopped at a record larger than a chunk (it never copies
//     those: their copy on another core costs the caller more in cache misses than it
//     saves) may start again after that record, unless it ran less than judgeBytes:
//     then records that long come too often, and it backs off the same way.
//
// Only a regular file is read ahead: a read from a pipe, a terminal or a socket can block
// for ever, and stopping the producer (when the loop breaks) would wait for it; a
// caller's own io.Reader may also not be safe to read from another goroutine.
type policy struct {
	mode  policyMode
	retry int64 // retryBytes; tests lower it
	ok    bool  // this source may be read ahead

	// Sampling the plain loop. Samples come in blocks of blockSamples; each block votes;
	// a decision counts the votes of need samples.
	countdown int  // records before the next sample
	samples   int  // samples since the last decision
	need      int  // samples the next decision takes
	blocks    int  // blocks since the last decision
	votes     int  // blocks whose body took at least startShare percent of the engine's time
	want      bool // the last decision says read-ahead pays

	// The current block: each sample's engine and body time.
	engNs  [blockSamples]int64
	bodyNs [blockSamples]int64
	inBlk  int

	// The plain loop's whole cost, reads and collections included: plainT nanoseconds
	// over plainB input bytes, summed over the windows between samples, what read-ahead
	// must beat. winT and winEnd are the time and input offset where the current window
	// began (winT 0: none, as at the start of a loop, so that time spent outside the
	// loop never counts).
	plainT int64
	plainB int64
	winT   int64
	winEnd int64

	// Judging a running producer.
	since   int64 // when the judgement window began (now)
	waitNs  int64 // time the caller waited for chunks in it
	recv    int64 // input bytes received in it
	recvEnd int64 // the input offset the chunks received reached
	judged  int64 // recv at the last judgement
	from    int64 // the input offset the producer started at
	warm    bool  // no chunk received yet

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
	blockSamples  = 16
	decideSamples = 16
	maxSamples    = 1024
	minPlainTime  = int64(10 * time.Millisecond)
	startShare    = 180
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

// sample records one timed step of the plain loop, which began at t0 with end bytes of
// input consumed: the engine took it to t1 to cut (and copy) a record of size bytes, the
// loop body from t1 to t2.
func (p *policy) sample(t0, t1, t2, end int64, size int) {
	if p.mode != policyAuto {
		p.countdown = 1
		return
	}
	need := max(p.need, decideSamples)
	p.countdown = max(1, min(sampleRecords, sampleBytes/(size+1)))
	winT, winEnd := p.winT, p.winEnd
	p.winT, p.winEnd = t0, end
	if winT == 0 || end <= winEnd {
		// No window ends here: a loop's first sample only starts one.
		return
	}
	p.plainT += t0 - winT
	p.plainB += end - winEnd
	// The clock's own cost is in both readings: take it out. A record larger than a
	// chunk counts as a step with no body: the producer would not take it.
	p.engNs[p.inBlk] = max(0, t1-t0-clockCost())
	p.bodyNs[p.inBlk] = max(0, t2-t1-clockCost())
	if size > chunkBytes {
		p.bodyNs[p.inBlk] = 0
	}
	p.samples++
	if p.inBlk++; p.inBlk == blockSamples {
		// The block votes on the means of its engine and body times but the largest
		// eighth of each: a step that a page fault, a read, a collection or the
		// scheduler stretched would swing a plain mean, and one-step votes are too
		// coarse (a step of a few dozen nanoseconds is a few ticks of the clock).
		p.blocks++
		if 100*trimmedSum(p.bodyNs[:]) >= startShare*trimmedSum(p.engNs[:]) {
			p.votes++
		}
		p.inBlk = 0
	}
	if p.samples < need || p.inBlk != 0 {
		return
	}
	heavy := 2*p.votes > p.blocks
	// Read-ahead must beat the plain loop's pace, so that pace is measured first, over
	// enough of the loop to hold reads and collections (minPlainTime).
	p.want = heavy && p.plainT >= minPlainTime
	// A loop whose body is not heavy enough is asked again, but on twice as many
	// samples each time (up to maxSamples): the body of a loop rarely changes, and a
	// body near the threshold would otherwise win one of many decisions by chance.
	p.need = decideSamples
	if !heavy {
		p.need = min(2*need, maxSamples)
	}
	p.samples, p.blocks, p.votes = 0, 0, 0
}

// plainNs is the plain loop's cost per input byte, 0 when it was not measured.
func (p *policy) plainNs() float64 {
	if p.plainB == 0 {
		return 0
	}
	return float64(p.plainT) / float64(p.plainB)
}

// trimmedSum sorts d and returns the sum of all but its largest eighth.
func trimmedSum(d []int64) int64 {
	slices.Sort(d)
	var sum int64
	for _, v := range d[:len(d)-(len(d)+7)/8] {
		sum += v
	}
	return sum
}

// started starts judging a producer that begins at input offset end.
func (p *policy) started(end int64) {
	p.starts++
	p.waitNs, p.recv, p.recvEnd, p.judged, p.warm, p.from = 0, 0, end, 0, true, end
}

// ranShort reports whether the producer delivered less than a judgement's worth of input
// (judgeBytes) before it returned.
func (p *policy) ranShort() bool { return p.mode == policyAuto && p.recvEnd-p.from < judgeBytes }

// loop says a Lines or Batches loop begins: the time before it is not the loop's.
func (p *policy) loop() { p.winT = 0 }

func (p *policy) waited(ns int64) { p.waitNs += ns }

// received counts a chunk whose records reach input offset end, received at time t, and
// reports whether the producer should stop.
func (p *policy) received(end, t int64) bool {
	if p.warm {
		// The first chunk: judging starts now, not when the producer started, so
		// that its start (the goroutine, the first read) is not judged as its pace.
		p.warm = false
		p.since, p.recvEnd, p.waitNs = t, end, 0
		return false
	}
	p.recv += end - p.recvEnd
	p.recvEnd = end
	if p.mode == policyAlways || p.recv-p.judged < judgeBytes && p.mode == policyAuto {
		return false
	}
	span := t - p.since
	if span < judgeTime && p.mode == policyAuto {
		return false
	}
	// Not paying: the caller mostly waited for the producer (its body is too light), or
	// the loop ran no faster than the plain loop would have (no core to spare: another
	// load on the machine, or the hand-over costs what the overlap saves).
	plain := p.plainNs()
	slower := plain > 0 && float64(span) > fasterBy*plain*float64(p.recv+1)
	idle := p.waitNs*100 > span*idleShare || slower || p.mode == policyAlwaysIdle
	if !idle {
		p.fails = 0
	}
	// The next judgement weighs what came before this one three times as much as the
	// window since: the pace of one window of a few MiB can differ by half from the next
	// (the collector, the reads), which would stop a producer that pays over the loop,
	// while a loop that stops paying is still caught within a few windows.
	p.since, p.waitNs, p.recv = t-span*3/4, p.waitNs*3/4, p.recv*3/4
	p.judged = p.recv
	return idle
}

// stopped backs off after a producer that did not pay; end is the input offset reached.
func (p *policy) stopped(end int64) {
	p.retryAt = end + p.retry<<min(p.fails, maxBackoff)
	p.fails++
	p.want = p.mode != policyAuto
	p.samples, p.blocks, p.votes, p.inBlk, p.winT = 0, 0, 0, 0, 0
}

// mayStart reports whether a producer may start now, the engine being where it is.
func (r *Reader) mayStart() bool {
	e := &r.e
	return r.pol.want && r.pol.ok && !e.done && !e.eof && !e.partial && e.reads >= 2 &&
		(e.end() >= r.pol.retryAt || r.pol.mode != policyAuto && r.pol.mode != policyAlwaysIdle)
}
