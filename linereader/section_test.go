package linereader

// Sections: for any partition of [0, size) into byte ranges, the sections' records, in
// order, are exactly the records of one sequential read (same bytes, same absolute
// offsets), a record belonging to the section that holds its first byte. Hadoop's
// LineRecordReader broke this more than once where a split boundary meets a multi-byte
// delimiter (MAPREDUCE-6549 duplicated records, HADOOP-9867 lost them): the tests below
// put boundaries at every byte of such delimiters.
//
// The tests are in package linereader so that they can lower Count's parallel threshold
// (parallelCount) and call countParallel with an io.ReaderAt of their own.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/testkit/testfifo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// splittableSeps are the separators the property tests draw from; none can overlap itself.
var splittableSeps = []string{"\n", "\r\n", "ab", "abc", "x", "\x00"}

// sequentialRecords is the reference: one plain read of the whole input.
func sequentialRecords(in []byte, opt Options) []Seen {
	recs, _, err := plainRecords(in, opt, bytesSource)
	if err != nil {
		panic(err)
	}
	return recs
}

// readSections reads src in the sections [cuts[i], cuts[i+1]) and returns their records
// in order, each section's LineNo as reported (counting from 0 in the section), and
// first[i], the index in the result of section i's first record.
func readSections(src io.ReaderAt, cuts []int64, opt Options) (recs []Seen, first []int, err error) {
	for i := 0; i+1 < len(cuts); i++ {
		first = append(first, len(recs))
		got, err := ReadAll(NewSection(src, cuts[i], cuts[i+1], opt), "Next")
		if err != nil {
			return nil, nil, fmt.Errorf("section [%d, %d): %w", cuts[i], cuts[i+1], err)
		}
		recs = append(recs, got...)
	}
	return recs, first, nil
}

// partitionDiff compares the sections of in cut at cuts (0 and len(in) included) with the
// sequential read, and returns "" or what differs. LineNo counts from 0 in each section,
// so what must match is its growth from the record before the section.
func partitionDiff(in []byte, cuts []int64, opt Options) string {
	want := sequentialRecords(in, opt)
	got, first, err := readSections(bytes.NewReader(in), cuts, opt)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	if len(got) != len(want) {
		fmt.Fprintf(&b, "%d records, want %d\n", len(got), len(want))
	}
	sec, lineBase := -1, int64(0)
	for i := range min(len(got), len(want)) {
		for sec+1 < len(first) && first[sec+1] <= i {
			sec++
			lineBase = 0
			if i > 0 {
				lineBase = want[i-1].LineNo
			}
		}
		g, w := got[i], want[i]
		w.LineNo -= lineBase
		if g != w {
			fmt.Fprintf(&b, "record %d (section %d): got %#v, want %#v\n", i, sec, g, w)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("input %q cuts %v sep %q chomp %v buffer %d:\n%s", in, cuts, opt.Sep, opt.Chomp, opt.BufferSize, b.String())
}

// everyTwoWaySplit checks the partitions {[0, c), [c, size)} for every c, with tiny
// buffers too, so that the boundary also falls at every position relative to a read.
func everyTwoWaySplit(t *testing.T, in string, sep string) {
	t.Helper()
	for _, bufSize := range []int{0, 1, 2, 3, 5} {
		for _, chomp := range []bool{false, true} {
			opt := Options{Sep: []byte(sep), Chomp: chomp, BufferSize: bufSize}
			for c := int64(0); c <= int64(len(in)); c++ {
				if diff := partitionDiff([]byte(in), []int64{0, c, int64(len(in))}, opt); diff != "" {
					t.Error(diff)
				}
			}
		}
	}
}

func sectionTexts(t *testing.T, in string, start, end int64, opt Options) []string {
	t.Helper()
	recs, err := ReadAll(NewSection(strings.NewReader(in), start, end, opt), "Next")
	require.NoError(t, err)
	return Texts(recs)
}

// The sample text of the CRLF tests: offsets 3-4, 8-9 and 15-16 hold "\r\n".
const crlfText = "one\r\ntwo\r\nthree\r\nfour"

func TestSectionStartsInsideCRLF(t *testing.T) {
	for _, sep := range []string{"", "\r\n"} {
		// Offset 4 is the "\n" of the first "\r\n": "one\r\n" started before it.
		assert.Equal(t, []string{"one\r\n"}, sectionTexts(t, crlfText, 0, 4, Options{Sep: []byte(sep)}))
		assert.Equal(t, []string{"two\r\n", "three\r\n", "four"}, sectionTexts(t, crlfText, 4, 21, Options{Sep: []byte(sep)}))
		assert.Equal(t, []string{"one", "two"}, sectionTexts(t, crlfText, 0, 9, Options{Sep: []byte(sep), Chomp: true}))
		assert.Equal(t, []string{"three", "four"}, sectionTexts(t, crlfText, 9, 21, Options{Sep: []byte(sep), Chomp: true}))
	}
	everyTwoWaySplit(t, crlfText, "\r\n")
}

func TestSectionStartsRightAfterCRLF(t *testing.T) {
	for _, sep := range []string{"", "\r\n"} {
		assert.Equal(t, []string{"one\r\n"}, sectionTexts(t, crlfText, 0, 5, Options{Sep: []byte(sep)}))
		assert.Equal(t, []string{"two\r\n", "three\r\n", "four"}, sectionTexts(t, crlfText, 5, 21, Options{Sep: []byte(sep)}))
	}
	everyTwoWaySplit(t, crlfText+"\r\n", "\r\n")
}

func TestSectionStartsRightBeforeCRLF(t *testing.T) {
	for _, sep := range []string{"", "\r\n"} {
		assert.Equal(t, []string{"one\r\n"}, sectionTexts(t, crlfText, 0, 3, Options{Sep: []byte(sep)}))
		assert.Equal(t, []string{"two\r\n", "three\r\n", "four"}, sectionTexts(t, crlfText, 3, 21, Options{Sep: []byte(sep)}))
	}
	everyTwoWaySplit(t, "\r\n"+crlfText, "")
}

// The sample of the 3-byte separator tests: "abc" at offsets 1-3, 6-8 and 9-11.
const abcText = "1abc22abcabc333"

// HADOOP-9867: a split boundary inside a multi-byte delimiter lost the record after it.
func TestSectionCutInsideThreeByteSepLosesNoRecord_HADOOP9867(t *testing.T) {
	opt := Options{Sep: []byte("abc")}
	for cut := int64(1); cut <= 4; cut++ { // at each byte of the first "abc", and just after it
		first := sectionTexts(t, abcText, 0, cut, opt)
		rest := sectionTexts(t, abcText, cut, int64(len(abcText)), opt)
		assert.Equal(t, []string{"1abc", "22abc", "abc", "333"}, append(first, rest...), "cut at %d", cut)
	}
	everyTwoWaySplit(t, abcText, "abc")
}

// MAPREDUCE-6549: with a multi-byte custom delimiter, a record near a split boundary was
// read by both splits.
func TestSectionCutInsideThreeByteSepDuplicatesNoRecord_MAPREDUCE6549(t *testing.T) {
	in := []byte(abcText)
	for _, bufSize := range []int{0, 1, 2, 3, 4} {
		opt := Options{Sep: []byte("abc"), BufferSize: bufSize}
		for c1 := int64(0); c1 <= int64(len(in)); c1++ {
			for c2 := c1; c2 <= int64(len(in)); c2++ {
				recs, _, err := readSections(bytes.NewReader(in), []int64{0, c1, c2, int64(len(in))}, opt)
				require.NoError(t, err)
				seen := map[int64]bool{}
				for _, r := range recs {
					assert.False(t, seen[r.Off], "cuts %d, %d, buffer %d: record at %d read twice", c1, c2, bufSize, r.Off)
					seen[r.Off] = true
				}
				assert.Len(t, recs, 4, "cuts %d, %d, buffer %d", c1, c2, bufSize)
			}
		}
	}
}

func TestSectionBoundaryAtZeroAndSize(t *testing.T) {
	in := "a\nbb\nccc"
	size := int64(len(in))
	assert.Nil(t, sectionTexts(t, in, 0, 0, Options{}))
	assert.Equal(t, []string{"a\n", "bb\n", "ccc"}, sectionTexts(t, in, 0, size, Options{}))
	assert.Nil(t, sectionTexts(t, in, size, size, Options{}))
	assert.Nil(t, sectionTexts(t, in, size, size+100, Options{}), "a section past the end is empty")
	assert.Nil(t, sectionTexts(t, in+"\n", size+1, size+1, Options{}))
	assert.Nil(t, sectionTexts(t, "", 0, 0, Options{}))
	assert.Nil(t, sectionTexts(t, "", 0, 10, Options{}))
}

func TestSectionEmptySections(t *testing.T) {
	in := []byte("a\nbb\nccc\n")
	for c := int64(0); c <= int64(len(in)); c++ {
		assert.Nil(t, sectionTexts(t, string(in), c, c, Options{}), "empty section at %d", c)
		cuts := []int64{0, c, c, c, int64(len(in)), int64(len(in))}
		assert.Empty(t, partitionDiff(in, cuts, Options{}))
	}
}

func TestSectionInsideOneLongRecordYieldsNothing(t *testing.T) {
	in := "a\n" + strings.Repeat("z", 1000) + "\nb"
	for _, bufSize := range []int{0, 1, 7, 64} {
		opt := Options{BufferSize: bufSize}
		assert.Nil(t, sectionTexts(t, in, 3, 1000, opt))
		assert.Nil(t, sectionTexts(t, in, 500, 501, opt))
		assert.Equal(t, []string{"b"}, sectionTexts(t, in, 500, 1004, opt))
		assert.Equal(t, []string{"a\n", strings.Repeat("z", 1000) + "\n"}, sectionTexts(t, in, 0, 3, opt))
	}
}

func TestSectionRecordLongerThanSection(t *testing.T) {
	long := strings.Repeat("y", 300) + "\n"
	in := "x\n" + long + "z\n"
	for _, bufSize := range []int{0, 1, 16} {
		opt := Options{BufferSize: bufSize}
		// The section [2, 10) holds only the first bytes of the long record: the reader
		// goes past its end to finish it, and stops there.
		r := NewSection(strings.NewReader(in), 2, 10, opt)
		require.True(t, r.Next())
		assert.Equal(t, long, r.Text())
		assert.Equal(t, int64(2), r.Offset())
		assert.Equal(t, int64(1), r.LineNo())
		assert.False(t, r.Next())
		require.NoError(t, r.Err())
		assert.Equal(t, []string{"z\n"}, sectionTexts(t, in, 10, int64(len(in)), opt))
	}
}

// countingReaderAt counts the bytes read from it, and the reads.
type countingReaderAt struct {
	src   io.ReaderAt
	read  int64
	calls int
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.src.ReadAt(p, off)
	c.read += int64(n)
	c.calls++
	return n, err
}

// Regression: seekBoundary read on to the next separator even when it lay past the
// section's end, so each of k sections inside one long record read the rest of it:
// O(k * record) bytes, the whole file for every section of a file of one line.
func TestSectionInsideLongRecordReadsOnlyItsOwnBytes(t *testing.T) {
	in := bytes.Repeat([]byte("z"), 1<<20)
	for _, bufSize := range []int{0, 256} {
		src := &countingReaderAt{src: bytes.NewReader(in)}
		r := NewSection(src, 4096, 8192, Options{BufferSize: bufSize})
		assert.False(t, r.Next())
		require.NoError(t, r.Err())
		assert.LessOrEqual(t, src.read, int64(8192-4096+1+max(bufSize, DefaultBufferSize)), "buffer %d", bufSize)
	}
}

func TestSectionNotSplittable(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"Paragraph", Options{Paragraph: true}},
		{"Whole", Options{Whole: true}},
		{"Limit", Options{Limit: 3}},
		{"SepAA", Options{Sep: []byte("aa")}},
		{"SepABA", Options{Sep: []byte("aba")}},
		{"SepDoubleNewline", Options{Sep: []byte("\n\n")}},
		{"SepABAB", Options{Sep: []byte("abab")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, start := range []int64{0, 2} {
				r := NewSection(strings.NewReader("aaaa\n\nabab"), start, 10, tc.opt)
				assert.False(t, r.Next())
				err := r.Err()
				require.Error(t, err)
				assert.True(t, errors.Is(err, ErrNotSplittable), "%v", err)
				assert.False(t, r.Next())
				assert.Equal(t, err, r.Err(), "the error is sticky")
			}
		})
	}
	// Invalid options are reported as such, not as unsplittable.
	r := NewSection(strings.NewReader("a"), 0, 1, Options{Paragraph: true, Whole: true})
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), ErrInvalidOptions)
}

func TestSectionBoundsOutOfOrder(t *testing.T) {
	for _, b := range [][2]int64{{-1, 3}, {5, 4}} {
		r := NewSection(strings.NewReader("a\nb\n"), b[0], b[1], Options{})
		assert.False(t, r.Next())
		assert.ErrorContains(t, r.Err(), "out of order")
	}
}

func TestSectionReadErrorIsReported(t *testing.T) {
	boom := errors.New("boom")
	src := failingReaderAt{data: []byte("a\nb\nc\nd\n"), failAt: 5, err: boom}
	recs, err := ReadAll(NewSection(src, 2, 4, Options{BufferSize: 1}), "Next")
	assert.Equal(t, []string{"b\n"}, Texts(recs))
	assert.NoError(t, err, "the section ended before the failing byte")
	recs, err = ReadAll(NewSection(src, 2, 6, Options{BufferSize: 1}), "Next")
	assert.Equal(t, []string{"b\n", "c"}, Texts(recs), "every byte read before the error is yielded")
	assert.ErrorIs(t, err, boom)
}

// failingReaderAt serves data but fails any read reaching failAt.
type failingReaderAt struct {
	data   []byte
	failAt int64
	err    error
}

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.failAt {
		return 0, f.err
	}
	n := copy(p, f.data[off:min(int64(len(f.data)), f.failAt)])
	if n < len(p) {
		return n, f.err
	}
	return n, nil
}

func TestSectionIteratorsMatchNext(t *testing.T) {
	in := "a\nbb\nccc\ndddd\n"
	want := sectionTexts(t, in, 3, 10, Options{})
	lines, _ := ReadAll(NewSection(strings.NewReader(in), 3, 10, Options{}), "Lines")
	batched, _ := ReadAll(NewSection(strings.NewReader(in), 3, 10, Options{}), "Batches")
	assert.Equal(t, []string{"ccc\n", "dddd\n"}, want)
	assert.Equal(t, want, Texts(lines))
	assert.Equal(t, want, Texts(batched))
}

// sectionAlphabet is the separators' own bytes and a few others, so that separators,
// near-separators and runs of them are common in the tests' random inputs (RandomOver).
const sectionAlphabet = "ab\r\nxc\x00"

// randomCuts returns a partition of [0, size): 0, size and up to 6 cuts between them,
// duplicates (empty sections) included, with some cuts put inside a separator.
func randomCuts(rng *rand.Rand, in []byte, sep string) []int64 {
	size := int64(len(in))
	cuts := []int64{0, size}
	for range rng.IntN(7) {
		c := rng.Int64N(size + 1)
		if rng.IntN(2) == 0 && len(sep) > 1 {
			if i := bytes.Index(in[c:], []byte(sep)); i >= 0 {
				c += int64(i + 1 + rng.IntN(len(sep)-1)) // strictly inside it
			}
		}
		cuts = append(cuts, c)
	}
	if rng.IntN(4) == 0 {
		cuts = append(cuts, cuts[len(cuts)-1]) // an empty section
	}
	sortCuts(cuts)
	return cuts
}

func sortCuts(cuts []int64) {
	for i := 1; i < len(cuts); i++ {
		for j := i; j > 0 && cuts[j] < cuts[j-1]; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
}

func TestSectionPartitionsMatchSequentialRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rounds := 4000
	if testing.Short() {
		rounds = 400
	}
	for range rounds {
		in := RandomOver(rng, sectionAlphabet, rng.IntN(200))
		sep := splittableSeps[rng.IntN(len(splittableSeps))]
		opt := Options{Sep: []byte(sep), Chomp: rng.IntN(2) == 0}
		if rng.IntN(3) != 0 {
			opt.BufferSize = 1 + rng.IntN(64)
		}
		if diff := partitionDiff(in, randomCuts(rng, in, sep), opt); diff != "" {
			t.Fatal(diff)
		}
	}
}

func TestSectionOverFileMatchesSequentialRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	in := RandomOver(rng, sectionAlphabet, 100_000)
	name := filepath.Join(t.TempDir(), "in")
	require.NoError(t, os.WriteFile(name, in, 0o644))
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	for _, sep := range splittableSeps {
		opt := Options{Sep: []byte(sep), BufferSize: 4096}
		cuts := []int64{0}
		for c := int64(0); c < int64(len(in)); c += 1 + rng.Int64N(20_000) {
			cuts = append(cuts, c)
		}
		cuts = append(cuts, int64(len(in)))
		got, _, err := readSections(f, cuts, opt)
		require.NoError(t, err)
		want := sequentialRecords(in, opt)
		require.Equal(t, len(want), len(got), "sep %q", sep)
		for i := range want {
			if got[i].Rec != want[i].Rec || got[i].Off != want[i].Off {
				t.Fatalf("sep %q record %d: got %#v, want %#v", sep, i, got[i], want[i])
			}
		}
	}
}

// sequentialCount is the reference for Count: a plain Next loop.
func sequentialCount(t *testing.T, in []byte, opt Options) int64 {
	t.Helper()
	n, err := countRecords(New(bytes.NewReader(in), opt))
	require.NoError(t, err)
	return n
}

// withCountPolicy makes Count use pol for the rest of the test.
func withCountPolicy(t *testing.T, pol countPolicy) {
	saved := parallelCount
	parallelCount = pol
	t.Cleanup(func() { parallelCount = saved })
}

func TestCountMatchesSequentialRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	dir := t.TempDir()
	const threshold = 1000
	for _, pol := range []countPolicy{
		{minFile: threshold, minSection: 100, readSize: 7},
		{minFile: threshold, minSection: 333, readSize: 64},
	} {
		withCountPolicy(t, pol)
		for _, size := range []int{0, 1, 2, 50, threshold - 1, threshold, threshold + 1, threshold + 3, 5 * threshold, 20_011} {
			for _, opt := range []Options{
				{}, {Sep: []byte("\r\n")}, {Sep: []byte("abc")}, {Sep: []byte("x")}, {Sep: []byte("\x00")},
				{Paragraph: true}, {Limit: 5}, {Sep: []byte("aa")}, {MaxRecord: 1 << 20},
			} {
				in := RandomOver(rng, sectionAlphabet, size)
				for _, lastSep := range []bool{false, true} {
					if sep := newConfig(opt).sep; lastSep && sep != nil {
						in = append(bytes.TrimSuffix(in, sep), sep...)
					} else if len(sep) > 0 && bytes.HasSuffix(in, sep) {
						in = in[:len(in)-1] // no final separator
					}
					name := filepath.Join(dir, fmt.Sprintf("f%d", size))
					require.NoError(t, os.WriteFile(name, in, 0o644))
					want := sequentialCount(t, in, opt)
					for _, workers := range []int{0, 1, 2, 3, 8} {
						got, err := Count(name, opt, workers)
						require.NoError(t, err)
						require.Equal(t, want, got, "size %d options %+v workers %d final separator %v policy %+v", len(in), opt, workers, lastSep, pol)
					}
				}
			}
		}
	}
}

func TestCountParallelMatchesSequentialReadAtEveryCut(t *testing.T) {
	// countParallel over every section size from 1 up, so that section boundaries and
	// read boundaries fall at every position of every separator.
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sep := range splittableSeps {
		cfg := newConfig(Options{Sep: []byte(sep)})
		for range 20 {
			in := RandomOver(rng, sectionAlphabet, rng.IntN(120))
			want := sequentialCount(t, in, Options{Sep: []byte(sep)})
			for section := int64(1); section <= 13; section++ {
				for _, workers := range []int{1, 2, 5} {
					pol := countPolicy{minSection: section, readSize: 1 + rng.IntN(9)}
					got, err := countParallel(bytes.NewReader(in), int64(len(in)), cfg, workers, pol)
					require.NoError(t, err)
					require.Equal(t, want, got, "input %q sep %q policy %+v workers %d", in, sep, pol, workers)
				}
			}
		}
	}
}

func TestCountStreamWithShortReadsMatchesSequentialRead(t *testing.T) {
	// Separators straddle reads of one byte, of half the buffer, and data comes with EOF.
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sep := range splittableSeps {
		opt := Options{Sep: []byte(sep), BufferSize: 1}
		cfg := newConfig(opt)
		for range 50 {
			in := RandomOver(rng, sectionAlphabet, rng.IntN(100))
			want := sequentialCount(t, in, opt)
			for _, src := range []io.Reader{
				iotest.OneByteReader(bytes.NewReader(in)),
				iotest.HalfReader(bytes.NewReader(in)),
				iotest.DataErrReader(bytes.NewReader(in)),
			} {
				got, err := countStream(src, cfg, 1+rng.IntN(5))
				require.NoError(t, err)
				require.Equal(t, want, got, "input %q sep %q", in, sep)
			}
		}
	}
	_, err := countStream(iotest.TimeoutReader(strings.NewReader("a\nb\n")), newConfig(Options{}), 1)
	assert.ErrorIs(t, err, iotest.ErrTimeout)
}

func TestCountJustOverDefaultThreshold(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 4 MiB file")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	in := RandomOver(rng, sectionAlphabet, int(parallelCount.minFile)+1)
	name := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(name, in, 0o644))
	for _, opt := range []Options{{}, {Sep: []byte("\r\n")}, {Sep: []byte("abc")}} {
		want := sequentialCount(t, in, opt)
		for _, workers := range []int{1, 2, 4} {
			got, err := Count(name, opt, workers)
			require.NoError(t, err)
			assert.Equal(t, want, got, "sep %q workers %d", opt.Sep, workers)
		}
	}
}

func TestCountMissingFile(t *testing.T) {
	_, err := Count(filepath.Join(t.TempDir(), "missing"), Options{}, 2)
	assert.ErrorIs(t, err, os.ErrNotExist)
	var pe *os.PathError
	assert.ErrorAs(t, err, &pe)
}

func TestCountFIFOReadsSequentially(t *testing.T) {
	withCountPolicy(t, countPolicy{minFile: 10, minSection: 10, readSize: 16})
	name := testfifo.Make(t, "fifo")
	in := bytes.Repeat([]byte("line\r\n"), 1000)
	in = append(in, "last"...)
	for _, opt := range []Options{{}, {Sep: []byte("\r\n")}, {Paragraph: true}} {
		done := make(chan error, 1)
		go func() {
			w, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err == nil {
				_, err = w.Write(in)
				w.Close()
			}
			done <- err
		}()
		// ReadAt on a pipe fails: a count at all shows the sequential path ran.
		got, err := Count(name, opt, 4)
		require.NoError(t, err)
		require.NoError(t, <-done)
		assert.Equal(t, sequentialCount(t, in, opt), got, "%+v", opt)
	}
}

// truncatingReaderAt reads a file with os.File.ReadAt and truncates it to nothing after
// its first `after` reads.
type truncatingReaderAt struct {
	f     *os.File
	after int
	reads int
}

func (r *truncatingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if r.reads == r.after {
		if err := r.f.Truncate(0); err != nil {
			return 0, err
		}
	}
	r.reads++
	return r.f.ReadAt(p, off)
}

// Regression: the read of the last bytes (is there a final separator?) ignored a short
// read, so a file that shrank just before it was counted one record short or long instead
// of failing.
func TestCountFileShrinksWhileCounted(t *testing.T) {
	in := bytes.Repeat([]byte("record\n"), 500)
	size := int64(len(in))
	cfg := newConfig(Options{})
	pol := countPolicy{minSection: 512, readSize: 100}
	name := filepath.Join(t.TempDir(), "f")
	for after := 0; ; after++ {
		require.NoError(t, os.WriteFile(name, in, 0o644))
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		require.NoError(t, err)
		src := &truncatingReaderAt{f: f, after: after}
		// One worker, so that the order of the reads is fixed.
		n, err := countParallel(src, size, cfg, 1, pol)
		f.Close()
		if src.reads <= after {
			// The file was read whole before the truncation was due.
			require.NoError(t, err)
			assert.Equal(t, int64(500), n)
			assert.Greater(t, after, 1)
			break
		}
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "truncated after %d reads", after)
		assert.ErrorContains(t, err, "shrank")
	}
}

// The same through Count, with two workers: whenever the truncation lands, the result is
// an error or the right count, never a crash or a wrong number.
func TestCountFileTruncatedMidCountIsAnError(t *testing.T) {
	withCountPolicy(t, countPolicy{minFile: 1 << 10, minSection: 1 << 10, readSize: 64})
	in := bytes.Repeat([]byte("record\n"), 50_000)
	name := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(name, in, 0o644))
	done := make(chan struct{})
	go func() {
		defer close(done)
		os.Truncate(name, 1000)
	}()
	n, err := Count(name, Options{}, 2)
	<-done
	if err != nil {
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	} else {
		assert.Contains(t, []int64{50_000, 143}, n, "the whole file before the truncation, or what is left after it")
	}
}

// Regression: Reset on a reader made by NewSection with options that cannot be split
// kept the construction error, so the new source was never read. The error is the
// section's: Reset reads the new source as New would.
func TestSectionResetForgetsTheSectionError(t *testing.T) {
	for _, opt := range []Options{{Paragraph: true}, {Sep: []byte("aa")}} {
		r := NewSection(strings.NewReader("x\n"), 0, 2, opt)
		require.False(t, r.Next())
		require.ErrorIs(t, r.Err(), ErrNotSplittable, "%+v", opt)
		r.Reset(strings.NewReader("one\n"))
		require.True(t, r.Next(), "%+v: nothing read after Reset (Err %v)", opt, r.Err())
		require.Equal(t, "one\n", r.Text())
		require.NoError(t, r.Err())
	}
	r := NewSection(strings.NewReader("x\n"), 5, 2, Options{})
	require.False(t, r.Next())
	require.ErrorContains(t, r.Err(), "out of order")
	r.Reset(strings.NewReader("y\n"))
	require.True(t, r.Next())
	require.Equal(t, "y\n", r.Text())
}
