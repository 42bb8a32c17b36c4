package bzblock

// Following the chain of successors of the inverse BWT is a chain of
// dependent loads from an array of 4 bytes per byte of the block (3.6 MB at
// level 9, beyond the L2 cache): each load waits for the one before, and
// one walk costs a load's full latency per byte. Walks from several places
// of the chain at once have independent loads, which the processor
// overlaps: entries spread over the array are marked, each walk starts at a
// mark and stops at the next mark it meets, and the pieces, put in the
// order of the marks they stop at, are the chain from its start. There are
// many more marks than walks running at once, so that the pieces are short
// and the walks end together: when one stops, another starts at a mark
// not yet started from. The chain's length and shape are checked: a block
// whose chain is not one cycle through every entry (only a damaged block's
// can be otherwise) is walked again the plain way, so that its bytes are
// the same either way.
//
// A marked entry holds, in place of its byte and successor, the mark bit
// and the number of the walk that starts there (the walk keeps the entry
// itself), so that a walk that meets it knows at once where it stopped;
// the entries are put back afterwards. The walks running take their steps
// in rounds, all the same number, as many as the fullest of their chunks
// of output has room for, so that a step checks nothing but whether its
// walk met a mark (see round).

const (
	// walkCount is the number of walks (the marks), walkRunning how many
	// run at once, minWalks the shortest block they are used for.
	walkCount   = 1024
	walkRunning = 32
	minWalks    = 1 << 16
	// walkChunk is the size of the pieces of the pool the walks write in.
	walkChunk = 16 << 10
	// minRest is the shortest rest of a chunk given to another walk.
	minRest = 256
	// maxRound is the most steps the walks take between two looks at
	// which of them have stopped.
	maxRound = 128
	// mark is the bit of an entry of tt that marks a walk's start; entries
	// hold a byte and an index below 2^20 (a block is at most 900,000).
	mark      = 1 << 31
	indexMask = 1<<20 - 1
)

// chunk is a run of a walk's bytes in the pool, in the order written.
type chunk struct {
	walk     int
	off, len int
}

// walks follows the chain from first with walkCount walks into the pool,
// and leaves the runs of bytes in chain order in d.pieces. It reports
// whether the chain was one cycle through the n entries.
func (d *Decoder) walks(first uint32, n int) bool {
	tt := d.tt[:n]
	var starts [walkCount]uint32
	starts[0] = first
	k := 1
	for j := 1; j < walkCount; j++ {
		// Distinct, as n >= minWalks > walkCount; first may be one.
		if q := uint32(j * n / walkCount); q != first {
			starts[k] = q
			k++
		}
	}
	// The pool: the block, the rests of chunks too short to reuse, and
	// the chunks of the walks running and of the rests left at the end.
	d.grow(n + walkCount*minRest + 2*(walkRunning+1)*walkChunk)
	var orig [walkCount]uint32
	var next [walkCount]int
	for j, s := range starts[:k] {
		orig[j], next[j] = tt[s], -1
	}
	for j, s := range starts[:k] {
		tt[s] = mark | uint32(j)
	}
	ok := d.follow(orig[:k], next[:k], tt)
	for j, s := range starts[:k] {
		tt[s] = orig[j]
	}
	return ok && d.order(next[:k], n)
}

// order puts the chunks in d.pieces in chain order: the walks' in the order
// of the marks they stopped at from the first walk's, each walk's in the
// order written. It reports whether the walks make one cycle of n bytes.
func (d *Decoder) order(next []int, n int) bool {
	var place [walkCount]int // place[j]: walk j's place in the chain
	var seen [walkCount]bool
	j := 0
	for p := range next {
		if seen[j] {
			return false
		}
		seen[j], place[j] = true, p
		if j = next[j]; j < 0 {
			return false
		}
	}
	if j != 0 {
		return false
	}
	// A counting sort of the chunks by their walk's place.
	var at [walkCount + 1]int
	for _, c := range d.chunks {
		at[place[c.walk]+1]++
	}
	for p := range len(next) {
		at[p+1] += at[p]
	}
	d.pieces = append(d.pieces[:0], make([][]byte, len(d.chunks))...)
	total := 0
	for _, c := range d.chunks {
		p := &at[place[c.walk]]
		d.pieces[*p] = d.pool[c.off : c.off+c.len]
		*p++
		total += c.len
	}
	return total == n
}

// take gives a chunk of the pool not in use: the rest of a chunk a walk
// stopped in, or a new one; false when the pool has none left (the walks
// went on too long: the chain is not one cycle).
func (d *Decoder) take() (off, end int, ok bool) {
	if k := len(d.free); k > 0 {
		c := d.free[k-1]
		d.free = d.free[:k-1]
		return c.off, c.off + c.len, true
	}
	if d.bump+walkChunk > len(d.pool) {
		return 0, 0, false
	}
	d.bump += walkChunk
	return d.bump - walkChunk, d.bump, true
}

// slots are the walks running, in arrays of their own so that a step is a
// few instructions: slot s runs walk id[s], whose next entry to write is
// e[s], into its chunk of the pool from off[s] to end[s], written up to
// at[s]. A walk that meets a mark in a round is parked for the rest of it:
// met[s] is the marked entry, stop[s] the bytes it wrote in the round.
type slots struct {
	id   [walkRunning]int
	e    [walkRunning]uint32
	off  [walkRunning]int
	at   [walkRunning]int
	end  [walkRunning]int
	met  [walkRunning]uint32
	stop [walkRunning]int
	n    int // slots in use
}

// follow runs the walks from their first entries orig, walkRunning at a
// time, until each has met a mark, and records the chunks they wrote in
// d.chunks and in next the walk whose mark each met. It returns false when
// they take more than len(tt) steps between them (the chain has more than
// one cycle) or the pool runs out. tt[len(tt)] is free for the sink.
func (d *Decoder) follow(orig []uint32, next []int, tt []uint32) bool {
	// Each step writes a byte of the chain, but those of walks parked.
	budget := len(tt) + len(orig)*maxRound
	sink := uint32(len(tt)) << 8
	tt = tt[:len(tt)+1]
	tt[len(tt)-1] = sink
	var sl slots
	queued := 0 // the walks from queued on have not started
	d.free, d.chunks, d.bump = d.free[:0], d.chunks[:0], 0
	for sl.n > 0 || queued < len(orig) {
		for ; sl.n < walkRunning && queued < len(orig); queued++ {
			off, end, ok := d.take()
			if !ok {
				return false
			}
			s := sl.n
			sl.id[s], sl.e[s], sl.off[s], sl.at[s], sl.end[s] = queued, orig[queued], off, off, end
			sl.n++
		}
		r := maxRound
		for s := range sl.n {
			r = min(r, sl.end[s]-sl.at[s])
		}
		if budget -= sl.n * r; budget < 0 {
			return false
		}
		round(&sl, d.pool, tt, r, sink)
		if !d.settle(&sl, next) {
			return false
		}
	}
	return true
}

// round takes r steps (r >= 1) of every walk running. Each step writes a
// walk's byte and loads its next entry; the loads of a step's walks are
// independent, and the processor overlaps them. A walk that meets a mark
// is parked on the sink, an entry that leads to itself, which it writes
// over its chunk's room, to be taken out by settle.
func round(sl *slots, pool []byte, tt []uint32, r int, sink uint32) {
	es, at, stop := sl.e[:sl.n], sl.at[:sl.n], sl.stop[:sl.n]
	for s := range stop {
		stop[s] = -1
	}
	for i := range r {
		for s, e := range es {
			pool[at[s]+i] = byte(e)
			e = tt[e>>8&indexMask]
			if e&mark != 0 {
				sl.met[s], stop[s] = e, i+1
				e = sink
			}
			es[s] = e
		}
	}
	for s := range at {
		if stop[s] < 0 {
			at[s] += r
		} else {
			at[s] += stop[s]
		}
	}
}

// settle records the chunks of the walks that have met a mark or filled
// their chunk, takes the first out of the slots and gives the others a new
// chunk; false when the pool has none left.
func (d *Decoder) settle(sl *slots, next []int) bool {
	k := 0
	for s := range sl.n {
		id, e, off, at, end := sl.id[s], sl.e[s], sl.off[s], sl.at[s], sl.end[s]
		if sl.stop[s] >= 0 {
			next[id] = int(sl.met[s] &^ mark)
			d.chunks = append(d.chunks, chunk{walk: id, off: off, len: at - off})
			if end-at >= minRest {
				d.free = append(d.free, chunk{off: at, len: end - at})
			}
			continue
		}
		if at == end {
			d.chunks = append(d.chunks, chunk{walk: id, off: off, len: at - off})
			var ok bool
			if off, end, ok = d.take(); !ok {
				return false
			}
			at = off
		}
		sl.id[k], sl.e[k], sl.off[k], sl.at[k], sl.end[k] = id, e, off, at, end
		k++
	}
	sl.n = k
	return true
}
