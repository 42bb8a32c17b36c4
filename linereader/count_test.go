package linereader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countOptions cover every path of CountAt: separators counted sequentially or in
// parallel (one byte, several, CRLF), and the options whose records must be cut one by
// one (Paragraph, Whole, Limit, a self-overlapping Sep, MaxRecord, Decompress over input
// that is not compressed, which passes unchanged).
var countOptions = []Options{
	{}, {Chomp: true}, {Sep: []byte("\r\n")}, {Sep: []byte("abc")}, {Sep: []byte("x")},
	{Paragraph: true}, {Whole: true}, {Whole: true, Limit: 7}, {Limit: 5}, {Sep: []byte("aa")},
	{MaxRecord: 1 << 20}, {Decompress: true},
}

// CountAt over a bytes.Reader and over an open file gives the count of Count on the same
// file and of a Next loop, whichever path it takes: the policy is lowered so that inputs
// of a few KiB are counted in parallel sections.
func TestCountAtMatchesCountAndNextLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	withCountPolicy(t, countPolicy{minFile: 1000, minSection: 100, readSize: 13})
	dir := t.TempDir()
	for _, size := range []int{0, 1, 2, 3, 99, 999, 1000, 1001, 4096, 12_345} {
		in := RandomOver(rng, sectionAlphabet, size)
		name := filepath.Join(dir, fmt.Sprintf("f%d", size))
		require.NoError(t, os.WriteFile(name, in, 0o644))
		f, err := os.Open(name)
		require.NoError(t, err)
		for _, opt := range countOptions {
			want := sequentialCount(t, in, opt)
			for _, workers := range []int{0, 1, 2, 5} {
				what := fmt.Sprintf("size %d options %+v workers %d", size, opt, workers)
				got, err := CountAt(bytes.NewReader(in), int64(size), opt, workers)
				require.NoError(t, err, what)
				require.Equal(t, want, got, "CountAt(bytes.Reader) %s", what)

				got, err = CountAt(f, int64(size), opt, workers)
				require.NoError(t, err, what)
				require.Equal(t, want, got, "CountAt(*os.File) %s", what)

				got, err = Count(name, opt, workers)
				require.NoError(t, err, what)
				require.Equal(t, want, got, "Count %s", what)
			}
		}
		require.NoError(t, f.Close())
	}
}

// CountAt counts the records of [0, size) only: the bytes after it (a file appended to
// after its size was taken) are not read, for every size from 0 to the whole input.
func TestCountAtCountsOnlyThePrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	withCountPolicy(t, countPolicy{minFile: 20, minSection: 7, readSize: 5})
	in := RandomOver(rng, sectionAlphabet, 300)
	for _, opt := range countOptions {
		for size := 0; size <= len(in); size++ {
			want := sequentialCount(t, in[:size], opt)
			for _, workers := range []int{1, 3} {
				got, err := CountAt(bytes.NewReader(in), int64(size), opt, workers)
				require.NoError(t, err)
				require.Equal(t, want, got, "size %d of %d, options %+v, workers %d", size, len(in), opt, workers)
			}
		}
	}
}

// An input shorter than the size given has shrunk since the size was taken: on every path
// that is an error wrapping io.ErrUnexpectedEOF, and the count is 0, never a short count.
func TestCountAtInputShorterThanSize(t *testing.T) {
	withCountPolicy(t, countPolicy{minFile: 100, minSection: 50, readSize: 16})
	in := bytes.Repeat([]byte("record\n"), 100)
	for _, opt := range countOptions {
		for _, workers := range []int{1, 2} {
			for _, short := range []int{1, 7, len(in) / 2, len(in)} {
				n, err := CountAt(bytes.NewReader(in[:len(in)-short]), int64(len(in)), opt, workers)
				require.ErrorIs(t, err, io.ErrUnexpectedEOF, "options %+v workers %d, %d bytes short", opt, workers, short)
				assert.ErrorContains(t, err, "shrank")
				assert.Zero(t, n)
			}
		}
	}
}

// A read error is returned as is, with a count of 0, on every path.
func TestCountAtReadError(t *testing.T) {
	withCountPolicy(t, countPolicy{minFile: 100, minSection: 50, readSize: 16})
	boom := errors.New("boom")
	in := bytes.Repeat([]byte("record\n"), 100)
	for _, opt := range countOptions {
		for _, workers := range []int{1, 2} {
			src := &errorAfterReaderAt{ra: bytes.NewReader(in), at: 300, err: boom}
			n, err := CountAt(src, int64(len(in)), opt, workers)
			require.ErrorIs(t, err, boom, "options %+v workers %d", opt, workers)
			assert.Zero(t, n)
		}
	}
}

func TestCountAtSizeZeroAndNegative(t *testing.T) {
	n, err := CountAt(bytes.NewReader([]byte("a\nb\n")), 0, Options{}, 2)
	require.NoError(t, err)
	assert.Zero(t, n)

	n, err = CountAt(bytes.NewReader([]byte("a\nb\n")), -1, Options{}, 2)
	assert.EqualError(t, err, "linereader: CountAt with a negative size (-1)")
	assert.Zero(t, n)
}

// The command counts the file it opened: the count is that of the open file even after
// its name has been made to point to another file.
func TestCountAtReadsTheOpenFileNotTheName(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(name, []byte("1\n2\n3\n"), 0o644))
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	other := filepath.Join(dir, "other")
	require.NoError(t, os.WriteFile(other, []byte("only one\n"), 0o644))
	require.NoError(t, os.Rename(other, name))

	n, err := CountAt(f, st.Size(), Options{}, 2)
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	n, err = Count(name, Options{}, 2)
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}

// errorAfterReaderAt fails every read that reaches offset at.
type errorAfterReaderAt struct {
	ra  io.ReaderAt
	at  int64
	err error
}

func (e *errorAfterReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > e.at {
		return 0, e.err
	}
	return e.ra.ReadAt(p, off)
}

// Records cut one by one are counted by their pieces: a record of any length costs a
// buffer of BufferSize, not its length. (Counting with a Next loop grew the buffer to the
// whole record: 32 MiB here.)
func TestCountAtLongRecordInBoundedMemory(t *testing.T) {
	in := bytes.Repeat([]byte("x"), 32<<20)
	copy(in[len(in)-4:], "\n\n\ny")
	for _, tc := range []struct {
		opt  Options
		want int64
	}{
		{Options{Paragraph: true}, 2},   // the long record and "y"
		{Options{Sep: []byte("aa")}, 1}, // no separator at all
		{Options{MaxRecord: 64 << 20}, 4},
	} {
		opt := tc.opt
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n, err := CountAt(bytes.NewReader(in), int64(len(in)), opt, 1)
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		require.Equal(t, tc.want, n, "%+v", opt)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "%+v: bytes allocated to count", opt)
	}
	// MaxRecord still counts the whole record.
	_, err := CountAt(bytes.NewReader(in), int64(len(in)), Options{MaxRecord: 1 << 20}, 1)
	var tooLong *TooLongError
	require.ErrorAs(t, err, &tooLong)
	require.Equal(t, int64(0), tooLong.Offset)
}

// Compressed input is counted by its separators in the decompressed bytes, for every
// option set and format, as a Next loop counts its records; trailing data after the last
// stream gives the whole count and an error wrapping ErrTrailingData, and a stream cut
// short gives 0 and its error.
func TestCountCompressed(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 9))
	dir := t.TempDir()
	in := RandomOver(rng, sectionAlphabet, 50_000)
	for format, data := range map[string][]byte{"gzip": Gzipped(t, in), "zstd": zstded(t, in)} {
		for _, opt := range countOptions {
			opt.Decompress = true
			want := sequentialCountOf(t, bytes.NewReader(data), opt)
			what := fmt.Sprintf("%s %+v", format, opt)
			got, err := CountAt(bytes.NewReader(data), int64(len(data)), opt, 2)
			require.NoError(t, err, what)
			require.Equal(t, want, got, what)

			name := filepath.Join(dir, format)
			require.NoError(t, os.WriteFile(name, append(bytes.Clone(data), "garbage"...), 0o644))
			got, err = Count(name, opt, 2)
			require.ErrorIs(t, err, ErrTrailingData, what)
			require.Equal(t, want, got, "%s with trailing data", what)

			got, err = CountAt(bytes.NewReader(data[:len(data)-3]), int64(len(data)-3), opt, 2)
			require.Error(t, err, "%s cut short", what)
			require.False(t, errors.Is(err, ErrTrailingData), "%s cut short: %v", what, err)
			require.Zero(t, got, what)
		}
	}
}

// sequentialCountOf is the number of records a Next loop over src yields.
func sequentialCountOf(t *testing.T, src io.Reader, opt Options) int64 {
	t.Helper()
	r := New(src, opt)
	var n int64
	for r.Next() {
		n++
	}
	require.NoError(t, r.Err())
	return n
}

func zstded(t *testing.T, p []byte) []byte {
	t.Helper()
	w, err := zstd.NewWriter(nil)
	require.NoError(t, err)
	defer w.Close()
	return w.EncodeAll(p, nil)
}
