package linereader

import "bytes"

// The forward engine's part of Options.Multiline: where a record of many lines ends.
// It is a layer over line cutting: lines are found by config.find, as every record is
// without Multiline, and their bytes stay where they are in the buffer, so that a record
// of many lines is data[start:end] like any other (no copy per line); only the end is
// decided differently, by joinEnd, which advance's search calls in place of the
// separator search.

// joining is where the record of many lines in progress stands. It describes the record
// that begins at input offset rec; while rec is the record in progress's start
// (end() - before), the engine's positions (start, scan) describe the same record, and
// otherwise the state is stale and joinEnd starts afresh (rec < 0 never matches).
//
//   - lines counts the record's lines whose separator has been found.
//   - open: the line that begins at input offset at belongs to the record and its
//     separator is still to be found; data[max(at, start):scan] has been searched and
//     holds none (but the len(Sep)-1 bytes before scan, which may begin one).
//   - !open: the record's lines end at at, where the next line begins, whose first
//     bytes decide whether the record goes on; data[at:scan] holds no separator.
//     lines >= 1 then.
type joining struct {
	rec   int64
	at    int64
	lines int
	open  bool
}

// noJoin is the state that describes no record.
var noJoin = joining{rec: -1}

// joinEnd returns where the record of many lines in progress ends (an index in data), or
// -1 when the bytes buffered do not decide it yet, having kept in joining and scan how
// far they go. A line is tested once its text is buffered whole, or sooner when its
// first bytes decide (joiner.begins); the record ends before a line that begins one,
// after MaxLines lines, at the end of the input, or, when the source is quiet
// (ErrFlush), before a line that has not arrived whole.
//
// It is a loop over the record's lines that decides a line by its first bytes: longer
// as one function than split, since the state it walks (at, open, scan) is all of it.
func (e *engine) joinEnd() int {
	j, jn := &e.joining, e.cfg.join
	if rec := e.end() - int64(e.before); j.rec != rec {
		*j = joining{rec: rec, at: rec, open: true}
	}
	ended := e.rerr != nil && e.rerr != ErrStop // no more bytes of this input will come
	for {
		at := int(j.at - e.base)
		if !j.open && jn.goesOn != nil {
			at = e.passContinued(at)
		}
		if !j.open && j.lines == jn.maxLines {
			return at // the record has its MaxLines lines
		}
		from := max(e.scan, at, e.start)
		i := e.cfg.find(e.data[from:])
		if i < 0 {
			e.scan = max(from, len(e.data)-(len(e.cfg.sep)-1))
		} else {
			i += from // the line at at ends at data[i]
		}
		var text []byte
		whole := true
		switch {
		case j.open && i >= 0:
			j.seal(i, e.base)
			continue
		case j.open && ended:
			return len(e.data) // its unterminated last line ends the input
		case j.open:
			return -1
		case i >= 0:
			text = e.cfg.chomp(e.data[at:i])
		case at == len(e.data) && (ended || e.quiet):
			return at
		case ended:
			text = e.data[at:] // the input's unterminated last line
		default:
			text, whole = e.cfg.partialText(e.data[at:]), false
		}
		begins, known := jn.begins(text, whole)
		switch {
		case !known && e.quiet:
			return at // the next line has not arrived whole: the record is flushed
		case !known:
			return -1
		case begins && i >= 0:
			// The next record's first line is found: its search is not done twice.
			*j = joining{rec: e.base + int64(at), at: e.base + int64(i), lines: 1}
			return at
		case begins:
			*j = noJoin
			return at
		}
		j.open = true
		if i >= 0 {
			j.seal(i, e.base)
		}
	}
}

// passContinued passes the lines from data[at] on that the joiner's goesOn table says
// continue the record, each by its first byte and one search for its "\n", up to the
// record's MaxLines; it returns where the first line it does not pass begins, where
// joining now stands (!open). It is the loop a record of many lines spends most of its
// lines in, kept apart from joinEnd's cases so that it stays this small: the one place,
// besides config's methods and the short path, that searches for the separator, the
// default one only.
func (e *engine) passContinued(at int) int {
	j, goesOn := &e.joining, e.cfg.join.goesOn
	for at < len(e.data) && goesOn[e.data[at]] && j.lines != e.cfg.join.maxLines {
		i := bytes.IndexByte(e.data[at+1:], '\n')
		if i < 0 {
			break
		}
		at += i + 2
		j.lines++
	}
	j.at = e.base + int64(at)
	e.scan = max(e.scan, at)
	return at
}

// seal ends the open line at data[i]: the record has one more line, and the next begins
// at i.
func (j *joining) seal(i int, base int64) {
	j.lines++
	j.open = false
	j.at = base + int64(i)
}

// joinKnown returns how far data holds bytes known to belong to the record of many lines
// in progress, once joinEnd found no end: all that is buffered while its last line is
// open (its separator not yet found), else up to the line that decides whether it goes
// on.
func (e *engine) joinKnown() int {
	if e.joining.open {
		return len(e.data)
	}
	return int(e.joining.at - e.base)
}

// joinKeep returns how far the bytes of the record of many lines in progress may leave
// data (as pieces, dropped by TooLong, gathered into blocks): up to scan while its last
// line is open, else up to its last separator, which Chomp and TooLongCut look at and
// which must end its last piece. An open line with no bytes yet (a pattern such as "^"
// decides a line by its first zero bytes) keeps that separator too: if the input ends
// there, the record ends on it.
func (e *engine) joinKeep() int {
	at := int(e.joining.at-e.base) - len(e.cfg.sep)
	if e.joining.open && e.scan > at+len(e.cfg.sep) {
		return e.scan
	}
	return at
}
