package linereader_test

// A deliberately simple implementation of docs/semantics.md over a whole []byte: no buffering, no
// reads, no state carried between records other than the position and the line number. The
// engine is checked against it (differential_test.go, fuzz_test.go, readpatterns_test.go), so
// it favours being obviously right over being fast: every rule of docs/semantics.md is one visible
// step in refSplit.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/foreachio/foreach/linereader"
)

// The reference yields its records as the engine's are seen (linereader.Seen): the bytes,
// LineNo() after the record, and Offset(), where its first byte is in the input.

// seen is a record of the reference, for the tables: never Partial.
func seen(rec string, lineNo, off int64) linereader.Seen {
	return linereader.Seen{Rec: rec, LineNo: lineNo, Off: off}
}

// refValid reports whether opt is a valid combination of Options (docs/semantics.md, Errors).
func refValid(opt linereader.Options) bool {
	if opt.Paragraph && opt.Whole {
		return false
	}
	if len(opt.Sep) > 0 && (opt.Paragraph || opt.Whole) {
		return false
	}
	return true
}

// refIsDefaultSep reports whether chomp follows the default separator's rule (remove "\n" or
// "\r\n"). the Options docs say a nil or empty Sep "means \n", and Ruby chomps "\r\n" for an explicit
// "\n" too, so Sep "\n" is the default separator spelled out.
func refIsDefaultSep(opt linereader.Options) bool {
	return !opt.Paragraph && !opt.Whole && (len(opt.Sep) == 0 || string(opt.Sep) == "\n")
}

// refIncompleteUTF8 reports whether b ends inside an incomplete UTF-8 sequence: the bytes from
// its last non-continuation byte on are a proper prefix of a valid multi-byte encoding. An
// invalid sequence is complete (it cannot be completed), as utf8.FullRune says.
func refIncompleteUTF8(b []byte) bool {
	i := len(b) - 1
	for i >= 0 && b[i]&0xC0 == 0x80 {
		i--
	}
	if i < 0 {
		return false
	}
	return !utf8.FullRune(b[i:])
}

// refSplit cuts in into records following docs/semantics.md. It assumes refValid(opt).
// MaxRecord and BufferSize do not change the records and are ignored.
func refSplit(in []byte, opt linereader.Options) []linereader.Seen {
	sep := opt.Sep
	switch {
	case opt.Paragraph:
		sep = []byte("\n\n")
	case len(sep) == 0:
		sep = []byte("\n")
	}
	var recs []linereader.Seen
	var lineNo int64
	pos := 0
	for {
		// Paragraph mode: leading newlines before every record are dropped.
		if opt.Paragraph {
			for pos < len(in) && in[pos] == '\n' {
				pos++
			}
		}
		if pos >= len(in) {
			return recs
		}
		end, terminated, cut := refRecordEnd(in[pos:], sep, opt)
		rec := in[pos : pos+end]
		if !cut {
			lineNo++ // ended on its separator, or at end of input with limit to spare
		}
		if opt.Chomp && terminated {
			rec = refChomp(rec, sep, opt)
		}
		recs = append(recs, seen(string(rec), lineNo, int64(pos)))
		pos += end
	}
}

// refRecordEnd returns where the record at the start of rest ends, whether it ended on
// its separator, and whether the limit cut it (a final piece exactly Limit bytes long
// included).
func refRecordEnd(rest, sep []byte, opt linereader.Options) (end int, terminated, cut bool) {
	// The window is what the limit lets this record hold.
	window := rest
	if opt.Limit > 0 && len(window) > opt.Limit {
		window = window[:opt.Limit]
	}
	end = len(window)
	cut = opt.Limit > 0 && len(rest) >= opt.Limit
	if !opt.Whole {
		// Leftmost match inside the window: a separator ending on the limit's last byte
		// counts, one split by the cut is not found.
		if i := bytes.Index(window, sep); i >= 0 {
			return i + len(sep), true, false
		}
	}
	// UTF8: extend a cut record ending inside an incomplete character, one byte at a
	// time, by at most 3 bytes; the byte that completes or breaks it is included.
	if cut && opt.UTF8 {
		for n := 0; n < 3 && end < len(rest) && refIncompleteUTF8(rest[:end]); n++ {
			end++
			if !opt.Whole && bytes.HasSuffix(rest[:end], sep) {
				return end, true, false // the extension ended on the separator
			}
		}
	}
	return end, false, cut
}

// refChomp removes the separator that ended rec.
func refChomp(rec, sep []byte, opt linereader.Options) []byte {
	switch {
	case opt.Paragraph:
		return rec[:len(rec)-2]
	case refIsDefaultSep(opt):
		rec = rec[:len(rec)-1]
		if len(rec) > 0 && rec[len(rec)-1] == '\r' {
			rec = rec[:len(rec)-1]
		}
		return rec
	}
	return rec[:len(rec)-len(sep)]
}

// refMaxRecord is the Stats.MaxRecord the engine should report after reading recs.
func refMaxRecord(recs []linereader.Seen) int {
	m := 0
	for _, r := range recs {
		m = max(m, len(r.Rec))
	}
	return m
}

// describeOptions renders opt compactly for failure messages, so a failing random case can be
// rebuilt by hand.
func describeOptions(opt linereader.Options) string {
	var parts []string
	if opt.Sep != nil {
		parts = append(parts, fmt.Sprintf("Sep:%q", opt.Sep))
	}
	if opt.Paragraph {
		parts = append(parts, "Paragraph")
	}
	if opt.Whole {
		parts = append(parts, "Whole")
	}
	if opt.Limit != 0 {
		parts = append(parts, fmt.Sprintf("Limit:%d", opt.Limit))
	}
	if opt.Chomp {
		parts = append(parts, "Chomp")
	}
	if opt.UTF8 {
		parts = append(parts, "UTF8")
	}
	if opt.BufferSize != 0 {
		parts = append(parts, fmt.Sprintf("BufferSize:%d", opt.BufferSize))
	}
	if opt.MaxRecord != 0 {
		parts = append(parts, fmt.Sprintf("MaxRecord:%d", opt.MaxRecord))
	}
	if opt.TooLong != linereader.TooLongStop {
		parts = append(parts, "TooLong:"+opt.TooLong.String())
	}
	if m := opt.Multiline; m != nil {
		if m.Start != nil {
			parts = append(parts, fmt.Sprintf("Start:%q", m.Start))
		}
		if m.Continue != nil {
			parts = append(parts, fmt.Sprintf("Continue:%q", m.Continue))
		}
		if m.MaxLines != 0 {
			parts = append(parts, fmt.Sprintf("MaxLines:%d", m.MaxLines))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// The reference must itself satisfy every example of docs/semantics.md (the shared table) and the
// line-number and offset details below, before anything is judged against it.
func TestReferenceSemanticsTable(t *testing.T) {
	for _, tc := range semanticsCases {
		t.Run(tc.name, func(t *testing.T) {
			got := refSplit([]byte(tc.in), tc.opt)
			tc.check(t, got)
		})
	}
}

func TestReferenceLineNosAndOffsets(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opt  linereader.Options
		want []linereader.Seen
	}{
		{"default", "ab\ncd", linereader.Options{}, []linereader.Seen{
			seen("ab\n", 1, 0), seen("cd", 2, 3)}},
		{"limit cut not counted", "abcdef\nxy\n", linereader.Options{Limit: 4}, []linereader.Seen{
			seen("abcd", 0, 0), seen("ef\n", 1, 4), seen("xy\n", 2, 7)}},
		{"final piece exactly limit", "abc", linereader.Options{Limit: 3}, []linereader.Seen{
			seen("abc", 0, 0)}},
		{"final piece under limit", "abc", linereader.Options{Limit: 4}, []linereader.Seen{
			seen("abc", 1, 0)}},
		{"paragraph offsets skip newlines", "\n\na\nb\n\n\n\nc", linereader.Options{Paragraph: true}, []linereader.Seen{
			seen("a\nb\n\n", 1, 2), seen("c", 2, 9)}},
		{"paragraph chomp", "a\n\n\nb\n", linereader.Options{Paragraph: true, Chomp: true}, []linereader.Seen{
			seen("a", 1, 0), seen("b\n", 2, 4)}},
		{"whole", "a\nb", linereader.Options{Whole: true, Chomp: true}, []linereader.Seen{
			seen("a\nb", 1, 0)}},
		{"whole limit", "abcde", linereader.Options{Whole: true, Limit: 2}, []linereader.Seen{
			seen("ab", 0, 0), seen("cd", 0, 2), seen("e", 1, 4)}},
		{"utf8 extension ends on separator", "a\xE3\nb", linereader.Options{Limit: 2, UTF8: true, Chomp: true}, []linereader.Seen{
			seen("a\xE3", 1, 0), seen("b", 2, 3)}},
		{"utf8 extension completes a four-byte character", "\xF0\x90\x80\x80\x80", linereader.Options{Limit: 1, UTF8: true}, []linereader.Seen{
			seen("\xF0\x90\x80\x80", 0, 0), seen("\x80", 0, 4)}},
		{"crlf split by limit is not chomped as crlf", "x\r\n", linereader.Options{Limit: 2, Chomp: true}, []linereader.Seen{
			seen("x\r", 0, 0), seen("", 1, 2)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := refSplit([]byte(tc.in), tc.opt)
			if !slices.Equal(got, tc.want) {
				t.Errorf("refSplit(%q, %s)\n got %v\nwant %v", tc.in, describeOptions(tc.opt), got, tc.want)
			}
		})
	}
}

func TestReferenceLossless(t *testing.T) {
	inputs := []string{"", "\n", "a\nb", "\r\n\r\n", "aaaaa", "ababababa", "\xE3\x81\x82\n\xFF", "\n\n\na\n\n"}
	opts := []linereader.Options{
		{}, {Sep: []byte("aa")}, {Sep: []byte("aba")}, {Limit: 1}, {Limit: 2, UTF8: true},
		{Whole: true}, {Whole: true, Limit: 3, UTF8: true}, {Sep: []byte("\r\n"), Limit: 3},
	}
	for _, in := range inputs {
		for _, opt := range opts {
			var cat []byte
			for _, r := range refSplit([]byte(in), opt) {
				cat = append(cat, r.Rec...)
			}
			if string(cat) != in {
				t.Errorf("refSplit(%q, %s) concatenates to %q", in, describeOptions(opt), cat)
			}
		}
	}
}
