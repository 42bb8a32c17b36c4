package linereader_test

// The reference joiner: records of many lines (Options.Multiline) as docs/semantics.md
// says, over a whole []byte, one visible step per rule: the lines as refSplit cuts them,
// each tested with the regexp itself (no prefilter), joined, then MaxRecord and TooLong
// applied to the joined record. The engine's every path is checked against it
// (multiline_test.go, multiline_paths_test.go, the fuzz target).

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/foreachio/foreach/linereader"
)

// refLineText is a line without its separator, as a pattern sees it: for the default
// separator without the "\n" or "\r\n" that Chomp drops, else without Sep; a line
// without its separator (the input's last) whole. With MaxRecord, at most its first
// MaxRecord bytes.
func refLineText(line []byte, opt linereader.Options) []byte {
	sep := opt.Separator()
	text := line
	if bytes.HasSuffix(line, sep) {
		text = refChomp(line, sep, opt)
	}
	if opt.MaxRecord > 0 && len(text) > opt.MaxRecord {
		text = text[:opt.MaxRecord]
	}
	return text
}

// refBegins reports whether a line begins a record by its pattern alone.
func refBegins(line []byte, opt linereader.Options) bool {
	m := opt.Multiline
	text := refLineText(line, opt)
	if m.Start != nil {
		return m.Start.Match(text)
	}
	return !m.Continue.Match(text)
}

// refJoin returns the records of in under opt (with Multiline) and, with TooLongStop, the
// error that ends them (a *linereader.TooLongError), or nil.
func refJoin(in []byte, opt linereader.Options) ([]linereader.Seen, error) {
	recs, _, err := refJoinCount(in, opt)
	return recs, err
}

// refJoinCount is refJoin that also counts the records skipped or cut (Stats.TooLong).
func refJoinCount(in []byte, opt linereader.Options) ([]linereader.Seen, int64, error) {
	lines := refSplit(in, linereader.Options{Sep: opt.Sep})
	var recs []linereader.Seen
	var lineNo, tooLong int64
	for i := 0; i < len(lines); {
		// A record: its first line, then the lines that do not begin one.
		n := 1
		for i+n < len(lines) && !refBegins([]byte(lines[i+n].Rec), opt) &&
			(opt.Multiline.MaxLines == 0 || n < opt.Multiline.MaxLines) {
			n++
		}
		var raw strings.Builder
		for _, l := range lines[i : i+n] {
			raw.WriteString(l.Rec)
		}
		off := lines[i].Off
		i += n
		lineNo++
		rec, keep := refJoinedRecord([]byte(raw.String()), opt)
		if opt.MaxRecord > 0 && raw.Len() > opt.MaxRecord {
			if opt.TooLong == linereader.TooLongStop {
				return recs, 0, &linereader.TooLongError{Offset: off, LineNo: lineNo, Max: opt.MaxRecord}
			}
			tooLong++
		}
		if keep {
			recs = append(recs, linereader.Seen{Rec: string(rec), LineNo: lineNo, Off: off})
		}
	}
	return recs, tooLong, nil
}

// refJoinedRecord applies Chomp, MaxRecord and TooLong to a joined record, raw as in the
// input: it returns what is yielded, and false when nothing is (skipped, or stopping).
func refJoinedRecord(raw []byte, opt linereader.Options) ([]byte, bool) {
	sep := opt.Separator()
	terminated := bytes.HasSuffix(raw, sep)
	if opt.MaxRecord <= 0 || len(raw) <= opt.MaxRecord {
		if opt.Chomp && terminated {
			raw = refChomp(raw, sep, opt)
		}
		return raw, true
	}
	if opt.TooLong != linereader.TooLongCut {
		return nil, false
	}
	cut := append([]byte(nil), raw[:opt.MaxRecord]...)
	if terminated && !opt.Chomp {
		cut = append(cut, sep...)
	}
	return cut, true
}

// mlPatterns are the patterns of the random tests: anchored and not, with a literal
// prefix, a class the first byte decides, one it does not, folded case, non-ASCII, one
// that matches every line, one that matches none, and ones that look at the line's end.
var mlPatterns = []string{
	`^S`, `^\s`, `^\S`, `^[ \t]`, `^(S|T)x`, `^Sx`, `x`, `xS`, `S$`, `^$`, `^`, `.*`,
	`x^`, `(?i)^s`, `^é`, `^[^a-z]`, `^.`, `(?m)^T`, `^\d{2}-`, `^S.*x$`, `\r`,
}

// mlAlphabet is what random lines are made of: pattern letters, a space and a tab,
// digits, "\r", a UTF-8 é and its bytes apart, an invalid byte, and the separators' bytes.
var mlAlphabet = []string{"S", "T", "x", "s", " ", "\t", "1", "-", "\r", "é", "\xc3", "\xff", ";", "a", "b"}

// mlSeps are the separators of the random tests ("" is the default).
var mlSeps = []string{"", "\n", ";", "\r\n", "ab"}

// randomMultiline returns a random input of about n lines for sep: lines of a few tokens,
// empty lines, now and then a line longer than small buffers, and maybe no final
// separator.
func randomMultiline(rng *rand.Rand, n int, sep string) []byte {
	if sep == "" {
		sep = "\n"
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		k := rng.IntN(6)
		if rng.IntN(20) == 0 {
			k = 40 + rng.IntN(100) // a long line
		}
		for range k {
			b.WriteString(mlAlphabet[rng.IntN(len(mlAlphabet))])
		}
		if i < n-1 || rng.IntN(3) > 0 {
			b.WriteString(sep)
		}
	}
	return []byte(b.String())
}

// randomMultilineOptions returns random valid options with Multiline.
func randomMultilineOptions(rng *rand.Rand) linereader.Options {
	re := regexp.MustCompile(mlPatterns[rng.IntN(len(mlPatterns))])
	m := &linereader.Multiline{MaxLines: []int{0, 0, 0, 1, 2, 3}[rng.IntN(6)]}
	if rng.IntN(2) == 0 {
		m.Start = re
	} else {
		m.Continue = re
	}
	opt := linereader.Options{
		Sep:        []byte(mlSeps[rng.IntN(len(mlSeps))]),
		Chomp:      rng.IntN(2) == 0,
		BufferSize: []int{1, 2, 3, 5, 8, 16, 64, 0}[rng.IntN(8)],
		Multiline:  m,
	}
	if rng.IntN(4) == 0 {
		opt.MaxRecord = 1 + rng.IntN(30)
		opt.TooLong = linereader.TooLong(rng.IntN(3))
	}
	return opt
}
