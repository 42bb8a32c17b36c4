package linereader

import (
	"fmt"
	"regexp"
)

// Multiline joins lines (cut by Options.Sep, "\n" by default) into records of several
// lines, as a log agent joins the lines of a stack trace into one entry. Set exactly one
// of Start and Continue.
//
// A pattern is matched, as regexp.Match does, against a line without its separator (for
// the default separator, without the "\r\n" or "\n" that Chomp drops): anchor it with ^
// to match at the line's start. With MaxRecord set, a pattern sees at most a line's
// first MaxRecord bytes (a longer line makes whichever record holds it too long).
//
//   - With Start, a line that matches begins a record, and the lines after it that do
//     not begin one belong to it.
//   - With Continue, a line that matches belongs to the record before it, and any other
//     line begins a record.
//   - The lines before the first that begins a record (a file that starts with
//     continuation lines) are a record of their own.
//   - MaxLines > 0 ends a record once it has that many lines: the next line begins a
//     record whatever it matches.
//
// A record is its lines' bytes as they are in the input, separators included; Chomp
// drops only its last separator; MaxRecord and TooLong apply to the joined record;
// LineNo counts records; Offset is where a record's first line begins. Every reading of
// a Reader gives the same records: every iterator, sections (NewSection, Count,
// Partition and the parallel package), reading from the end (NewTail, NewBackward),
// compressed input, and a follower, which yields a record whose next line has not
// arrived after a quiet period (see ErrFlush). The exact rules are in the project's
// docs/semantics.md.
//
// The patterns are tried at line starts only, and a line whose first bytes decide the
// answer (a pattern anchored with ^ whose literal prefix or first character class rules
// the line out, or settles it, as with ^\s) is decided without running the regexp.
type Multiline struct {
	Start    *regexp.Regexp // a line that matches begins a record; the lines after it that do not begin one belong to it
	Continue *regexp.Regexp // a line that matches belongs to the record before it; any other line begins a record
	MaxLines int            // > 0: a record ends after this many lines, and the next line begins one
}

// joiner is Options.Multiline decided once, for a Reader's life: which lines begin a
// record. It is read by the forward engine (joinEnd), by sections and by the backward
// reader (multiline_walk.go); begins is the one place a line is tested.
type joiner struct {
	re       *regexp.Regexp
	cont     bool // re is Continue: a line that matches does not begin a record
	maxLines int  // Multiline.MaxLines (0: none)
	maxText  int  // > 0: a pattern sees at most this many bytes of a line (Options.MaxRecord)
	pre      prefilter
	// goesOn, with the default separator: goesOn[c] says a line whose first byte is c
	// continues the record before it, decided by that byte alone (begins on a one-byte
	// beginning); nil when no byte decides so. joinEnd passes such lines in a tight
	// loop. A newline and a carriage return are never in it: a line that begins with
	// either may have an empty text.
	goesOn *[256]bool
}

// newJoiner returns the joiner of valid options, or nil without Multiline.
func newJoiner(c *config) *joiner {
	m := c.opt.Multiline
	if m == nil || c.err != nil {
		return nil
	}
	j := &joiner{re: m.Start, maxLines: m.MaxLines, maxText: c.opt.MaxRecord}
	if j.re == nil {
		j.re, j.cont = m.Continue, true
	}
	// A line's text holds no "\n" when "\n" is the separator: there ^ can match only at
	// the text's start, whatever syntax the pattern was compiled with (see prefilter).
	j.pre = newPrefilter(j.re, c.mode == modeByte && c.sepByte == '\n')
	if j.pre.noNL {
		j.goesOn = j.continuing()
	}
	return j
}

// continuing returns the table of goesOn: the first bytes that begins decides, on a
// beginning of one byte, to be a line that does not begin a record (a decision on a
// beginning holds for every text that begins so). nil when there is none.
func (j *joiner) continuing() *[256]bool {
	var t [256]bool
	some := false
	for c := range t {
		if c == '\n' || c == '\r' {
			continue
		}
		b, known := j.begins([]byte{byte(c)}, false)
		t[c] = known && !b
		some = some || t[c]
	}
	if !some {
		return nil
	}
	return &t
}

// begins reports whether the line whose text (the line without its separator) is p
// begins a record by its pattern. whole says p is the whole text; otherwise p is only
// its beginning, and known reports whether that beginning decides the answer.
func (j *joiner) begins(p []byte, whole bool) (begins, known bool) {
	if j.maxText > 0 && len(p) >= j.maxText {
		p, whole = p[:j.maxText], true
	}
	match, known := j.pre.match(j.re, p, whole)
	return match != j.cont, known
}

// multilineFaults appends to faults what is wrong with o.Multiline: a pattern missing or
// two, a negative MaxLines, and the options that cut records by other rules.
func multilineFaults(o *Options, faults []OptionFault) []OptionFault {
	m := o.Multiline
	if m == nil {
		return faults
	}
	conflict := func(with string) {
		faults = append(faults, OptionFault{Field: "Multiline", With: with, Text: "Multiline and " + with + " conflict"})
	}
	if o.Paragraph {
		conflict("Paragraph")
	}
	if o.Whole {
		conflict("Whole")
	}
	if o.Limit > 0 {
		conflict("Limit")
	}
	switch {
	case m.Start != nil && m.Continue != nil:
		faults = append(faults, OptionFault{Field: "Multiline.Start", With: "Multiline.Continue",
			Text: "Multiline.Start and Multiline.Continue conflict (set one)"})
	case m.Start == nil && m.Continue == nil:
		faults = append(faults, OptionFault{Field: "Multiline", Text: "Multiline has neither Start nor Continue"})
	}
	if m.MaxLines < 0 {
		faults = append(faults, OptionFault{Field: "Multiline.MaxLines", Text: fmt.Sprintf("Multiline.MaxLines %d is negative", m.MaxLines)})
	}
	return faults
}

// partialText returns what is surely text of a line of which only the beginning p is
// known, its separator not yet in sight: p without its last len(sep) bytes, which may
// begin the separator (len(sep)-1 of them) or, for the default separator, be the "\r"
// that Chomp drops with the "\n".
func (c *config) partialText(p []byte) []byte {
	return p[:max(0, len(p)-len(c.sep))]
}
