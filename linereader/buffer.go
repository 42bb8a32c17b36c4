package linereader

import "io"

// Buffer management: the one place that reads (fill), and the one place the buffer is
// compacted, grown, given back or gathered into blocks (makeRoom).
//
// The buffer doubles while it is smaller than cfg.gatherAt (8 MiB, or twice BufferSize
// if more). A record that does not fit in a buffer that large is not grown into a chain
// of ever larger arrays, each copied and left behind for the collector (a 1 GiB line
// that way needed 3.5 GiB of memory at its peak): the full buffer's array itself becomes
// a block of the record, the buffer gets a fresh array of the same size, and when the
// record's end arrives its blocks are copied once into one array of the record's exact
// length (gatherEnd). So a record of L bytes costs one allocation of L at its end, and
// the memory it holds at the peak is its blocks and that array: about 2L plus a buffer,
// with no garbage beyond the smaller buffers of the growth. For Lines that array is the
// record handed out; with MaxRecord the blocks stop at the limit.

// fill reads from the source into the buffer, once makeRoom has made room for a read,
// keeping what is buffered in the buffer. fillRecord does the same for a record in
// progress that is wanted whole (not in pieces), which may be gathered into blocks: only
// advance's search calls it, so that no other path ever sees a record outside
// data[start:].
//
// A read that returns nothing and no error is tried again (readSome).
func (e *engine) fill() { e.read(false) }

func (e *engine) fillRecord() { e.read(true) }

func (e *engine) read(whole bool) {
	e.makeRoom(whole)
	n := min(e.buf.Cap()-e.buf.Len(), e.cfg.readSize)
	_, err := readSome(func() (int, error) { return e.buf.Fill(e.src, n) }, &e.reads)
	e.sync()
	e.quiet = err == ErrFlush
	if err != nil && !e.quiet {
		e.rerr = err
	}
}

// readSome calls read until it delivers data or an error, at most maxEmptyReads times in
// a row, as bufio does: a source that keeps returning nothing and no error has failed,
// with io.ErrNoProgress. It is the rule for every read of this package; calls counts the
// calls to read.
func readSome(read func() (int, error), calls *int) (int, error) {
	for range maxEmptyReads {
		n, err := read()
		*calls++
		if n > 0 || err != nil {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// makeRoom makes room for at least half a read. It moves the unconsumed bytes to the
// front when the room after them runs short, and also, once half the buffer is consumed,
// whenever what would move is no more than a read: cheap to move, and the record it
// begins gets the whole buffer. Then, if still short of room, it grows the buffer, or,
// for a record wanted whole once the buffer has reached gatherAt, gathers it.
func (e *engine) makeRoom(whole bool) {
	rs, c := e.cfg.readSize, e.buf.Cap()
	if len(e.data)-e.start > c/4 {
		e.sinceGrow = 0 // a long record is in progress
	}
	if e.start > 0 && (c-len(e.data) < rs || len(e.data)-e.start <= rs && e.start >= c/2) {
		e.compact()
		switch l := len(e.data); {
		case c > e.cfg.releaseCap && e.sinceGrow > int64(c) && l < c/4:
			// The buffer has outlived the long record that grew it.
			e.buf.Release(max(rs, 2*l))
			e.sinceGrow = 0
		case l > c/8*5 && c < e.cfg.gatherAt:
			// What moved fills most of the buffer: records this long would be moved at
			// nearly every read. Twice what moved and a read keeps the capacity under
			// twice the longest record and a read; never past gatherAt. (Not sooner: a
			// buffer larger than the cache makes every read cost more than the moves it
			// saves.)
			e.growBy(max(min(l+rs, e.cfg.gatherAt-l), rs))
		}
	}
	if spare := e.buf.Cap() - e.buf.Len(); spare > 0 && spare >= rs/2 {
		e.sync()
		return
	}
	if c := e.buf.Cap(); c < e.cfg.gatherAt || !whole {
		// Below gatherAt the buffer doubles (never past gatherAt). Past it, what is
		// not a record wanted whole (a record in pieces, or what another path than
		// advance's search is reading) cannot be gathered, only kept in the buffer.
		add := max(c, rs)
		if c < e.cfg.gatherAt {
			add = max(min(c, e.cfg.gatherAt-e.buf.Len()), rs)
		}
		e.growBy(add)
		return
	}
	if !e.gather() {
		e.growBy(max(c, rs)) // what fills the buffer is a line that may begin the next record
	}
}

// growBy grows the buffer to hold add more bytes.
func (e *engine) growBy(add int) {
	e.buf.Grow(add)
	e.sync()
	e.sinceGrow = 0
}

// compact drops the consumed prefix data[:start], moving the rest to the front; the last
// record's bounds and the search position move with it.
func (e *engine) compact() {
	s := e.start
	e.sinceGrow += int64(s)
	if s == len(e.data) {
		e.buf.Reset()
	} else {
		e.buf.Discard(s)
	}
	e.sync()
	e.base += int64(s)
	e.start, e.scan, e.lo, e.hi = 0, e.scan-s, e.lo-s, e.hi-s
}

// gather moves the record in progress, which fills the buffer, into e.blocks: the
// buffer's array itself becomes the block, and the buffer gets a fresh array of the same
// capacity. The record's last few bytes stay in the buffer, so that a separator, the "\r"
// of a "\r\n" that chomp removes, or a UTF-8 character that straddles the move is still
// seen whole by the search, Chomp and a UTF-8 Limit cut. With Multiline, only what is
// known to be the record's is gathered, its last separator and a "\r" before it kept:
// it reports false, gathering nothing, when that leaves nothing to gather.
func (e *engine) gather() bool {
	keep := len(e.cfg.sep) + 3
	cut := len(e.data) - keep
	if e.cfg.join != nil && !e.joining.open {
		cut = min(cut, e.joinKeep()-1)
	}
	if cut <= e.start {
		return false
	}
	e.blocks = append(e.blocks, e.data[e.start:cut:cut])
	e.before += cut - e.start
	tail := e.data[cut:]
	c := e.buf.Cap()
	e.buf.Reset()
	e.buf.Release(0) // the old array stays alive as the block, and only as the block
	e.buf.Grow(c)
	e.buf.Write(tail)
	e.sync()
	e.base += int64(cut)
	e.start, e.scan, e.lo, e.hi = 0, max(0, e.scan-cut), e.lo-cut, e.hi-cut
	e.sinceGrow = 0
	return true
}

// gatherEnd makes the gathered record, its blocks and then data[start:hi], one array of
// its own of the record's exact length, held in big: the one copy such a record costs.
// The blocks are dropped. It returns the record's length.
func (e *engine) gatherEnd(hi int) int {
	rec := make([]byte, e.before+hi-e.start)
	n := 0
	for _, b := range e.blocks {
		n += copy(rec[n:], b)
	}
	copy(rec[n:], e.data[e.start:hi])
	e.big, e.blocks = rec, nil
	e.lo = e.start - e.before // so that base+lo is the record's offset
	e.hi = e.lo + len(rec)
	return len(rec)
}

// release gives back a buffer grown beyond BufferSize, keeping the unconsumed bytes.
func (e *engine) release() {
	if e.buf.Cap() <= e.cfg.readSize {
		return
	}
	if e.start > 0 {
		e.compact()
	}
	e.buf.Release(max(e.cfg.readSize, e.buf.Len()))
	e.sync()
	e.sinceGrow = 0
}
