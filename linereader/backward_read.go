package linereader

// The reading side of NewBackward: blocks read backwards into the window (fill), what
// can be read before a failed block (readable), a record too long for the window
// located and read forward from src (locate, longNext), and Batches (batch).

// fill reads the bytes before the window: a block aligned to BufferSize, or more while
// the buffer has room, in front of data[:c.lo], the start of the record in progress,
// which has no boundary. The buffer keeps room for a block: it doubles for a record
// longer than it (up to longAt: see locate), and goes back to twice BufferSize once such
// a record is passed.
func (b *backward) fill() bool {
	c := b.c
	if b.rerr != nil {
		return c.stop(b.rerr)
	}
	keep := c.lo
	bs := b.cfg.readSize
	win := b.win
	if want := max(2*bs, keep+bs); len(win) < want {
		win = make([]byte, max(2*len(win), want))
	} else if len(win) > 4*want {
		win = make([]byte, want)
	}
	room := int64(len(win) - keep)
	lo := max(0, c.base-room)
	if a := (lo + int64(bs) - 1) / int64(bs) * int64(bs); a < c.base {
		lo = a // reads end at multiples of BufferSize after the first
	}
	dst := len(win) - keep
	copy(win[dst:], c.data[:keep])
	b.win, c.data = win, win[dst:]
	p := win[dst-int(c.base-lo) : dst]
	c.reads++
	if err := readBlock(b.src, p, lo); err != nil {
		b.rerr = err
		n := b.readable(p, lo)
		if n == 0 {
			return c.stop(err)
		}
		p, lo = p[len(p)-n:], c.base-int64(n)
	}
	n := len(p)
	c.data = win[dst-n:]
	c.base = lo
	c.lo, c.hi, c.start = c.lo+n, c.hi+n, c.start+n
	b.ends, b.k, b.from = b.ends[:0], 0, n
	return true
}

// readable returns how many of the last bytes of p, which a read of src at off failed to
// fill, can be read, and reads them: the read may have failed at one bad byte, and the
// records after it are still to be yielded. It searches for the longest readable suffix
// by halves, a few reads of the failed block, on the error path only.
func (b *backward) readable(p []byte, off int64) int {
	good, bad := 0, len(p) // a suffix of good bytes reads; one of bad does not
	for bad-good > 1 {
		mid := (good + bad) / 2
		b.c.reads++
		if readBlock(b.src, p[len(p)-mid:], off+int64(len(p)-mid)) == nil {
			good = mid
		} else {
			bad = mid
		}
	}
	if good == 0 {
		return 0
	}
	// A failed read after the last good one may have written into its bytes.
	b.c.reads++
	if readBlock(b.src, p[len(p)-good:], off+int64(len(p)-good)) != nil {
		return 0
	}
	return good
}

// locate finds where the record in progress starts, once what the window holds of it
// (data[:c.lo]) outgrows longAt: it reads on backwards from there without keeping the
// bytes (tailStart), and makes the record the long one, read forward from src when it is
// yielded. The window is emptied, and given back if it grew.
func (b *backward) locate() bool {
	c := b.c
	end := c.base + int64(c.lo)
	start, reads, err := tailStart(b.src, end, 1, b.cfg)
	c.reads += reads
	if err != nil {
		return c.stop(err)
	}
	b.setLong(start, end)
	return true
}

// setLong makes src[start:end) the long record, read forward from src when it is
// yielded (longNext). The window is emptied, and given back if it grew.
func (b *backward) setLong(start, end int64) {
	c := b.c
	stop := end
	if b.cfg.opt.Chomp {
		stop = start + int64(b.chompedLen(start, end))
	}
	b.long = longRecord{start: start, end: end, at: start, stop: stop, active: true}
	if len(b.win) > 4*b.cfg.readSize {
		b.win = nil // fill makes one of twice BufferSize
	}
	c.data = b.win[len(b.win):]
	c.base, c.lo, c.hi, c.start = start, 0, -1, 0
	b.ends, b.k, b.from = b.ends[:0], 0, 0
	b.setFast()
}

// chompedLen returns the length of src[start:end), a record, without the separator that
// Chomp removes from its end: its last bytes are read to see.
func (b *backward) chompedLen(start, end int64) int {
	k := min(end-start, int64(len(b.cfg.sep)+1)) // "\r\n" for the default separator
	tail := make([]byte, k)
	b.c.reads++
	if readBlock(b.src, tail, end-k) != nil {
		return int(end - start) // the read of the record itself reports the error
	}
	return int(end-start) - (len(tail) - len(b.cfg.chomp(tail)))
}

// longNext yields the long record: its length is first checked against MaxRecord;
// whole, it is read into one array of its own length; with pieces (Pieces, Runs), the
// next BufferSize bytes of it are read into the window. settled is false when
// TooLongSkip skipped it (advance goes on with the record before it).
func (b *backward) longNext(pieces bool) (settled, ok bool) {
	c, l := b.c, &b.long
	if m := b.cfg.opt.MaxRecord; l.at == l.start && m > 0 && l.end-l.start > int64(m) {
		l.active = false // c.lo is 0 whatever it gets: nothing to set back
		yielded := b.overLong(l.start, l.end-l.start, func(p []byte) error {
			c.reads++
			return readBlock(b.src, p, l.start)
		}, 0, int(l.end-l.start))
		return yielded || c.err != nil, yielded
	}
	n := l.stop - l.at
	if pieces {
		n = min(n, int64(b.cfg.readSize))
	}
	var p []byte
	switch {
	case pieces:
		if len(b.win) < int(n) || b.win == nil { // never nil: an empty record (Multiline, Chomp) is not no record
			b.win = make([]byte, 2*b.cfg.readSize)
		}
		p = b.win[:n]
		c.data = b.win[len(b.win):]
	case b.join != nil:
		p = b.join.record(int(n), b.longAt) // a record of many lines is lent from a reused buffer
	default:
		p = make([]byte, n)
	}
	c.reads++
	if err := readBlock(b.src, p, l.at); err != nil {
		return true, c.stop(err)
	}
	if c.big = p; b.join != nil && !pieces {
		c.data, c.big = p, nil // lent (view), copied by line
	}
	c.lo = int(l.at - l.start)
	l.at += n
	c.hi, c.start = c.lo+len(p), c.lo+len(p)
	c.longest = max(c.longest, len(p))
	if l.piece = l.at < l.stop; !l.piece {
		c.start = int(l.end - l.start) // past the separator
		c.lineNo++
		l.active, l.ended = false, true
	}
	return true, true
}

// batch returns the next batch of Batches over a backward Reader: whole records, last
// first, copied into one fresh block; a record that does not fit in the block starts
// the next batch: it is carried (taken, and the cursor set back to the batch's last
// record until the next step). avg is as for the forward batch.
func (b *backward) batch(avg *int) [][]byte {
	c := b.c
	recs := make([][]byte, 0, min(batchBytes / *avg + 8, batchRecords))
	var block []byte
	for len(recs) < batchRecords && len(block) < batchBytes {
		saved := *c
		c.big = nil // the short path leaves big as it is
		if !b.next() {
			break
		}
		rec := c.view()
		if len(recs) > 0 && len(block)+len(rec) > cap(block) {
			taken := *c
			b.carry, *c = &taken, saved
			b.setFast()
			break
		}
		if len(recs) == 0 {
			block = make([]byte, 0, max(batchBytes, len(rec)))
		}
		i := len(block)
		block = append(block, rec...)
		rec = block[i:len(block):len(block)]
		recs = append(recs, rec)
		c.big = rec // the current record is held in the block
	}
	if len(recs) == 0 {
		return nil
	}
	// The batch's last record is the current one, even when the input ended after it.
	c.big = recs[len(recs)-1]
	c.hi = c.lo + len(c.big)
	b.fast = false // until advance lets go of big
	*avg = max(1, len(block)/len(recs))
	return recs
}
