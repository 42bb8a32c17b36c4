package linereader

// NewTail: the last n records of an input are exactly the last n of a forward read (same
// bytes, same absolute offsets, LineNo counted from 0), for every splittable separator,
// every n and buffer sizes down to one byte, and finding them costs about a block of
// reads, not the input.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fromEndBufferSizes are the buffer sizes the reading-from-the-end tests go through: down
// to one byte, so that separators and records straddle every block edge.
var fromEndBufferSizes = []int{1, 2, 3, 5, 8, 64, 0}

// fromEndAlphabet is the alphabet of random inputs for sep: its bytes, dense, with bytes
// that are not in it, "\r" for CRLF and the byte after which a multi-byte separator may
// be cut.
func fromEndAlphabet(sep string) string { return sep + sep + "z\r\n" + sep[:1] }

// tailDiff compares NewTail(in, n) with the last n records of a forward read, read with
// the named iterator, and returns "" or what differs.
func tailDiff(in []byte, n int, opt Options, how string) string {
	want := sequentialRecords(in, opt)
	from := len(want)
	if n > 0 {
		from = max(0, len(want)-n)
	}
	lineBase := int64(0)
	if from > 0 {
		lineBase = want[from-1].LineNo
	}
	want = append([]Seen(nil), want[from:]...)
	for i := range want {
		want[i].LineNo -= lineBase
	}
	got, err := ReadAll(NewTail(bytes.NewReader(in), int64(len(in)), n, opt), how)
	if err != nil {
		return fmt.Sprintf("tail %d of %q: %v", n, in, err)
	}
	switch how {
	case "Pieces":
		got = Joined(got)
	case "Runs":
		// A run is several records back to back: compared by their bytes.
		got, want = joinedRuns(got), joinedRuns(want)
	}
	if diff := seenDiff(want, got); diff != "" {
		return fmt.Sprintf("tail %d of %q, sep %q chomp %v buffer %d, %s: %s", n, in, opt.Sep, opt.Chomp, opt.BufferSize, how, diff)
	}
	return ""
}

// joinedRuns is one record of the bytes of every record of s, with the offset of the
// first and the LineNo of the last.
func joinedRuns(s []Seen) []Seen {
	if len(s) == 0 {
		return nil
	}
	var b strings.Builder
	for _, x := range s {
		b.WriteString(x.Rec)
	}
	return []Seen{{Rec: b.String(), LineNo: s[len(s)-1].LineNo, Off: s[0].Off}}
}

// seenDiff returns "" when got is want, or the first difference. A record whose LineNo
// and Offset were not observed (in the middle of a batch) is compared by its bytes.
func seenDiff(want, got []Seen) string {
	for i := range min(len(want), len(got)) {
		w, g := want[i], got[i]
		if g.LineNo == 0 && g.Off == 0 {
			w.LineNo, w.Off = 0, 0
		}
		if w != g {
			return fmt.Sprintf("record %d is %v, want %v", i, got[i], want[i])
		}
	}
	if len(want) != len(got) {
		return fmt.Sprintf("%d records, want %d", len(got), len(want))
	}
	return ""
}

func TestTailMatchesForwardReadForEveryN(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	for _, sep := range splittableSeps {
		for range 30 {
			in := RandomOver(rng, fromEndAlphabet(sep), rng.IntN(60))
			for _, bufSize := range fromEndBufferSizes {
				for _, chomp := range []bool{false, true} {
					opt := Options{Sep: []byte(sep), Chomp: chomp, BufferSize: bufSize}
					for n := -1; n <= bytes.Count(in, []byte(sep))+2; n++ {
						if diff := tailDiff(in, n, opt, "Next"); diff != "" {
							t.Fatal(diff)
						}
					}
				}
			}
		}
	}
}

func TestTailEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want []string
	}{
		{"", 3, nil},
		{"a", 1, []string{"a"}},
		{"\n", 1, []string{"\n"}},
		{"\n\n\n", 2, []string{"\n", "\n"}},
		{"a\nb", 1, []string{"b"}},
		{"a\nb", 2, []string{"a\n", "b"}},
		{"a\nb\n", 1, []string{"b\n"}},
		{"a\nb\n", 5, []string{"a\n", "b\n"}},
		{"a\nb\n", 0, nil},
		{"a\nb\n", -1, nil},
	} {
		for _, bufSize := range fromEndBufferSizes {
			recs, err := ReadAll(NewTail(strings.NewReader(tc.in), int64(len(tc.in)), tc.n, Options{BufferSize: bufSize}), "Next")
			require.NoError(t, err)
			assert.Equal(t, tc.want, Texts(recs), "tail %d of %q, buffer %d", tc.n, tc.in, bufSize)
		}
	}
}

// A CRLF input with Chomp: the "\r" goes with the "\n" at every block edge.
func TestTailCRLFChomp(t *testing.T) {
	in := "one\r\ntwo\r\nthree\r\nfour\r\n"
	for _, bufSize := range fromEndBufferSizes {
		for _, sep := range []string{"", "\r\n"} {
			recs, err := ReadAll(NewTail(strings.NewReader(in), int64(len(in)), 2, Options{Sep: []byte(sep), Chomp: true, BufferSize: bufSize}), "Next")
			require.NoError(t, err)
			assert.Equal(t, []string{"three", "four"}, Texts(recs))
			assert.Equal(t, int64(10), recs[0].Off)
			assert.Equal(t, int64(1), recs[0].LineNo)
		}
	}
}

// Records many times longer than the buffer, with separators straddling every block edge.
func TestTailRecordsLongerThanTheBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	for _, sep := range splittableSeps {
		var b bytes.Buffer
		for range 6 {
			b.Write(bytes.Repeat([]byte("q"), rng.IntN(300)))
			b.WriteString(sep)
		}
		b.WriteString("unterminated")
		for _, bufSize := range []int{1, 7, 16} {
			for n := 1; n <= 8; n++ {
				for _, how := range Iterators {
					if diff := tailDiff(b.Bytes(), n, Options{Sep: []byte(sep), BufferSize: bufSize}, how); diff != "" {
						t.Fatal(diff)
					}
				}
			}
		}
	}
}

// The last 10 short records of 4 MiB cost about a block of reads to find (the block
// before the end, and the part of a block after it, as the reads are aligned) and their
// own bytes to read: not the input.
func TestTailReadsAboutOneBlock(t *testing.T) {
	in := []byte(exampleLines(4 << 20))
	for _, bufSize := range []int{0, 4096} {
		src := &countingReaderAt{src: bytes.NewReader(in)}
		recs, err := ReadAll(NewTail(src, int64(len(in)), 10, Options{BufferSize: bufSize}), "Views")
		require.NoError(t, err)
		require.Len(t, recs, 10)
		block := int64(max(bufSize, DefaultBufferSize))
		if bufSize > 0 {
			block = int64(bufSize)
		}
		tailBytes := int64(len(in)) - recs[0].Off
		assert.LessOrEqual(t, src.read, block+int64(len(in)-1)%block+tailBytes, "buffer %d: %d bytes read", bufSize, src.read)
		assert.LessOrEqual(t, src.calls, 5, "buffer %d", bufSize)
	}
}

// exampleLines returns about size bytes of numbered lines of 10 to 80 bytes.
func exampleLines(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%d %s\n", i, strings.Repeat("x", 7+i%70))
	}
	return b.String()
}

func TestTailNotSplittable(t *testing.T) {
	for _, opt := range []Options{{Paragraph: true}, {Whole: true}, {Limit: 3}, {Sep: []byte("aa")}, {Sep: []byte("aba")}} {
		r := NewTail(strings.NewReader("aaaa\nabab"), 9, 2, opt)
		assert.False(t, r.Next())
		assert.ErrorIs(t, r.Err(), ErrNotSplittable, "%+v", opt)
	}
	r := NewTail(strings.NewReader("a"), 1, 1, Options{Paragraph: true, Whole: true})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), ErrInvalidOptions)
}

// Decompress refuses compressed input, as a section does, and reads plain input as it is.
func TestTailDecompress(t *testing.T) {
	gz := Gzipped(t, []byte("a\nb\nc\n"))
	r := NewTail(bytes.NewReader(gz), int64(len(gz)), 2, Options{Decompress: true})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), ErrNotSplittable)
	assert.ErrorContains(t, r.Err(), "gzip")
	recs, err := ReadAll(NewTail(strings.NewReader("a\nb\nc\n"), 6, 2, Options{Decompress: true}), "Lines")
	require.NoError(t, err)
	assert.Equal(t, []string{"b\n", "c\n"}, Texts(recs))
}

func TestTailReadErrorIsReported(t *testing.T) {
	boom := errors.New("boom")
	in := strings.Repeat("abc\n", 100)
	src := badByteReaderAt{data: []byte(in), bad: 10, err: boom}
	recs, err := ReadAll(NewTail(src, int64(len(in)), 2, Options{BufferSize: 8}), "Next")
	require.NoError(t, err, "the search reads only the end")
	assert.Equal(t, []string{"abc\n", "abc\n"}, Texts(recs))
	r := NewTail(src, int64(len(in)), 100, Options{BufferSize: 8})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), boom)
	r = NewTail(failingAt{boom}, int64(len(in)), 2, Options{})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), boom)
	// A size larger than the input: the input is shorter than it was said to be.
	r = NewTail(strings.NewReader("a\nb\n"), 10, 1, Options{})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), io.ErrUnexpectedEOF)
}

// The size bounds the input: bytes after it are not read.
func TestTailStopsAtSize(t *testing.T) {
	recs, err := ReadAll(NewTail(strings.NewReader("a\nb\nc\nd\n"), 5, 2, Options{}), "Next")
	require.NoError(t, err)
	assert.Equal(t, []string{"b\n", "c"}, Texts(recs))
	assert.Equal(t, int64(2), recs[0].Off)
}

// badByteReaderAt serves data but fails every read that covers the byte at offset bad,
// as a disk with one unreadable sector does; reads on either side of it succeed.
type badByteReaderAt struct {
	data []byte
	bad  int64
	err  error
}

func (b badByteReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off <= b.bad && b.bad < off+int64(len(p)) {
		return 0, b.err
	}
	if off >= int64(len(b.data)) {
		return 0, io.EOF
	}
	n := copy(p, b.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TailStart is where NewTail's first record starts (size when there is none), for
// every splittable separator and n; it refuses what NewTail refuses.
func TestTailStartIsWhereNewTailBegins(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	for range 2000 {
		sep := splittableSeps[rng.IntN(len(splittableSeps))]
		in := RandomOver(rng, fromEndAlphabet(sep), rng.IntN(60))
		opt := Options{Sep: []byte(sep), BufferSize: 1 + rng.IntN(9)}
		n := rng.IntN(8)
		got, err := TailStart(bytes.NewReader(in), int64(len(in)), n, opt)
		require.NoError(t, err)
		r := NewTail(bytes.NewReader(in), int64(len(in)), n, opt)
		want := int64(len(in))
		if r.Next() {
			want = r.Offset()
		}
		require.NoError(t, r.Err())
		require.Equal(t, want, got, "input %q sep %q n %d", in, sep, n)
	}
	_, err := TailStart(strings.NewReader("a\n"), 2, 1, Options{Paragraph: true})
	assert.ErrorIs(t, err, ErrNotSplittable)
	gz := Gzipped(t, []byte("a\nb\n"))
	_, err = TailStart(bytes.NewReader(gz), int64(len(gz)), 1, Options{Decompress: true})
	assert.ErrorIs(t, err, ErrNotSplittable)
	_, err = TailStart(strings.NewReader("a\n"), 10, 1, Options{})
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}
