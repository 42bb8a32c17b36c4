package linereader

import "io"

// Ready reports whether the next call to Next can return without calling the source's
// Read: the next record is complete in the buffer, or iteration has ended. Over a pipe,
// a socket or a terminal a read may wait for input that has yet to come; a program that
// hands records on in groups (as the parallel package's Map does) hands on the records
// it holds when Ready reports false, so that none of them waits for that read.
//
// Ready is exact for the separators that can end a record on their own (a one-byte or
// longer Sep, paragraphs), with or without Limit, and conservative elsewhere: it may
// report false where Next turns out not to read (a record in pieces, a section still to
// find its first record, a Limit cut with UTF8 near the end of what is buffered, a
// record refused by MaxRecord), never true where Next reads. It reads nothing and changes
// nothing.
func (r *Reader) Ready() bool {
	if r.e.back != nil {
		return r.e.back.ready()
	}
	return r.e.ready()
}

// ready is Ready: it asks of the buffered bytes what advance would.
func (e *engine) ready() bool {
	switch {
	case e.err != nil || e.cfg.err != nil:
		return true // Next fails at once
	case e.before > 0 || e.blocks != nil || e.seek:
		return false // a record in pieces or gathered, or a section's first boundary: left to advance
	case e.stopAt >= 0 && e.end() >= e.stopAt:
		return true // the section has ended
	}
	from := e.start
	if e.cfg.mode == modeParagraph {
		for from < len(e.data) && e.data[from] == '\n' {
			from++
		}
	}
	if e.rerr != nil {
		// The source has ended: what is buffered is the last record, unless nothing is
		// and a Reader of several inputs moves on to the next one, which reads.
		return from < len(e.data) || e.inputs.nextInput == nil || e.rerr != io.EOF
	}
	if e.cfg.join != nil {
		return false // a record of many lines: left to advance (conservative)
	}
	rest := e.data[from:]
	if l := e.cfg.opt.Limit; l > 0 {
		slack := 0
		if e.cfg.opt.UTF8 {
			slack = 3 // cutAtLimit may read up to 3 bytes more to finish a character
		}
		if len(rest) >= l+slack {
			return true
		}
		rest = rest[:min(len(rest), l)]
	}
	return e.cfg.find(rest) >= 0
}
