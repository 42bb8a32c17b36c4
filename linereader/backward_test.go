package linereader

// NewBackward: the records of an input last first are exactly a forward read's, reversed
// (same bytes, same absolute offsets; LineNo counts the records yielded), for every
// splittable separator, Chomp, buffer sizes down to one byte and every iterator; a read
// error loses no record that lies after it; the buffer grows only for a record longer
// than it.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reversed is the reference: a forward read's records last first, LineNo counting the
// records yielded.
func reversed(in []byte, opt Options) []Seen {
	want := slices.Clone(sequentialRecords(in, opt))
	slices.Reverse(want)
	for i := range want {
		want[i].LineNo = int64(i + 1)
	}
	return want
}

// splitRuns cuts the runs of a backward Runs loop (pieces joined first) into their
// records: every record of a run of several ends with the separator.
func splitRuns(runs []Seen, opt Options) []string {
	sep := string(opt.Separator())
	var out []string
	for _, run := range Joined(runs) {
		rest := run.Rec
		for {
			i := strings.Index(rest, sep)
			if i < 0 || i+len(sep) == len(rest) {
				out = append(out, rest)
				break
			}
			out = append(out, rest[:i+len(sep)])
			rest = rest[i+len(sep):]
		}
	}
	return out
}

// backwardDiff compares NewBackward over src with want, read with the named iterator,
// and returns "" or what differs; wantErr is the error Err must report (nil for none).
func backwardDiff(src io.ReaderAt, size int64, opt Options, how string, want []Seen, wantErr error) string {
	got, err := ReadAll(NewBackward(src, size, opt), how)
	what := fmt.Sprintf("sep %q chomp %v buffer %d, %s", opt.Sep, opt.Chomp, opt.BufferSize, how)
	if !errors.Is(err, wantErr) || (wantErr == nil) != (err == nil) {
		return fmt.Sprintf("%s: err %v, want %v", what, err, wantErr)
	}
	if how == "Runs" {
		// A backward run is several records last first: compared by their bytes.
		if g, w := splitRuns(got, opt), Texts(want); !slices.Equal(g, w) {
			return fmt.Sprintf("%s: got %q, want %q", what, g, w)
		}
		return ""
	}
	if diff := seenDiff(want, got); diff != "" {
		return what + ": " + diff
	}
	return ""
}

func TestBackwardMatchesForwardReadReversed(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	for _, sep := range splittableSeps {
		for range 40 {
			in := RandomOver(rng, fromEndAlphabet(sep), rng.IntN(80))
			for _, bufSize := range fromEndBufferSizes {
				for _, chomp := range []bool{false, true} {
					opt := Options{Sep: []byte(sep), Chomp: chomp, BufferSize: bufSize}
					want := reversed(in, opt)
					for _, how := range Iterators {
						if diff := backwardDiff(bytes.NewReader(in), int64(len(in)), opt, how, want, nil); diff != "" {
							t.Fatalf("input %q: %s", in, diff)
						}
					}
				}
			}
		}
	}
}

func TestBackwardEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"\n", []string{"\n"}},
		{"\n\n\n", []string{"\n", "\n", "\n"}},
		{"a\nb", []string{"b", "a\n"}},
		{"a\nb\n", []string{"b\n", "a\n"}},
		{"a\n\nb\n", []string{"b\n", "\n", "a\n"}},
	} {
		for _, bufSize := range fromEndBufferSizes {
			recs, err := ReadAll(NewBackward(strings.NewReader(tc.in), int64(len(tc.in)), Options{BufferSize: bufSize}), "Next")
			require.NoError(t, err)
			assert.Equal(t, tc.want, Texts(recs), "%q, buffer %d", tc.in, bufSize)
		}
	}
}

// Records many times longer than the buffer, between short ones, with separators
// straddling every block edge; and the buffer goes back to its size once they are passed.
func TestBackwardRecordsLongerThanTheBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 4))
	for _, sep := range splittableSeps {
		var b bytes.Buffer
		for i := range 12 {
			b.Write(bytes.Repeat([]byte("q"), rng.IntN(2+i%3*300)))
			b.WriteString(sep)
		}
		b.WriteString("unterminated")
		in := b.Bytes()
		for _, bufSize := range []int{1, 7, 16} {
			for _, chomp := range []bool{false, true} {
				opt := Options{Sep: []byte(sep), Chomp: chomp, BufferSize: bufSize}
				want := reversed(in, opt)
				for _, how := range Iterators {
					if diff := backwardDiff(bytes.NewReader(in), int64(len(in)), opt, how, want, nil); diff != "" {
						t.Fatal(diff)
					}
				}
			}
		}
	}
}

// One buffer of twice BufferSize serves a file of short records from end to start; a
// record longer than it grows it, and once that record is passed it is twice BufferSize
// again (from the read after the bytes the grown buffer held).
func TestBackwardBufferGrowsOnlyForALongRecord(t *testing.T) {
	const bufSize = 4096
	short := exampleLines(1 << 20)
	r := NewBackward(strings.NewReader(short), int64(len(short)), Options{BufferSize: bufSize})
	peak := 0
	for range r.Views() {
		peak = max(peak, len(r.e.back.win))
	}
	require.NoError(t, r.Err())
	assert.Equal(t, 2*bufSize, peak, "short records")

	long := exampleLines(4<<20) + strings.Repeat("y", 1<<20) + "\n" + short[:100<<10]
	r = NewBackward(strings.NewReader(long), int64(len(long)), Options{BufferSize: bufSize})
	peak = 0
	for range r.Views() {
		win := len(r.e.back.win)
		peak = max(peak, win)
		if r.Offset() < 1<<20 {
			assert.Equal(t, 2*bufSize, win, "given back after the long record")
		}
	}
	require.NoError(t, r.Err())
	assert.GreaterOrEqual(t, peak, 1<<20)
	assert.LessOrEqual(t, peak, 2*(1<<20)+2*bufSize)
}

func TestBackwardAccessors(t *testing.T) {
	in := "one\r\ntwo\r\nthree"
	r := NewBackward(strings.NewReader(in), int64(len(in)), Options{Chomp: true, BufferSize: 4})
	assert.Nil(t, r.Bytes(), "no current record before Next")
	require.True(t, r.Next())
	assert.Equal(t, "three", r.Text())
	assert.Equal(t, int64(10), r.Offset())
	assert.Equal(t, int64(15), r.EndOffset())
	assert.Equal(t, int64(1), r.LineNo())
	require.True(t, r.Next())
	assert.Equal(t, []byte("two"), r.Line())
	assert.Equal(t, int64(5), r.Offset())
	assert.Equal(t, int64(10), r.EndOffset())
	s := r.Stats()
	assert.Equal(t, int64(2), s.Records)
	assert.Equal(t, int64(10), s.Bytes, "from the current record's start to the end")
	assert.Equal(t, 5, s.MaxRecord)
	assert.Positive(t, s.Reads)
	require.True(t, r.Next())
	assert.Equal(t, "one", r.Text())
	assert.False(t, r.Next())
	require.NoError(t, r.Err())
	assert.Nil(t, r.Bytes())
	assert.Equal(t, int64(0), r.Offset(), "the last record's offset stays")
	assert.Equal(t, int64(len(in)), r.Stats().Bytes)

	r = NewBackward(strings.NewReader(in), int64(len(in)), Options{})
	require.True(t, r.Next())
	require.NoError(t, r.Close())
	assert.False(t, r.Next(), "Close ends iteration")

	// Reset makes it a forward reader of the new source.
	r = NewBackward(strings.NewReader(in), int64(len(in)), Options{})
	require.True(t, r.Next())
	r.Reset(strings.NewReader("x\ny\n"))
	recs, err := ReadAll(r, "Views")
	require.NoError(t, err)
	assert.Equal(t, []string{"x\n", "y\n"}, Texts(recs))
}

// A Batches loop that stops in the middle of a batch leaves the reader on the batch's
// last record; another iterator goes on from the record before it, as forward.
func TestBackwardIteratorsNest(t *testing.T) {
	in := []byte(exampleLines(200 << 10))
	want := reversed(in, Options{})
	for _, outer := range Iterators {
		for _, inner := range Iterators {
			r := NewBackward(bytes.NewReader(in), int64(len(in)), Options{BufferSize: 1000})
			var got []Seen
			var err error
			first, _ := ReadSteps(r, outer, func(recs [][]byte) bool {
				got, err = ReadAll(r, inner)
				return false
			})
			require.NoError(t, err)
			all := append(first, got...)
			switch {
			case inner == "Runs" || outer == "Runs":
				// A run is several records: compared by their bytes.
				assert.Equal(t, Texts(want), splitRuns(all, Options{}), "%s in %s", inner, outer)
				continue
			case inner == "Batches" || outer == "Batches":
				// Mid-batch records are compared by their bytes.
				assert.Equal(t, Texts(want), Texts(all), "%s in %s", inner, outer)
				continue
			}
			if diff := seenDiff(want, all); diff != "" {
				t.Fatalf("%s in %s: %s", inner, outer, diff)
			}
		}
	}
}

// A read error at any byte: every record that lies, with the separator before it,
// wholly after the bad byte is yielded, then Err reports the error.
func TestBackwardReadErrorAtEveryByte(t *testing.T) {
	boom := errors.New("bad sector")
	rng := rand.New(rand.NewPCG(30, 5))
	for _, sep := range splittableSeps {
		in := RandomOver(rng, fromEndAlphabet(sep), 60)
		for _, bufSize := range []int{1, 3, 8, 0} {
			opt := Options{Sep: []byte(sep), BufferSize: bufSize}
			all := reversed(in, opt)
			for bad := range int64(len(in)) {
				var want []Seen
				for _, s := range all {
					if s.Off-int64(len(sep)) > bad {
						want = append(want, s)
					}
				}
				src := badByteReaderAt{data: in, bad: bad, err: boom}
				for _, how := range []string{"Next", "Views", "Batches"} {
					if diff := backwardDiff(src, int64(len(in)), opt, how, want, boom); diff != "" {
						t.Fatalf("input %q bad byte %d: %s", in, bad, diff)
					}
				}
			}
		}
	}
}

func TestBackwardShortSource(t *testing.T) {
	r := NewBackward(strings.NewReader("a\nb\n"), 10, Options{})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), io.ErrUnexpectedEOF)
	r = NewBackward(strings.NewReader("a\nb\n"), -1, Options{})
	assert.False(t, r.Next())
	assert.ErrorContains(t, r.Err(), "negative")
}

func TestBackwardNotSplittable(t *testing.T) {
	for _, opt := range []Options{{Paragraph: true}, {Whole: true}, {Limit: 3}, {Sep: []byte("aa")}, {Sep: []byte("aba")}} {
		r := NewBackward(strings.NewReader("aaaa\nabab"), 9, opt)
		assert.False(t, r.Next())
		assert.ErrorIs(t, r.Err(), ErrNotSplittable, "%+v", opt)
		assert.False(t, r.Next())
	}
	r := NewBackward(strings.NewReader("a"), 1, Options{Paragraph: true, Whole: true})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), ErrInvalidOptions)

	gz := Gzipped(t, []byte("a\nb\nc\n"))
	r = NewBackward(bytes.NewReader(gz), int64(len(gz)), Options{Decompress: true})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), ErrNotSplittable)
	recs, err := ReadAll(NewBackward(strings.NewReader("a\nb\n"), 4, Options{Decompress: true}), "Lines")
	require.NoError(t, err)
	assert.Equal(t, []string{"b\n", "a\n"}, Texts(recs))
}

// MaxRecord: the records after the long one are yielded, then a *TooLongError with the
// long record's offset, also when it is far longer than the buffer.
func TestBackwardMaxRecord(t *testing.T) {
	in := "a\n" + strings.Repeat("L", 5000) + "\nbb\nc\n"
	for _, bufSize := range []int{1, 16, 0} {
		r := NewBackward(strings.NewReader(in), int64(len(in)), Options{MaxRecord: 100, BufferSize: bufSize})
		recs, err := ReadAll(r, "Views")
		assert.Equal(t, []string{"c\n", "bb\n"}, Texts(recs))
		var tooLong *TooLongError
		require.ErrorAs(t, err, &tooLong, "buffer %d", bufSize)
		assert.Equal(t, TooLongError{Offset: 2, LineNo: 3, Max: 100}, *tooLong)
	}
}

// Regression: NewTail and NewBackward kept a refusal (unsplittable options, compressed
// input) as an error of the options, so Reset never read the new source; and a backward
// Reader, Reset, read its new source without the short path. Reset reads the new source
// forward, exactly, whatever the reader was.
func TestFromEndResetReadsTheNewSourceForward(t *testing.T) {
	in, next := "a\nbb\n\nccc", "x\nyy\n\n\nz"
	for name, mk := range map[string]func(opt Options) *Reader{
		"NewTail":     func(opt Options) *Reader { return NewTail(strings.NewReader(in), int64(len(in)), 2, opt) },
		"NewBackward": func(opt Options) *Reader { return NewBackward(strings.NewReader(in), int64(len(in)), opt) },
	} {
		for _, opt := range []Options{{}, {Paragraph: true}, {BufferSize: 4}} {
			r := mk(opt)
			for r.Next() {
			}
			r.Reset(strings.NewReader(next))
			var got, want []string
			for rec := range r.Lines() {
				got = append(got, string(rec))
			}
			for rec := range New(strings.NewReader(next), opt).Lines() {
				want = append(want, string(rec))
			}
			if err := r.Err(); err != nil || !slices.Equal(got, want) {
				t.Errorf("%s %+v, Reset: %q, %v; want %q", name, opt, got, err, want)
			}
		}
	}
}

// Records longer than longAt (8 MiB by default, lowered here to a few bytes) are not
// held in the window: located by reading on backwards, then read forward from src, whole
// or, for Pieces and Runs, in pieces of BufferSize that join to the record. The records
// are exactly a forward read's, reversed, with Chomp, MaxRecord and TooLong too.
func TestBackwardLongRecordsReadFromSource(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 7))
	for i := range 3000 {
		sep := splittableSeps[rng.IntN(len(splittableSeps))]
		in := RandomOver(rng, fromEndAlphabet(sep), rng.IntN(80))
		opt := Options{Sep: []byte(sep), Chomp: rng.IntN(2) == 0, BufferSize: 1 + rng.IntN(8)}
		if rng.IntN(3) == 0 {
			opt.MaxRecord, opt.TooLong = 1+rng.IntN(12), TooLong(1+rng.IntN(2))
		}
		want := New(bytes.NewReader(in), opt)
		var texts []string
		for rec := range want.Lines() {
			texts = append([]string{string(rec)}, texts...)
		}
		require.NoError(t, want.Err())
		longAt := rng.IntN(8)
		for _, how := range Iterators {
			r := NewBackward(bytes.NewReader(in), int64(len(in)), opt)
			r.e.back.longAt = longAt
			got, err := ReadAll(r, how)
			require.NoError(t, err, "case %d", i)
			gotTexts := Texts(got)
			switch how {
			case "Pieces":
				gotTexts = Texts(Joined(got))
			case "Runs":
				gotTexts = splitRuns(got, opt)
			}
			if !slices.Equal(gotTexts, texts) {
				t.Fatalf("case %d input %q %+v longAt %d %s: got %q, want %q", i, in, opt, longAt, how, gotTexts, texts)
			}
		}
	}
}

// A record of 64 MiB read backwards by Pieces comes in pieces of BufferSize, with the
// offsets of a forward read, and the window stays small; Views gets it whole, in one
// array of its length.
func TestBackwardLongRecordBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB")
	}
	long := bytes.Repeat([]byte("y"), 64<<20)
	in := slices.Concat([]byte("first\n"), long, []byte("\nlast\n"))
	r := NewBackward(bytes.NewReader(in), int64(len(in)), Options{})
	var pieces, partial int
	var joined int64
	maxWin := 0
	for p := range r.Pieces() {
		maxWin = max(maxWin, len(r.e.back.win))
		if r.Offset() >= 6 && r.Offset() < int64(6+len(long)+1) {
			require.Equal(t, int64(6)+joined, r.Offset(), "piece %d", pieces)
			joined += int64(len(p))
			pieces++
			if r.Partial() {
				partial++
			}
		}
	}
	require.NoError(t, r.Err())
	assert.Equal(t, int64(len(long)+1), joined, "the record, its separator included")
	assert.Equal(t, pieces-1, partial)
	assert.LessOrEqual(t, maxWin, 2*gatherMin+4*DefaultBufferSize, "the window")

	r = NewBackward(bytes.NewReader(in), int64(len(in)), Options{Chomp: true})
	var lens []int
	for rec := range r.Views() {
		lens = append(lens, len(rec))
	}
	require.NoError(t, r.Err())
	assert.Equal(t, []int{4, len(long), 5}, lens)
}

// A backward run: the records of [Offset, EndOffset) last first, LineNo counting each;
// the input's unterminated last record comes alone.
func TestBackwardRuns(t *testing.T) {
	in := "a\nbb\nccc\ndddd"
	r := NewBackward(strings.NewReader(in), int64(len(in)), Options{})
	type run struct {
		text     string
		off, end int64
		lineNo   int64
		partial  bool
	}
	var got []run
	for p := range r.Runs() {
		got = append(got, run{string(p), r.Offset(), r.EndOffset(), r.LineNo(), r.Partial()})
	}
	require.NoError(t, r.Err())
	require.Equal(t, []run{
		{"dddd", 9, 13, 1, false},
		{"ccc\nbb\n", 2, 9, 3, false},
		{"a\n", 0, 2, 4, false},
	}, got)
}
