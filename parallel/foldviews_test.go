package parallel_test

// FoldViews against Fold and the sequential reference: the same records and offsets on
// every path and worker count; each borrowed record valid while fn runs; no copy of
// each record made.

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// collected is an accumulator that keeps a copy of every record with its offset, and
// notes the first record that was not, while fn ran, the text at its offset.
type collected struct {
	recs []parRec
	bad  string
}

// foldCollect runs fold (Fold or FoldViews) with a collected accumulator over the named
// file whose text is plain, and returns the records in offset order.
func foldCollect(t *testing.T, fold foldFunc, name string, plain []byte, opt linereader.Options, workers int) ([]parRec, error) {
	t.Helper()
	got, err := fold(t.Context(), name, opt, workers, func() collected { return collected{} },
		func(acc collected, rec []byte, off int64) (collected, error) {
			if acc.bad == "" && (off < 0 || off > int64(len(plain)) || !bytes.HasPrefix(plain[off:], rec)) {
				acc.bad = fmt.Sprintf("the record at %d is %q, not the text there", off, rec)
			}
			acc.recs = append(acc.recs, parRec{string(rec), off}) // string(rec) copies
			return acc, nil
		},
		func(a, b collected) collected {
			a.recs = append(a.recs, b.recs...)
			a.bad += b.bad
			return a
		})
	require.Empty(t, got.bad)
	slices.SortFunc(got.recs, func(a, b parRec) int { return int(a.Off - b.Off) })
	return got.recs, err
}

type foldFunc = func(ctx context.Context, name string, opt linereader.Options, workers int,
	init func() collected, fn func(acc collected, rec []byte, off int64) (collected, error),
	merge func(a, b collected) collected) (collected, error)

// Every path (sections, batches, one worker; plain and gzip) gives FoldViews' fn the
// records of a sequential read, each valid (the text at its offset) while fn runs; on a
// case of each path, exactly the records Fold's fn gets.
func TestFoldViewsMatchesFold(t *testing.T) {
	noLeak(t)
	for _, c := range parCases(t) {
		name := c.file(t)
		want := wantRecs(c.plain, c.opt)
		for _, w := range []int{1, 2, 3} {
			views, err := foldCollect(t, parallel.FoldViews[collected], name, c.plain, c.opt, w)
			require.NoError(t, err, "%s, %d workers", c.name, w)
			if !slices.Equal(want, views) {
				t.Fatalf("FoldViews, %s, %d workers: %d records, want %d; first difference: %s",
					c.name, w, len(views), len(want), firstDiff(want, views))
			}
			if w == 2 && (c.name == "default" || c.name == "paragraph" || c.name == "gzip" || c.name == "huge records") {
				copies, err := foldCollect(t, parallel.Fold[collected], name, c.plain, c.opt, w)
				require.NoError(t, err, "%s, %d workers", c.name, w)
				require.Equal(t, copies, views, "%s, %d workers: FoldViews against Fold", c.name, w)
			}
		}
	}
}

// A word count, the workload FoldViews is for, gives Fold's counts: keys taken from a
// borrowed record with string() are copies, and stay right when the buffer moves on.
func TestFoldViewsWordCount(t *testing.T) {
	noLeak(t)
	name := writeFile(t, parText(43, 300<<10))
	count := func(fold func(context.Context, string, linereader.Options, int, func() map[string]int,
		func(map[string]int, []byte, int64) (map[string]int, error), func(a, b map[string]int) map[string]int) (map[string]int, error), w int) map[string]int {
		got, err := fold(t.Context(), name, linereader.Options{BufferSize: 64}, w,
			func() map[string]int { return map[string]int{} },
			func(acc map[string]int, rec []byte, _ int64) (map[string]int, error) {
				for _, word := range wordsOf(rec) {
					acc[word]++
				}
				return acc, nil
			},
			func(a, b map[string]int) map[string]int {
				for k, n := range b {
					a[k] += n
				}
				return a
			})
		require.NoError(t, err)
		return got
	}
	want := count(parallel.Fold[map[string]int], 1)
	for _, w := range []int{1, 2, 3, 0} {
		require.Equal(t, want, count(parallel.FoldViews[map[string]int], w), "%d workers", w)
	}
}

// FoldViews hands records without copying them: where Fold allocates at least once per
// record, FoldViews allocates a few times per section or batch, whatever the number of
// records. (Allocations are counted, not timed.)
func TestFoldViewsDoesNotCopy(t *testing.T) {
	const n = 20000
	text := numbered(n)
	for _, c := range []struct {
		name string
		file string
		opt  linereader.Options
	}{
		{"sections", writeFile(t, text), linereader.Options{}},
		{"batches (gzip)", writeFile(t, gzipped(t, text)), linereader.Options{Decompress: true}},
		{"one worker", writeFile(t, text), linereader.Options{}},
	} {
		workers := 2
		if c.name == "one worker" {
			workers = 1
		}
		allocs := func(fold foldFunc) float64 {
			return testing.AllocsPerRun(3, func() {
				got, err := fold(context.Background(), c.file, c.opt, workers, func() collected { return collected{} },
					func(acc collected, rec []byte, _ int64) (collected, error) {
						if len(rec) == 0 {
							acc.bad = "an empty record"
						}
						return acc, nil
					},
					func(a, b collected) collected { a.bad += b.bad; return a })
				if err != nil || got.bad != "" {
					t.Fatalf("%s: %v %s", c.name, err, got.bad)
				}
			})
		}
		copies, views := allocs(parallel.Fold[collected]), allocs(parallel.FoldViews[collected])
		require.GreaterOrEqual(t, copies, float64(n), "%s: Fold copies every record", c.name)
		require.Less(t, views, float64(n/20), "%s: FoldViews copies none (Fold: %.0f allocations)", c.name, copies)
	}
}
