package pgzip

import "time"

// plan cuts a member's deflate stream into shares as it is read: every
// Workers-th share, the first included, is the consumer's own, decoded by
// the goroutine calling Read (stream), the others are sent to the workers
// as chunks. The shares' sizes follow what is measured on the way: the
// consumer's grows when it waits for the chunks and shrinks when they wait
// for it; the workers' shrinks where the text is so compressed that a
// chunk's would not fit in MaxChunkText; and no more chunks are sent when
// taking one costs the consumer nearly what decoding its text would: text
// whose every byte goes back to the window before its chunk (all of it
// symbols to resolve) and that decodes fast, as logs of near-identical
// lines do.
type plan struct {
	opt Options
	// pending are the chunks sent to the workers and not yet let go, in
	// the order of the stream; nextLo is where the next share starts, in
	// bits of the file, share its number.
	pending []*chunk
	nextLo  int64
	share   int
	// ratio is the size of the consumer's shares to the workers', whose
	// share is workerShare bits. It starts at 0.9: on real text a worker's
	// byte costs it 1.0 to 1.3 times the consumer's own, and taking the
	// worker's chunk costs the consumer 0.1 to 0.3 more (TestModel).
	ratio       float64
	workerShare int64
	// speculate is cleared when chunks cost the consumer too much.
	speculate bool
	// stream and take are the consumer's time decoding text itself and
	// taking chunks (markers, CRC, history), with the bytes of text, and
	// of those taken the bytes that were symbols.
	stream, take struct {
		time           time.Duration
		bytes, symbols int64
	}
}

func newPlan(start int64, opt Options) plan {
	return plan{opt: opt, nextLo: start, ratio: 0.9, workerShare: opt.ChunkSize * 8, speculate: true}
}

// Bounds of the plan.
const (
	minShare = 64 << 10 // the least compressed bytes of a worker's share
	// maxTakeCost is the most a chunk's byte may cost the consumer to take,
	// to a byte it decodes itself, for chunks to be worth sending, once
	// they are mostly symbols (minSymbols of their text): the cost of
	// taking a chunk is mostly that of resolving them, and a measure of
	// wall time can be disturbed (on a busy machine) where that of the
	// text cannot.
	maxTakeCost = 0.7
	minSymbols  = 0.75
	// judgeAfter is how much text of each kind the consumer measures
	// before it judges.
	judgeAfter = 4 << 20
)

// send gives the workers chunks while fewer than the crew's depth are in
// flight and the stream, to end (the file's end, in bits), has shares left.
func (m *member) send() {
	pl, crew := &m.plan, m.r.crew
	end := m.r.size * 8
	for len(pl.pending) < crew.depth && pl.nextLo < end && !m.ended && pl.speculate {
		own := pl.share%pl.opt.Workers == 0
		size := pl.workerShare
		if own {
			size = int64(float64(size) * pl.ratio)
		}
		lo := pl.nextLo
		hi := min(end, lo+size)
		if end-hi < pl.opt.ChunkSize*4 {
			hi = end // no short last share
		}
		pl.nextLo = hi
		if pl.share++; own {
			continue
		}
		c := newChunk(lo, hi)
		pl.pending = append(pl.pending, c)
		crew.jobs <- c
	}
}

// balance moves the consumer's share of the work towards the balance: more
// when it waited for a chunk, less when the chunk waited for it (the worker
// idle, memory held).
func (pl *plan) balance(waited, idle time.Duration) {
	const step, slack = 1.2, time.Millisecond
	switch {
	case waited > slack:
		pl.ratio = min(4, pl.ratio*step)
	case idle > slack:
		pl.ratio = max(0.25, pl.ratio/step)
	}
}

// streamed counts n bytes the consumer decoded in d.
func (pl *plan) streamed(n int, d time.Duration) {
	pl.stream.time += d
	pl.stream.bytes += int64(n)
}

// took counts a chunk taken in d, makes the workers' shares small enough
// that their text fits in MaxChunkText (three quarters of it) at the
// chunk's compression, and stops speculating if chunks cost too much.
func (pl *plan) took(t *chunkText, d time.Duration) {
	pl.take.time += d
	pl.take.bytes += int64(len(t.data))
	pl.take.symbols += int64(len(t.symbols))
	if bits := t.end - t.start; bits > 0 && len(t.data) > 0 {
		fit := int64(float64(pl.opt.MaxChunkText) * 0.75 * float64(bits) / float64(len(t.data)))
		pl.workerShare = min(pl.opt.ChunkSize*8, max(minShare*8, fit))
	}
	if pl.take.bytes >= judgeAfter && pl.stream.bytes >= judgeAfter && float64(pl.take.symbols) >= minSymbols*float64(pl.take.bytes) {
		perTake := pl.take.time.Seconds() / float64(pl.take.bytes)
		perStream := pl.stream.time.Seconds() / float64(pl.stream.bytes)
		pl.speculate = perTake <= maxTakeCost*perStream
	}
}
