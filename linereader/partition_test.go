package linereader_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// checkPartition asserts what Partition's doc promises for (size, n): min(n, size) spans
// (one when size is 0, and n < 1 counting as 1), contiguous from 0 to size, none empty
// unless size is 0, their lengths within one byte of each other with the longer ones
// first.
func checkPartition(t *testing.T, size int64, n int) {
	t.Helper()
	// Plain comparisons: this runs for 65,000 partitions.
	spans := linereader.Partition(size, n)
	want := max(min(int64(max(n, 1)), size), 1)
	if int64(len(spans)) != want {
		t.Fatalf("Partition(%d, %d): %d spans, want %d", size, n, len(spans), want)
	}
	at := int64(0)
	shortest, longest := int64(math.MaxInt64), int64(-1)
	for i, s := range spans {
		if s.Start != at {
			t.Fatalf("Partition(%d, %d): span %d %+v does not start where the one before ends (%d)", size, n, i, s, at)
		}
		l := s.End - s.Start
		if l < 0 || (l == 0 && size > 0) {
			t.Fatalf("Partition(%d, %d): span %d %+v is empty or reversed", size, n, i, s)
		}
		if i > 0 && l > spans[i-1].End-spans[i-1].Start {
			t.Fatalf("Partition(%d, %d): span %d is longer than span %d", size, n, i, i-1)
		}
		shortest, longest = min(shortest, l), max(longest, l)
		at = s.End
	}
	if at != size {
		t.Fatalf("Partition(%d, %d): the spans end at %d", size, n, at)
	}
	if longest-shortest > 1 {
		t.Fatalf("Partition(%d, %d): not balanced within one byte: %v", size, n, spans)
	}
}

func TestPartitionSmallSizes(t *testing.T) {
	for size := int64(0); size <= 1000; size++ {
		for n := 1; n <= 64; n++ {
			checkPartition(t, size, n)
		}
	}
}

func TestPartitionExactSpans(t *testing.T) {
	tests := []struct {
		size int64
		n    int
		want []linereader.Span
	}{
		{0, 1, []linereader.Span{{0, 0}}},
		{0, 8, []linereader.Span{{0, 0}}},
		{1, 1, []linereader.Span{{0, 1}}},
		{3, 8, []linereader.Span{{0, 1}, {1, 2}, {2, 3}}},
		{10, 3, []linereader.Span{{0, 4}, {4, 7}, {7, 10}}},
		{12, 4, []linereader.Span{{0, 3}, {3, 6}, {6, 9}, {9, 12}}},
		{10, 0, []linereader.Span{{0, 10}}},
		{10, -5, []linereader.Span{{0, 10}}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, linereader.Partition(tc.size, tc.n), "Partition(%d, %d)", tc.size, tc.n)
	}
}

// Sizes far beyond memory, up to the largest int64, and n up to the largest int: no
// overflow, and never more spans than bytes.
func TestPartitionLargeSizes(t *testing.T) {
	for _, size := range []int64{1 << 40, 1<<40 + 63, math.MaxInt64 - 1, math.MaxInt64} {
		for _, n := range []int{1, 2, 3, 7, 64, 1000} {
			checkPartition(t, size, n)
		}
	}
	assert.Len(t, linereader.Partition(5, math.MaxInt), 5)
	assert.Len(t, linereader.Partition(0, math.MaxInt), 1)
	for _, n := range []int{0, -1, math.MinInt} {
		checkPartition(t, 1000, n)
		checkPartition(t, 0, n)
	}
}

func TestPartitionNegativeSizePanics(t *testing.T) {
	assert.PanicsWithValue(t, "linereader: Partition with a negative size", func() { linereader.Partition(-1, 4) })
}

// The use Partition is for: NewSection over its spans yields, in span order, exactly the
// records, offsets and line numbers of one sequential read, whatever n.
func TestPartitionSectionsMatchSequentialRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	in := linereader.RandomOver(rng, "ab\r\nx", 3000)
	// The records' bytes and offsets: a section counts lines from 0 at its start, so
	// LineNo is not compared.
	read := func(r *linereader.Reader) []linereader.Seen {
		recs, err := linereader.ReadAll(r, "Next")
		require.NoError(t, err)
		for i := range recs {
			recs[i].LineNo = 0
		}
		return recs
	}
	// Small buffers: one section of the thousands here needs only a few bytes.
	for _, opt := range []linereader.Options{{BufferSize: 16}, {Chomp: true, BufferSize: 5}, {Sep: []byte("\r\n"), BufferSize: 64}, {Sep: []byte("ab"), Chomp: true, BufferSize: 3}} {
		for _, size := range []int{0, 1, 2, 17, len(in)} {
			want := read(linereader.New(bytes.NewReader(in[:size]), opt))
			for _, n := range []int{1, 2, 3, 8, 64, 2999, 5000} {
				var got []linereader.Seen
				for _, s := range linereader.Partition(int64(size), n) {
					got = append(got, read(linereader.NewSection(bytes.NewReader(in[:size]), s.Start, s.End, opt))...)
				}
				require.Equal(t, want, got, fmt.Sprintf("options %+v size %d n %d", opt, size, n))
			}
		}
	}
}
