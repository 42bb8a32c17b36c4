package bzblock

// Following the chain of successors of the inverse BWT is a chain of
// dependent loads from an array of 4 bytes per byte of the block (3.6 MB at
// level 9, beyond the L2 cache): each load waits for the one before, and
// the walk takes most of a block's decoding time. Walks from several places
// of the chain at once have independent loads, which the processor
// overlaps: entries spread over the array are marked, each walk starts at a
// mark and stops at the next mark it meets, and the pieces, put in the
// order of the marks they stop at, are the chain from its start. There are
// many more marks than walks running at once, so that the pieces are short
// and the walks end together: when one stops, another starts at a mark
// not yet started from. The chain's length and shape are
// checked: a block whose chain is not one cycle through every entry (only
// a damaged block's can be otherwise) is walked again the plain way, so
// that its bytes are the same either way.

const (
	// walkCount is the number of walks (the marks), walkRunning how many
	// run at once, minWalks the shortest block they are used for.
	walkCount   = 128
	walkRunning = 24
	minWalks    = 1 << 16
	// walkChunk is the size of the pieces of the pool the walks write in.
	walkChunk = 16 << 10
	// minRest is the shortest rest of a chunk given to another walk.
	minRest = 256
	// mark is the bit of an entry of tt that marks a walk's start; entries
	// hold a byte and an index below 2^20 (a block is at most 900,000).
	mark      = 1 << 31
	indexMask = 1<<20 - 1
)

// walk is one of the walks: where it is and what it has produced.
type walk struct {
	e uint32 // the entry of tt at its position
	// off is the offset in the pool of the chunk it writes in, n the bytes
	// written there, size its size.
	off, n, size int
	next         int // the walk whose start it stopped at; -1 while it runs
}

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
		q := uint32(j * n / walkCount)
		dup := false
		for _, s := range starts[:k] {
			dup = dup || s == q
		}
		if !dup {
			starts[k] = q
			k++
		}
	}
	// The pool: the block, the rests of chunks too short to reuse, and
	// the chunks of the walks running and of the rests left at the end.
	d.grow(n + walkCount*minRest + 2*(walkRunning+1)*walkChunk)
	d.chunks = d.chunks[:0]
	d.bump = 0
	var ws [walkCount]walk
	for j := range k {
		ws[j] = walk{e: tt[starts[j]], next: -1}
	}
	for _, s := range starts[:k] {
		tt[s] |= mark
	}
	ok := d.follow(ws[:k], starts[:k], tt)
	for _, s := range starts[:k] {
		tt[s] &^= mark
	}
	if !ok {
		return false
	}

	// The runs in chain order, from the first walk's.
	d.pieces = d.pieces[:0]
	total, j := 0, 0
	for range k {
		for _, c := range d.chunks {
			if c.walk == j {
				d.pieces = append(d.pieces, d.pool[c.off:c.off+c.len])
				total += c.len
			}
		}
		j = ws[j].next
	}
	return j == 0 && total == n
}

// take gives w an unused chunk of the pool: the rest of a chunk a walk
// stopped in, or a new one; false when the pool has none left (the walks
// went on too long: the chain is not one cycle).
func (d *Decoder) take(w *walk) bool {
	w.n = 0
	if k := len(d.free); k > 0 {
		w.off, w.size = d.free[k-1].off, d.free[k-1].len
		d.free = d.free[:k-1]
		return true
	}
	if d.bump+walkChunk > len(d.pool) {
		return false
	}
	w.off, w.size = d.bump, walkChunk
	d.bump += walkChunk
	return true
}

// stop records the last chunk of a walk that has stopped, and keeps the
// rest of it for another.
func (d *Decoder) stop(j int, w *walk) {
	d.keep(j, w)
	if w.size-w.n >= minRest {
		d.free = append(d.free, chunk{off: w.off + w.n, len: w.size - w.n})
	}
}

// keep records a walk's full (or last) chunk.
func (d *Decoder) keep(j int, w *walk) {
	d.chunks = append(d.chunks, chunk{walk: j, off: w.off, len: w.n})
}

// slots are the walks running: their state in arrays of their own (entry,
// where they write, where their chunk ends), so that a step is a few
// instructions.
type slots struct {
	id  [walkRunning]int    // the walk in each slot
	e   [walkRunning]uint32 // its entry
	at  [walkRunning]int    // where in the pool it writes next
	end [walkRunning]int    // where its chunk ends
	n   int                 // slots in use
}

// save puts slot s's state back into its walk.
func (sl *slots) save(ws []walk, s int) *walk {
	w := &ws[sl.id[s]]
	w.e, w.n = sl.e[s], sl.at[s]-w.off
	return w
}

// follow runs the walks, walkRunning at a time, until each has stopped at
// a mark; false when they take more than len(tt) steps between them (the
// chain has more than one cycle). Each round takes one step of every walk
// running: their loads are independent, and the processor overlaps them.
func (d *Decoder) follow(ws []walk, starts []uint32, tt []uint32) bool {
	budget := len(tt)
	var sl slots
	pool := d.pool
	queued := 0 // the walks from queued on have not started
	d.free = d.free[:0]
	for sl.n > 0 || queued < len(ws) {
		for ; sl.n < walkRunning && queued < len(ws); queued++ {
			w := &ws[queued]
			if !d.take(w) {
				return false
			}
			sl.id[sl.n], sl.e[sl.n], sl.at[sl.n], sl.end[sl.n] = queued, w.e, w.off, w.off+w.size
			sl.n++
		}
		if budget -= sl.n; budget < 0 {
			return false
		}
		stopped := false
		for s := range sl.n {
			if sl.at[s] == sl.end[s] {
				w := sl.save(ws, s)
				d.keep(sl.id[s], w)
				if !d.take(w) {
					return false
				}
				sl.at[s], sl.end[s] = w.off, w.off+w.size
			}
			pool[sl.at[s]] = byte(sl.e[s])
			sl.at[s]++
			p := sl.e[s] >> 8 & indexMask
			sl.e[s] = tt[p]
			if sl.e[s]&mark != 0 {
				ws[sl.id[s]].next = index(starts, p)
				stopped = true
			}
		}
		if stopped {
			d.compact(&sl, ws)
		}
	}
	return true
}

// compact takes the walks that have stopped out of the slots.
func (d *Decoder) compact(sl *slots, ws []walk) {
	k := 0
	for s := range sl.n {
		w := sl.save(ws, s)
		if w.next >= 0 {
			d.stop(sl.id[s], w)
			continue
		}
		sl.id[k], sl.e[k], sl.at[k], sl.end[k] = sl.id[s], sl.e[s], sl.at[s], sl.end[s]
		k++
	}
	sl.n = k
}

func index(starts []uint32, p uint32) int {
	for i, s := range starts {
		if s == p {
			return i
		}
	}
	return -1
}
