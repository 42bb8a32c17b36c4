package linereader

import "bytes"

// Records longer than MaxRecord that are skipped or cut (Options.TooLong) rather than
// stopping the loop. Such a record is read to its end without being kept: once it is
// known to be too long, its bytes are consumed as they come (drop), keeping only the
// last len(Sep)-1 that may begin its separator, so that the buffer never holds more of
// it than a read. TooLongCut keeps its first MaxRecord bytes first, as a block of their
// own (beginToss), and yields them with the separator that ended it (endToss).

// beginToss starts reading past the record in progress, which is longer than MaxRecord:
// for Cut, its first MaxRecord bytes (the blocks gathered, if any, and the rest from
// data[start:]) are kept in blocks; for Skip, nothing is. before counts every byte of
// the record no longer in data[start:], so that its offset stays end() - before.
func (e *engine) beginToss() {
	e.toss = true
	if e.cfg.opt.TooLong != TooLongCut {
		e.blocks = nil
		return
	}
	// before <= MaxRecord: search checks the record against it before every read.
	keep := e.cfg.opt.MaxRecord - e.before
	e.blocks = append(e.blocks, clone(e.data[e.start:e.start+keep]))
}

// tossTo returns how far the record being read past can be dropped, once searched to
// scan: up to scan, which keeps the bytes that may begin its separator, and with a UTF-8
// Limit, up to 4 bytes before the cut, which cutAtLimit looks back at.
func (e *engine) tossTo() int {
	to := e.scan
	if e.cfg.join != nil {
		to = e.joinKeep() // the bytes of a record of many lines known to be its own
	}
	if o := &e.cfg.opt; o.UTF8 && o.Limit > 0 {
		to = min(to, e.start+o.Limit-e.before-4)
	}
	return max(e.start, to)
}

// drop consumes data[start:to], bytes of a record being read past.
func (e *engine) drop(to int) {
	e.before += to - e.start
	e.start = to
}

// endToss ends a record read past MaxRecord at data[end] (line: it counts as a line).
// Skip drops it (settled false: advance goes on with the next record); Cut makes its
// first MaxRecord bytes, then its separator unless Chomp, the last record, in big.
func (e *engine) endToss(end int, line bool) (settled, ok bool) {
	if line {
		e.lineNo++
	} else {
		e.uncounted++
	}
	e.overLong++
	lo := e.start - e.before // the record's offset is base+lo
	var rec []byte
	if e.cfg.opt.TooLong == TooLongCut {
		rec = e.cutRecord(end, line)
	}
	e.start, e.scan, e.before, e.blocks, e.toss = end, end, 0, nil, false
	if rec == nil {
		return false, false
	}
	e.big, e.lo, e.hi = rec, lo, lo+len(rec)
	e.longest = max(e.longest, len(rec))
	return true, true
}

// cutRecord returns what TooLongCut yields of the record that ends at data[end]: its
// first MaxRecord bytes, kept in blocks, then its separator when it ended on one (line,
// and the separator is there: not a record cut by Limit or ended by the input's end)
// and Chomp is not set. A one-allocation array of its own, as a gathered record is.
func (e *engine) cutRecord(end int, line bool) []byte {
	n := 0
	for _, b := range e.blocks {
		n += len(b)
	}
	var sep []byte
	if tail := e.data[e.start:end]; line && !e.cfg.opt.Chomp && len(e.cfg.sep) > 0 && bytes.HasSuffix(tail, e.cfg.sep) {
		sep = e.cfg.sep
	}
	rec := make([]byte, n+len(sep))
	n = 0
	for _, b := range e.blocks {
		n += copy(rec[n:], b)
	}
	copy(rec[n:], sep)
	return rec
}
