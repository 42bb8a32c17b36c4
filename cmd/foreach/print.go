package main

import (
	"bytes"

	"github.com/foreachio/foreach/linereader"
)

// printer writes the records of one input with what the flags add: the -H and -n
// prefixes, --ors, and the terminator that -H and -f add to a record without one.
type printer struct {
	c *command
	// r is the reader of the records; nil for a name that -f follows, whose records
	// come whole from a follow.Many, the line number after each in next.
	r     *linereader.Reader
	next  int64
	label []byte // -H's prefix, "NAME:"; nil without -H
	ors   []byte // --ors; nil: none
	// endAll: every record printed ends with term, one that lacks it too: with -H, as
	// grep -H does, and with -f, whose next record may come from the next file.
	endAll bool
	// term is what ends a line of output: --ors, else the record separator ("\n" for
	// paragraphs and --whole). A record that does not end with it runs on into whatever
	// is written next (with -n, the next file's first line, as with cat -n), unless endAll.
	term []byte
	// sep is the separator that ends every record of a run from Runs, so that a run
	// is cut into its records by searching for it; nil when records come one at a time.
	sep  []byte
	line int64 // the input's line number before the current record (LineNo)
	// base is the number -n gives the line before the input's first: with -H, 0, as
	// grep numbers each file's lines from 1; else the lines numbered in earlier inputs,
	// less one when the input's first line continues the last of them, as with cat -n.
	base    int64
	first   bool  // nothing of the input is written yet
	inside  bool  // the last piece was Partial: the next one continues its record
	length  int   // bytes of the current record so far, for --stats
	dropped int64 // records --too-long skip dropped so far, counted in line
	tail    endTail
}

// print writes the records of one input with their prefixes and terminators.
func (c *command) print(in *input) {
	if s := c.decodedText(in); s != nil {
		defer s.Close()
		opt := c.cfg.opt
		opt.Decompress = false // the text: a .gz inside it is printed as it is, as zcat does
		r := linereader.New(s, opt)
		defer r.Close()
		c.printRecords(in.name, r)
		return
	}
	r := c.readerOf(in)
	defer r.Close()
	c.printRecords(in.name, r)
}

// newPrinter returns the printer of the records of r, the input name.
func (c *command) newPrinter(name string, r *linereader.Reader) *printer {
	p := &printer{c: c, r: r, ors: c.cfg.ors, first: true, endAll: c.cfg.withName || c.cfg.follow}
	if c.cfg.withName {
		p.label = []byte(displayName(name) + ":")
	} else {
		p.base = c.lines.base
	}
	p.term = c.cfg.ors
	if p.term == nil {
		p.term = c.cfg.opt.Separator()
		if c.cfg.opt.Paragraph || c.cfg.opt.Whole {
			p.term = []byte{'\n'}
		}
	}
	return p
}

// printRecords writes the records of r, the input name, with their prefixes and
// terminators. Records come whole in runs (Runs) when each ends at its separator and
// nothing is cut from it; one at a time otherwise (Pieces), or whole (Views) with
// --max-record, which refuses a record before any of it is written, in memory bounded
// by the limit, and with -f, which must not print a record still being written. Runs
// and Pieces pass a record longer than the buffer on a piece at a time, in bounded
// memory: the prefixes go before its first piece, and --ors or the terminator after
// its last.
func (c *command) printRecords(name string, r *linereader.Reader) {
	p := c.newPrinter(name, r)
	records := r.Pieces()
	switch {
	case c.cfg.opt.MaxRecord > 0 || c.cfg.follow:
		records = r.Views()
	case !c.cfg.opt.Chomp && runsCut(c.cfg.opt):
		records, p.sep = r.Runs(), c.cfg.opt.Separator()
	}
	for chunk := range records {
		if p.sep != nil && !p.inside && !r.Partial() {
			p.run(chunk)
		} else {
			p.piece(chunk)
		}
		if c.w.err != nil {
			c.writeFailed(c.w.err)
			break
		}
	}
	if !c.cfg.withName {
		c.lines.base = p.base + p.line
	}
	c.done(name, r)
}

// piece writes a record, or a piece of one, that comes on its own.
func (p *printer) piece(piece []byte) {
	if !p.inside {
		p.skipped()
		p.begin()
	}
	p.c.w.Write(piece)
	if p.inside = p.r != nil && p.r.Partial(); p.inside {
		p.length += len(piece)
		p.tail.add(piece, len(p.term))
		return
	}
	p.c.tot.record(p.length + len(piece))
	p.length = 0
	p.end(p.tail.endsWith(piece, p.term))
	p.tail.reset()
	p.line = p.next
	if p.r != nil {
		p.line = p.r.LineNo()
	}
}

// skipped counts in p.line the records --too-long skip dropped before the current one:
// they were lines of the input, and -n numbers the lines of the input.
func (p *printer) skipped() {
	if p.c.cfg.opt.TooLong != linereader.TooLongSkip || p.c.cfg.opt.MaxRecord == 0 || p.r == nil {
		return
	}
	n := p.r.Stats().TooLong
	p.line += n - p.dropped
	p.dropped = n
}

// run writes a run of whole records, each ending with p.sep but an unterminated last
// record of the input.
func (p *printer) run(run []byte) {
	if p.first {
		// The first record may continue the previous input's last line.
		rec, rest, ended := cut(run, p.sep)
		p.whole(rec, ended)
		run = rest
	}
	if p.c.cfg.number {
		p.c.lines.num.format(p.base + p.line) // so that next gives the number of the next line
	}
	if ended, wrote := p.records(run); wrote {
		p.c.lines.midLine = !ended && p.ors == nil && !p.endAll
	}
	p.line = p.r.LineNo()
}

// records writes the records of run, each with its prefixes and terminator, and
// reports whether the last one written ended with p.sep, and whether any was written.
// It cuts and prefixes them in the output buffer itself, as cat -n does: a call per
// record to write a prefix, a record and a terminator would cost more than the appends.
func (p *printer) records(run []byte) (ended, wrote bool) {
	c, w, num := p.c, p.c.w, &p.c.lines.num
	number := c.cfg.number
	label, ors, sep := p.label, p.ors, p.sep
	buf := w.buf
	ended = true
	for ; len(run) > 0; wrote = true {
		var rec []byte
		rec, run, ended = cut(run, sep)
		// The most this record appends: the label; the number, which next may lengthen
		// by a digit and which is stored as 8 bytes when shorter; the record; --ors or
		// the separator it lacks.
		need := len(label) + len(rec) + len(ors) + len(sep)
		if number {
			need += max(8, len(num.buf)+1)
		}
		if need > cap(buf)-len(buf) {
			w.buf = buf
			if buf = w.room(need); buf == nil {
				p.whole(rec, ended) // larger than the buffer, or the output failed
				buf = w.buf
				continue
			}
		}
		buf = append(buf, label...)
		if number {
			num.next()
			if n := len(num.buf); n <= 8 {
				// One 8-byte store instead of a call to copy 7 bytes: need counted
				// room for it, and the record overwrites the bytes past the prefix.
				*(*[8]byte)(buf[len(buf) : len(buf)+8]) = num.word()
				buf = buf[:len(buf)+n]
			} else {
				buf = append(buf, num.buf...)
			}
		}
		buf = append(buf, rec...)
		switch {
		case ors != nil:
			buf = append(buf, ors...)
		case !ended && p.endAll:
			buf = append(buf, sep...) // without --ors, term is sep
		}
		c.tot.longest = max(c.tot.longest, len(rec))
		p.line++
	}
	w.buf = buf
	return ended, wrote
}

// cut splits off the first record of run: up to and including the first sep, or all of
// run (an unterminated last record: ended is false).
func cut(run, sep []byte) (rec, rest []byte, ended bool) {
	var i int
	if len(sep) == 1 {
		i = bytes.IndexByte(run, sep[0])
	} else {
		i = bytes.Index(run, sep)
	}
	if i < 0 {
		return run, nil, false
	}
	i += len(sep)
	return run[:i], run[i:], true
}

// whole writes one whole record of a run the plain way, through begin and end.
func (p *printer) whole(rec []byte, ended bool) {
	p.begin()
	p.c.w.Write(rec)
	p.c.tot.record(len(rec))
	p.line++
	p.end(ended) // without --ors, term is sep
}

// begin writes the prefixes of a record: -H's name and -n's number. The first record
// of an input that follows an unterminated line is the rest of that line, as in cat -n:
// it gets no prefix and no number of its own.
func (p *printer) begin() {
	c := p.c
	if p.first {
		p.first = false
		if c.lines.midLine {
			p.base--
			return
		}
	}
	if p.label != nil {
		c.w.Write(p.label)
	}
	if c.cfg.number {
		// The record belongs to line p.line+1, whether it completes it or is a piece
		// cut by --limit (which does not advance LineNo).
		c.w.Write(c.lines.num.format(p.base + p.line + 1))
	}
}

// end finishes a record that ends with term or not (ended): --ors after it, or with
// endAll the terminator it lacks.
func (p *printer) end(ended bool) {
	switch {
	case p.ors != nil:
		p.c.w.Write(p.ors)
		ended = true
	case !ended && p.endAll:
		p.c.w.Write(p.term)
		ended = true
	}
	p.c.lines.midLine = !ended
}

// endTail keeps the last bytes of a record that comes in pieces, as many as the
// terminator has, so that a terminator cut between two pieces is still seen.
type endTail struct{ b []byte }

func (t *endTail) reset() { t.b = t.b[:0] }

// add appends piece, keeping at most n bytes.
func (t *endTail) add(piece []byte, n int) {
	if len(piece) >= n {
		t.b = append(t.b[:0], piece[len(piece)-n:]...)
		return
	}
	t.b = append(t.b, piece...)
	if len(t.b) > n {
		t.b = t.b[:copy(t.b, t.b[len(t.b)-n:])]
	}
}

// endsWith reports whether the record whose earlier pieces left t, and whose last piece
// is last, ends with term.
func (t *endTail) endsWith(last, term []byte) bool {
	if len(last) >= len(term) {
		return bytes.HasSuffix(last, term)
	}
	need := len(term) - len(last) // bytes of term in the earlier pieces
	return len(t.b) >= need && bytes.Equal(t.b[len(t.b)-need:], term[:need]) && bytes.Equal(last, term[need:])
}
