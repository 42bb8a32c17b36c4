package linereader_test

// One table case per rule and example of docs/semantics.md, then the accessors' contracts of
// the Reader docs: lifetimes (borrowed vs owned records), errors, Stats, Reset, Open/Close/Foreach.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

var errBoom = errors.New("boom")

// semCase is one input, its options and what docs/semantics.md says it yields.
type semCase struct {
	name    string
	in      string
	opt     linereader.Options
	want    []string
	lineNos []int64 // LineNo after each record; nil: not checked by this case
	offsets []int64 // Offset of each record; nil: not checked by this case
}

func (tc semCase) check(t *testing.T, got []linereader.Seen) {
	t.Helper()
	if !slices.Equal(linereader.Texts(got), tc.want) {
		t.Fatalf("%q %s: records\n got %q\nwant %q", tc.in, describeOptions(tc.opt), linereader.Texts(got), tc.want)
	}
	for i, r := range got {
		if tc.lineNos != nil && r.LineNo != tc.lineNos[i] {
			t.Errorf("%q %s: record %d %q: LineNo %d, want %d", tc.in, describeOptions(tc.opt), i, r.Rec, r.LineNo, tc.lineNos[i])
		}
		if tc.offsets != nil && r.Off != tc.offsets[i] {
			t.Errorf("%q %s: record %d %q: Offset %d, want %d", tc.in, describeOptions(tc.opt), i, r.Rec, r.Off, tc.offsets[i])
		}
	}
}

func sep(s string) []byte { return []byte(s) }

var semanticsCases = []semCase{
	// Separators.
	{name: "empty input yields nothing", in: "", want: nil},
	{name: "default separator", in: "a\nbb\nccc\n", want: []string{"a\n", "bb\n", "ccc\n"},
		lineNos: []int64{1, 2, 3}, offsets: []int64{0, 2, 5}},
	{name: "last record unterminated", in: "a\nb", want: []string{"a\n", "b"}, lineNos: []int64{1, 2}, offsets: []int64{0, 2}},
	{name: "only separators", in: "\n\n\n", want: []string{"\n", "\n", "\n"}, lineNos: []int64{1, 2, 3}},
	{name: "explicit newline sep", in: "a\nb", opt: linereader.Options{Sep: sep("\n")}, want: []string{"a\n", "b"}},
	{name: "one byte sep", in: "abcbd", opt: linereader.Options{Sep: sep("b")}, want: []string{"ab", "cb", "d"}},
	{name: "multi byte sep", in: "1<>2<>", opt: linereader.Options{Sep: sep("<>")}, want: []string{"1<>", "2<>"}},
	{name: "sep aa over aaaaa", in: "aaaaa", opt: linereader.Options{Sep: sep("aa")}, want: []string{"aa", "aa", "a"},
		lineNos: []int64{1, 2, 3}, offsets: []int64{0, 2, 4}},
	{name: "sep aba over ababababa", in: "ababababa", opt: linereader.Options{Sep: sep("aba")}, want: []string{"aba", "baba", "ba"},
		offsets: []int64{0, 3, 7}},
	{name: "crlf sep ignores lone newline", in: "a\nb\r\nc\r", opt: linereader.Options{Sep: sep("\r\n")}, want: []string{"a\nb\r\n", "c\r"}},
	{name: "only multi byte separators", in: "abcabc", opt: linereader.Options{Sep: sep("abc")}, want: []string{"abc", "abc"}},
	{name: "sep longer than input", in: "ab", opt: linereader.Options{Sep: sep("abc")}, want: []string{"ab"}, lineNos: []int64{1}},

	// Paragraph mode.
	{name: "paragraph", in: "a\nb\n\nc\n", opt: linereader.Options{Paragraph: true}, want: []string{"a\nb\n\n", "c\n"},
		lineNos: []int64{1, 2}, offsets: []int64{0, 5}},
	{name: "paragraph leading newlines skipped", in: "\n\n\na\n\nb", opt: linereader.Options{Paragraph: true},
		want: []string{"a\n\n", "b"}, offsets: []int64{3, 6}},
	{name: "paragraph three newlines collapse to two", in: "a\n\n\n\nb\n\n\n", opt: linereader.Options{Paragraph: true},
		want: []string{"a\n\n", "b\n\n"}, lineNos: []int64{1, 2}, offsets: []int64{0, 5}},
	{name: "paragraph only newlines yields nothing", in: "\n\n\n\n", opt: linereader.Options{Paragraph: true}, want: nil},
	{name: "paragraph single newline", in: "\n", opt: linereader.Options{Paragraph: true}, want: nil},
	{name: "paragraph crlf does not separate", in: "a\r\n\r\nb", opt: linereader.Options{Paragraph: true}, want: []string{"a\r\n\r\nb"}},
	{name: "paragraph space line does not separate", in: "a\n \nb\n", opt: linereader.Options{Paragraph: true}, want: []string{"a\n \nb\n"}},
	{name: "paragraph chomp", in: "a\n\n\nb\n", opt: linereader.Options{Paragraph: true, Chomp: true},
		want: []string{"a", "b\n"}, offsets: []int64{0, 4}},
	{name: "paragraph chomp final double newline", in: "a\n\n", opt: linereader.Options{Paragraph: true, Chomp: true}, want: []string{"a"}},
	{name: "paragraph limit", in: "\n\nabc\n\n\nd", opt: linereader.Options{Paragraph: true, Limit: 2},
		want: []string{"ab", "c\n", "d"}, lineNos: []int64{0, 0, 1}, offsets: []int64{2, 4, 8}},
	{name: "paragraph limit exact separator", in: "a\n\nb", opt: linereader.Options{Paragraph: true, Limit: 3, Chomp: true},
		want: []string{"a", "b"}, lineNos: []int64{1, 2}, offsets: []int64{0, 3}},

	// Whole.
	{name: "whole", in: "a\nb\n", opt: linereader.Options{Whole: true}, want: []string{"a\nb\n"}, lineNos: []int64{1}},
	{name: "whole empty", in: "", opt: linereader.Options{Whole: true}, want: nil},
	{name: "whole chomp removes nothing", in: "a\n", opt: linereader.Options{Whole: true, Chomp: true}, want: []string{"a\n"}},
	{name: "whole limit pieces", in: "ab\xFFcd\ne", opt: linereader.Options{Whole: true, Limit: 2},
		want: []string{"ab", "\xFFc", "d\n", "e"}, lineNos: []int64{0, 0, 0, 1}, offsets: []int64{0, 2, 4, 6}},
	{name: "whole limit exact pieces", in: "abcd", opt: linereader.Options{Whole: true, Limit: 2},
		want: []string{"ab", "cd"}, lineNos: []int64{0, 0}},

	// Limit.
	{name: "sep split by limit cut is not found", in: "xxabyyab", opt: linereader.Options{Sep: sep("ab"), Limit: 3},
		want: []string{"xxa", "byy", "ab"}, lineNos: []int64{0, 0, 1}, offsets: []int64{0, 3, 6}},
	{name: "sep ending on limit counts", in: "abc\nd", opt: linereader.Options{Limit: 4}, want: []string{"abc\n", "d"},
		lineNos: []int64{1, 2}},
	{name: "multi byte sep ending on limit counts", in: "xab", opt: linereader.Options{Sep: sep("ab"), Limit: 3, Chomp: true},
		want: []string{"x"}, lineNos: []int64{1}},
	{name: "limit honoured below sep length", in: "abab", opt: linereader.Options{Sep: sep("ab"), Limit: 1},
		want: []string{"a", "b", "a", "b"}, lineNos: []int64{0, 0, 0, 0}},
	{name: "limit zero is no cap", in: "abcdef\n", opt: linereader.Options{Limit: 0}, want: []string{"abcdef\n"}},
	{name: "limit one", in: "ab\n", opt: linereader.Options{Limit: 1}, want: []string{"a", "b", "\n"}, lineNos: []int64{0, 0, 1}},

	// UTF8.
	{name: "utf8 breaking byte included", in: "a\xE3\x81bcd", opt: linereader.Options{Limit: 2, UTF8: true},
		want: []string{"a\xE3\x81b", "cd"}, lineNos: []int64{0, 0}, offsets: []int64{0, 4}},
	{name: "utf8 completing byte included", in: "a\xE3\x81\x82b", opt: linereader.Options{Limit: 2, UTF8: true},
		want: []string{"a\xE3\x81\x82", "b"}, lineNos: []int64{0, 1}},
	{name: "utf8 without flag splits characters", in: "a\xE3\x81\x82b", opt: linereader.Options{Limit: 2},
		want: []string{"a\xE3", "\x81\x82", "b"}},
	{name: "utf8 four byte character", in: "\xF0\x9F\x98\x80x", opt: linereader.Options{Limit: 1, UTF8: true},
		want: []string{"\xF0\x9F\x98\x80", "x"}},
	{name: "utf8 invalid passes through", in: "\xFF\xFEa\x81", opt: linereader.Options{Limit: 1, UTF8: true},
		want: []string{"\xFF", "\xFE", "a", "\x81"}},
	{name: "utf8 extension ends on separator", in: "a\xE3\nb\n", opt: linereader.Options{Limit: 2, UTF8: true, Chomp: true},
		want: []string{"a\xE3", "b"}, lineNos: []int64{1, 2}, offsets: []int64{0, 3}},
	{name: "utf8 no extension when sep found", in: "\xE3\n\x81", opt: linereader.Options{Limit: 3, UTF8: true},
		want: []string{"\xE3\n", "\x81"}},
	{name: "utf8 whole limit", in: "\xE3\x81\x82\xE3\x81\x82", opt: linereader.Options{Whole: true, Limit: 2, UTF8: true},
		want: []string{"\xE3\x81\x82", "\xE3\x81\x82"}},

	// Chomp.
	{name: "chomp newline", in: "a\nb\n", opt: linereader.Options{Chomp: true}, want: []string{"a", "b"}, lineNos: []int64{1, 2}},
	{name: "chomp crlf", in: "a\r\nb\r\n", opt: linereader.Options{Chomp: true}, want: []string{"a", "b"}},
	{name: "chomp keeps lone cr", in: "x\r\r\n", opt: linereader.Options{Chomp: true}, want: []string{"x\r"}},
	{name: "chomp cr at end of input", in: "x\r", opt: linereader.Options{Chomp: true}, want: []string{"x\r"}},
	{name: "chomp empty lines", in: "\n\r\n", opt: linereader.Options{Chomp: true}, want: []string{"", ""}, lineNos: []int64{1, 2}},
	{name: "chomp cr in previous record", in: "x\r\n", opt: linereader.Options{Limit: 2, Chomp: true},
		want: []string{"x\r", ""}, lineNos: []int64{0, 1}},
	{name: "chomp never a limit cut", in: "ab\n", opt: linereader.Options{Limit: 2, Chomp: true},
		want: []string{"ab", ""}, lineNos: []int64{0, 1}},
	{name: "chomp custom sep exactly", in: "a\nb\r\nc", opt: linereader.Options{Sep: sep("\r\n"), Chomp: true},
		want: []string{"a\nb", "c"}},
	{name: "chomp custom one byte sep", in: "a;b\r;", opt: linereader.Options{Sep: sep(";"), Chomp: true},
		want: []string{"a", "b\r"}},
	{name: "chomp explicit newline sep", in: "a\r\nb\n", opt: linereader.Options{Sep: sep("\n"), Chomp: true},
		want: []string{"a", "b"}},

	// Line numbers.
	{name: "lineno limit cuts", in: "abcdef\nxy\n", opt: linereader.Options{Limit: 4},
		want: []string{"abcd", "ef\n", "xy\n"}, lineNos: []int64{0, 1, 2}, offsets: []int64{0, 4, 7}},
	{name: "lineno final piece exactly limit", in: "abc", opt: linereader.Options{Limit: 3}, want: []string{"abc"}, lineNos: []int64{0}},
	{name: "lineno final piece under limit", in: "abc", opt: linereader.Options{Limit: 4}, want: []string{"abc"}, lineNos: []int64{1}},
}

// bufferSizes are the read sizes every table case is run through.
var bufferSizes = []int{1, 2, 3, 7, 64, 0}

// runawayCap is how many records the tests read of in (linereader.ReadAtMost) before
// they take the engine for one yielding records forever.
func runawayCap(in []byte) int { return 2*len(in) + 16 }

func TestSemantics(t *testing.T) {
	for _, tc := range semanticsCases {
		t.Run(tc.name, func(t *testing.T) {
			want := refSplit([]byte(tc.in), tc.opt)
			for _, bs := range bufferSizes {
				opt := tc.opt
				opt.BufferSize = bs
				r := linereader.New(strings.NewReader(tc.in), opt)
				got, err := linereader.ReadAtMost(r, "Next", runawayCap([]byte(tc.in)))
				require.NoError(t, err, "BufferSize %d", bs)
				tc.check(t, got)
				// Line numbers and offsets of every record, also where the case does not list them.
				assert.Equal(t, want, got, "BufferSize %d", bs)
			}
		})
	}
}

func TestLosslessOnSemanticsInputs(t *testing.T) {
	for _, tc := range semanticsCases {
		if tc.opt.Chomp || tc.opt.Paragraph {
			continue
		}
		r := linereader.New(strings.NewReader(tc.in), tc.opt)
		var cat []byte
		for r.Next() {
			cat = append(cat, r.Bytes()...)
		}
		require.NoError(t, r.Err())
		assert.Equal(t, tc.in, string(cat), "%s: records do not concatenate to the input", tc.name)
	}
}

func TestRecordExactlyBufferSize(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8, 16} {
		line := strings.Repeat("x", size-1) + "\n"
		for _, in := range []string{
			line + line + line,
			line + strings.Repeat("y", size) + "\n" + line, // one byte longer than the buffer
			line[:size-1] + line,                           // one byte shorter
			strings.Repeat("z", size),                      // unterminated, exactly the buffer
		} {
			r := linereader.New(strings.NewReader(in), linereader.Options{BufferSize: size})
			got, err := linereader.ReadAtMost(r, "Next", runawayCap([]byte(in)))
			require.NoError(t, err)
			assert.Equal(t, refSplit([]byte(in), linereader.Options{}), got, "BufferSize %d input %q", size, in)
		}
	}
}

// chunkReader returns its chunks one per Read, splitting a chunk only if p is too small.
type chunkReader struct{ chunks []string }

func (c *chunkReader) Read(p []byte) (int, error) {
	for len(c.chunks) > 0 && c.chunks[0] == "" {
		c.chunks = c.chunks[1:]
	}
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	return n, nil
}

func TestCRAtEndOfReadLFAtStartOfNext(t *testing.T) {
	for _, bs := range bufferSizes {
		r := linereader.New(&chunkReader{chunks: []string{"one\r", "\ntwo\r", "\n\r", "\n"}},
			linereader.Options{Chomp: true, BufferSize: bs})
		got, err := linereader.ReadAtMost(r, "Next", 100)
		require.NoError(t, err)
		assert.Equal(t, []string{"one", "two", ""}, linereader.Texts(got), "BufferSize %d", bs)
	}
}

func TestMultiByteSepSplitAcrossReads(t *testing.T) {
	in := "xx<sep>yy<sep><se<sep>"
	opt := linereader.Options{Sep: sep("<sep>")}
	want := refSplit([]byte(in), opt)
	require.Equal(t, []string{"xx<sep>", "yy<sep>", "<se<sep>"}, linereader.Texts(want))
	for cut := 1; cut < len(in); cut++ {
		for _, bs := range bufferSizes {
			opt.BufferSize = bs
			r := linereader.New(&chunkReader{chunks: []string{in[:cut], in[cut:]}}, opt)
			got, err := linereader.ReadAtMost(r, "Next", 100)
			require.NoError(t, err)
			assert.Equal(t, want, got, "split after %d bytes, BufferSize %d", cut, bs)
		}
	}
}

func TestInvalidOptionsConflict(t *testing.T) {
	tests := []struct {
		name   string
		opt    linereader.Options
		fields []string
	}{
		{"paragraph and whole", linereader.Options{Paragraph: true, Whole: true}, []string{"Paragraph", "Whole"}},
		{"sep and paragraph", linereader.Options{Sep: sep("x"), Paragraph: true}, []string{"Sep", "Paragraph"}},
		{"sep and whole", linereader.Options{Sep: sep("x"), Whole: true}, []string{"Sep", "Whole"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := linereader.New(strings.NewReader("a\nb\n\nc"), tc.opt)
			require.False(t, r.Next(), "first Next with conflicting options")
			err := r.Err()
			require.Error(t, err)
			for _, f := range tc.fields {
				assert.Contains(t, err.Error(), f, "error should name the conflicting field %s", f)
			}
			assert.False(t, r.Next(), "Next after the error")
			assert.Equal(t, err, r.Err(), "Err is sticky")
		})
	}
}

func TestMaxRecordTooLong(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		opt     linereader.Options
		want    []string // yielded before the error
		wantErr *linereader.TooLongError
	}{
		{"second line too long", "ab\ncdefghijkl\nz\n", linereader.Options{MaxRecord: 5},
			[]string{"ab\n"}, &linereader.TooLongError{Offset: 3, LineNo: 2, Max: 5}},
		{"first line too long", "abcdefgh", linereader.Options{MaxRecord: 3},
			nil, &linereader.TooLongError{Offset: 0, LineNo: 1, Max: 3}},
		{"limit above max", "abcd\nxyzxyzxyz", linereader.Options{MaxRecord: 5, Limit: 20},
			[]string{"abcd\n"}, &linereader.TooLongError{Offset: 5, LineNo: 2, Max: 5}},
		{"unterminated last record", "a\nb\nccccccccccccccccc", linereader.Options{MaxRecord: 4},
			[]string{"a\n", "b\n"}, &linereader.TooLongError{Offset: 4, LineNo: 3, Max: 4}},
		{"custom sep", "a;bbbbbbbbbbbbbbbbbb;", linereader.Options{Sep: sep(";"), MaxRecord: 8, Chomp: true},
			[]string{"a"}, &linereader.TooLongError{Offset: 2, LineNo: 2, Max: 8}},
		{"fits exactly", "abcd\nef\n", linereader.Options{MaxRecord: 5}, []string{"abcd\n", "ef\n"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, bs := range []int{1, 2, 3, 64, 0} {
				opt := tc.opt
				opt.BufferSize = bs
				r := linereader.New(strings.NewReader(tc.in), opt)
				got, err := linereader.ReadAtMost(r, "Next", 100)
				assert.Equal(t, tc.want, linereader.Texts(got), "BufferSize %d", bs)
				if tc.wantErr == nil {
					assert.NoError(t, err)
					continue
				}
				var tl *linereader.TooLongError
				if assert.True(t, errors.As(err, &tl), "BufferSize %d: err %v is not a *TooLongError", bs, err) {
					assert.Equal(t, *tc.wantErr, *tl, "BufferSize %d", bs)
				}
				assert.False(t, r.Next())
				assert.Equal(t, err, r.Err(), "Err is sticky")
			}
		})
	}
}

func TestErrNeverEOF(t *testing.T) {
	for _, src := range []func() io.Reader{
		func() io.Reader { return strings.NewReader("") },
		func() io.Reader { return strings.NewReader("a\nb") },
		func() io.Reader { return iotest.DataErrReader(strings.NewReader("a\nb")) },
	} {
		r := linereader.New(src(), linereader.Options{})
		for r.Next() {
		}
		assert.NoError(t, r.Err())
		assert.False(t, r.Next(), "Next after the end")
		assert.NoError(t, r.Err(), "Err after another Next")
	}
}

func TestReadErrorIsSticky(t *testing.T) {
	r := linereader.New(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(errBoom)), linereader.Options{})
	got, err := linereader.ReadAtMost(r, "Next", 10)
	assert.Equal(t, []string{"a\n", "b"}, linereader.Texts(got))
	assert.ErrorIs(t, err, errBoom)
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), errBoom)
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), errBoom)
}

func TestLineOwnsItsBytes(t *testing.T) {
	in := "abc\ndef\nghi\njkl"
	r := linereader.New(strings.NewReader(in), linereader.Options{BufferSize: 4})
	var lines [][]byte
	for r.Next() {
		a, b := r.Line(), r.Line()
		assert.Equal(t, len(a), cap(a), "Line is an exact-size allocation")
		a[0] = 'X' // must change neither the other copy nor the borrowed record
		assert.NotEqual(t, byte('X'), b[0], "two Line calls share memory")
		assert.NotEqual(t, byte('X'), r.Bytes()[0], "Line shares memory with Bytes")
		assert.NotEqual(t, byte('X'), r.Text()[0])
		lines = append(lines, b)
	}
	require.NoError(t, r.Err())
	assert.Equal(t, []string{"abc\n", "def\n", "ghi\n", "jkl"}, toStrings(lines), "retained lines changed by later reads")
}

func toStrings(b [][]byte) []string {
	out := make([]string, len(b))
	for i := range b {
		out[i] = string(b[i])
	}
	return out
}

func TestLinesNeverAlias(t *testing.T) {
	in := strings.Repeat("0123456789\n", 50) + "tail"
	want := strings.SplitAfter(in, "\n")
	r := linereader.New(strings.NewReader(in), linereader.Options{BufferSize: 16})
	var lines [][]byte
	for l := range r.Lines() {
		assert.Equal(t, len(l), cap(l), "Lines record is not exact-size")
		lines = append(lines, l)
	}
	require.NoError(t, r.Err())
	require.Equal(t, want, toStrings(lines))
	for i := range lines {
		for j := range lines[i] {
			lines[i][j] = '#'
		}
		lines[i] = append(lines[i], '!')
		for k := i + 1; k < len(lines); k++ {
			require.Equal(t, want[k], string(lines[k]), "mutating record %d changed record %d", i, k)
		}
	}
}

func TestBatchesFreshAndCapped(t *testing.T) {
	in := strings.Repeat("abcdefg\nhi\n\n", 300)
	want := strings.SplitAfter(in, "\n")
	want = want[:len(want)-1] // SplitAfter's empty tail
	r := linereader.New(strings.NewReader(in), linereader.Options{BufferSize: 16})
	var batches [][][]byte
	for b := range r.Batches() {
		assert.NotEmpty(t, b, "empty batch")
		batches = append(batches, b)
	}
	require.NoError(t, r.Err())
	var recs [][]byte
	for _, b := range batches {
		recs = append(recs, b...)
	}
	require.Equal(t, want, toStrings(recs), "batches retained after the loop changed (a reused batch slice or buffer)")
	for i := 0; i+1 < len(recs); i++ {
		require.Equal(t, len(recs[i]), cap(recs[i]), "record %d is not capacity-capped", i)
		_ = append(recs[i], "ZZZZ"...)
		require.Equal(t, want[i+1], string(recs[i+1]), "appending to record %d changed record %d", i, i+1)
	}
	// Each batch slice is the caller's: overwriting one leaves the others alone.
	for i := range batches {
		for j := range batches[i] {
			batches[i][j] = nil
		}
		if i+1 < len(batches) {
			assert.NotNil(t, batches[i+1][0], "batch slices %d and %d share memory", i, i+1)
		}
	}
}

func TestViewsAndBytesValidDuringBody(t *testing.T) {
	in := "alpha\nbeta\ngamma\r\ndelta"
	want := []string{"alpha", "beta", "gamma", "delta"}
	for _, bs := range bufferSizes {
		r := linereader.New(strings.NewReader(in), linereader.Options{Chomp: true, BufferSize: bs})
		i := 0
		for v := range r.Views() {
			require.Less(t, i, len(want))
			assert.Equal(t, want[i], string(v), "BufferSize %d", bs)
			i++
		}
		require.NoError(t, r.Err())
		assert.Equal(t, len(want), i)

		r = linereader.New(strings.NewReader(in), linereader.Options{Chomp: true, BufferSize: bs})
		i = 0
		for r.Next() {
			require.Less(t, i, len(want))
			assert.Equal(t, want[i], string(r.Bytes()), "BufferSize %d", bs)
			assert.Equal(t, want[i], r.Text(), "BufferSize %d", bs)
			assert.Equal(t, want[i], string(r.Line()), "BufferSize %d", bs)
			i++
		}
		require.NoError(t, r.Err())
	}
}

func TestText(t *testing.T) {
	r := linereader.New(strings.NewReader("héllo\nwörld"), linereader.Options{})
	var got []string
	for r.Next() {
		got = append(got, r.Text())
	}
	require.NoError(t, r.Err())
	assert.Equal(t, []string{"héllo\n", "wörld"}, got)
}

func TestStats(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		opt       linereader.Options
		records   int64
		maxRecord int
	}{
		{"default", "a\nbcd\n", linereader.Options{}, 2, 4},
		{"max after chomp", "abc\r\nd\n", linereader.Options{Chomp: true}, 2, 3},
		{"paragraph skipped newlines counted in bytes", "\n\nab\n\n\ncd\n", linereader.Options{Paragraph: true, Chomp: true}, 2, 3},
		{"trailing paragraph newlines", "ab\n\n\n\n", linereader.Options{Paragraph: true}, 1, 4},
		{"empty", "", linereader.Options{}, 0, 0},
		{"limit", "abcdefg", linereader.Options{Limit: 3}, 3, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := linereader.New(strings.NewReader(tc.in), tc.opt)
			_, err := linereader.ReadAtMost(r, "Next", 100)
			require.NoError(t, err)
			st := r.Stats()
			assert.Equal(t, tc.records, st.Records, "Records")
			assert.Equal(t, int64(len(tc.in)), st.Bytes, "Bytes")
			assert.Equal(t, tc.maxRecord, st.MaxRecord, "MaxRecord")
			assert.Positive(t, st.Reads, "Reads")
		})
	}
}

func TestResetStartsOver(t *testing.T) {
	r := linereader.New(strings.NewReader("first\nsecond\nthird\n"), linereader.Options{BufferSize: 4})
	require.True(t, r.Next())
	require.True(t, r.Next())
	require.Equal(t, "second\n", r.Text())

	r.Reset(strings.NewReader("x\nyz"))
	got, err := linereader.ReadAtMost(r, "Next", 10)
	require.NoError(t, err)
	assert.Equal(t, []linereader.Seen{seen("x\n", 1, 0), seen("yz", 2, 2)}, got)

	// Reset after an error: the new source is read from the start, the old error forgotten.
	r.Reset(io.MultiReader(strings.NewReader("q"), iotest.ErrReader(errBoom)))
	_, err = linereader.ReadAtMost(r, "Next", 10)
	require.ErrorIs(t, err, errBoom)
	r.Reset(strings.NewReader("again\n"))
	got, err = linereader.ReadAtMost(r, "Next", 10)
	require.NoError(t, err)
	assert.Equal(t, []linereader.Seen{seen("again\n", 1, 0)}, got)
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "input.txt")
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
	return name
}

func TestOpenReadClose(t *testing.T) {
	name := writeTemp(t, "one\ntwo\r\nthree")
	r, err := linereader.Open(name, linereader.Options{Chomp: true})
	require.NoError(t, err)
	got, err := linereader.ReadAtMost(r, "Next", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"one", "two", "three"}, linereader.Texts(got))
	assert.NoError(t, r.Close())
	assert.NoError(t, r.Close(), "Close is idempotent")
}

func TestOpenMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	_, err := linereader.Open(missing, linereader.Options{})
	var pe *fs.PathError
	assert.True(t, errors.As(err, &pe), "Open error %v is not an *fs.PathError", err)

	err = linereader.Foreach(missing, linereader.Options{}, func([]byte) error { return nil })
	assert.True(t, errors.As(err, &pe), "Foreach error %v is not an *fs.PathError", err)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestForeach(t *testing.T) {
	name := writeTemp(t, "a\nbb\nccc\n")
	var lines [][]byte
	err := linereader.Foreach(name, linereader.Options{}, func(line []byte) error {
		lines = append(lines, line)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"a\n", "bb\n", "ccc\n"}, toStrings(lines), "Foreach records are copies the caller keeps")
}

func TestForeachStopsAtCallbackError(t *testing.T) {
	name := writeTemp(t, "a\nb\nc\nd\n")
	calls := 0
	err := linereader.Foreach(name, linereader.Options{}, func(line []byte) error {
		calls++
		if string(line) == "b\n" {
			return errBoom
		}
		return nil
	})
	assert.ErrorIs(t, err, errBoom)
	assert.Equal(t, 2, calls, "fn called after it returned an error")
}

func TestBreakEarlyThenClose(t *testing.T) {
	name := writeTemp(t, strings.Repeat("line\n", 100))
	loops := map[string]func(r *linereader.Reader) int{
		"Lines": func(r *linereader.Reader) int {
			n := 0
			for range r.Lines() {
				if n++; n == 3 {
					break
				}
			}
			return n
		},
		"Views": func(r *linereader.Reader) int {
			n := 0
			for range r.Views() {
				if n++; n == 3 {
					break
				}
			}
			return n
		},
		"Batches": func(r *linereader.Reader) int {
			n := 0
			for range r.Batches() {
				n++
				break
			}
			return n
		},
	}
	for name2, loop := range loops {
		t.Run(name2, func(t *testing.T) {
			r, err := linereader.Open(name, linereader.Options{BufferSize: 16})
			require.NoError(t, err)
			assert.Positive(t, loop(r))
			assert.NoError(t, r.Err())
			assert.NoError(t, r.Close())
			assert.NoError(t, r.Close())
		})
	}
}

func ExampleNew() {
	r := linereader.New(strings.NewReader("one\ntwo\r\nthree"), linereader.Options{Chomp: true})
	for r.Next() {
		fmt.Printf("%d %q\n", r.LineNo(), r.Text())
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 "one"
	// 2 "two"
	// 3 "three"
}

func ExampleOptions_limitLineNumbers() {
	r := linereader.New(strings.NewReader("abcdef\nxy\n"), linereader.Options{Limit: 4})
	for line := range r.Lines() {
		fmt.Printf("%q line %d\n", line, r.LineNo())
	}
	// Output:
	// "abcd" line 0
	// "ef\n" line 1
	// "xy\n" line 2
}

func ExampleOptions_paragraphOffsets() {
	r := linereader.New(strings.NewReader("\n\nfirst\nparagraph\n\n\n\nsecond\n"), linereader.Options{Paragraph: true, Chomp: true})
	for r.Next() {
		fmt.Printf("%d: %q\n", r.Offset(), r.Text())
	}
	// Output:
	// 2: "first\nparagraph"
	// 21: "second\n"
}

// Lines, Views and Batches over a regular file yield what the reference yields, with
// LineNo and Offset right inside the loop body, and owned records that later reads do
// not change.
func TestIteratorsOverFile(t *testing.T) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "%d ab\xE3\x81\x82%s", i, []string{"\n", "\r\n", "\n\n\n", "aba"}[i%4])
	}
	content := sb.String()
	name := writeTemp(t, content)
	for _, opt := range []linereader.Options{
		{}, {Chomp: true, BufferSize: 7}, {Sep: sep("ab"), BufferSize: 64}, {Paragraph: true, Chomp: true},
		{Limit: 5, UTF8: true, BufferSize: 3}, {Whole: true, Limit: 1000},
	} {
		want := refSplit([]byte(content), opt)
		// ReadAll also checks that the records of Lines and Batches are unchanged by the
		// reads after them.
		for _, iname := range []string{"Lines", "Views", "Batches"} {
			t.Run(describeOptions(opt)+"/"+iname, func(t *testing.T) {
				r, err := linereader.Open(name, opt)
				require.NoError(t, err)
				defer r.Close()
				got, _ := linereader.ReadAll(r, iname)
				require.NoError(t, r.Err())
				if iname == "Batches" {
					require.Equal(t, linereader.Texts(want), linereader.Texts(got))
				} else {
					require.Equal(t, len(want), len(got))
					for i := range want {
						require.Equal(t, want[i], got[i], "record %d", i)
					}
				}
				st := r.Stats()
				assert.Equal(t, int64(len(want)), st.Records, "Stats.Records")
				assert.Equal(t, int64(len(content)), st.Bytes, "Stats.Bytes")
				assert.Equal(t, refMaxRecord(want), st.MaxRecord, "Stats.MaxRecord")
				require.NoError(t, r.Close())
			})
		}
	}
}

// Foreach over a file agrees with the reference, and its records are the caller's.
func TestForeachMatchesReference(t *testing.T) {
	content := strings.Repeat("alpha\r\nbeta\n\n\ngamma ab", 3000)
	name := writeTemp(t, content)
	for _, opt := range []linereader.Options{{}, {Chomp: true}, {Sep: sep("ab")}, {Paragraph: true}, {Limit: 4, BufferSize: 5}} {
		var got [][]byte
		require.NoError(t, linereader.Foreach(name, opt, func(line []byte) error {
			got = append(got, line)
			return nil
		}))
		assert.Equal(t, linereader.Texts(refSplit([]byte(content), opt)), toStrings(got), describeOptions(opt))
	}
}
