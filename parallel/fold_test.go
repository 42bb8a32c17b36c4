package parallel_test

// Fold against a sequential count: exact for every option set, path and worker count;
// each worker's accumulator its own; errors, panics, the context, workers < 1.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// tally is the tests' accumulator: records and bytes counted, and how many records
// start with each byte. owner is the goroutine-private token of the worker that made it,
// so that a step given another worker's accumulator is caught.
type tally struct {
	records, bytes int64
	first          map[byte]int64
	offsets        int64 // the sum of the records' offsets: each offset counted once
	owner          *int
}

// foldTally runs Fold with a tally over the named file, checking that init runs once
// per worker and that no accumulator is ever in two workers' hands.
func foldTally(ctx context.Context, name string, opt linereader.Options, workers int) (tally, int64, error) {
	var inits atomic.Int64
	var inUse sync.Map // owner -> struct{}: held by a step right now
	got, err := parallel.Fold(ctx, name, opt, workers,
		func() tally {
			inits.Add(1)
			return tally{first: map[byte]int64{}, owner: new(int)}
		},
		func(acc tally, rec []byte, off int64) (tally, error) {
			if _, busy := inUse.LoadOrStore(acc.owner, struct{}{}); busy {
				return acc, errors.New("an accumulator used by two workers at once")
			}
			defer inUse.Delete(acc.owner)
			acc.records++
			acc.bytes += int64(len(rec))
			acc.offsets += off
			if len(rec) > 0 {
				acc.first[rec[0]]++
			}
			return acc, nil
		},
		mergeTally)
	return got, inits.Load(), err
}

func mergeTally(a, b tally) tally {
	a.records += b.records
	a.bytes += b.bytes
	a.offsets += b.offsets
	for k, n := range b.first {
		a.first[k] += n
	}
	return a
}

// wantTally is the tally of a sequential read.
func wantTally(in []byte, opt linereader.Options) tally {
	want := tally{first: map[byte]int64{}}
	for _, r := range wantRecs(in, opt) {
		want.records++
		want.bytes += int64(len(r.Data))
		want.offsets += r.Off
		if len(r.Data) > 0 {
			want.first[r.Data[0]]++
		}
	}
	return want
}

// Exact counts against a sequential read, on the sections path and the batches path,
// for every worker count; init once per worker at most.
func TestFoldMatchesSequential(t *testing.T) {
	noLeak(t)
	for _, c := range parCases(t) {
		name := c.file(t)
		want := wantTally(c.plain, c.opt)
		for _, w := range parWorkerCounts {
			got, inits, err := foldTally(t.Context(), name, c.opt, w)
			require.NoError(t, err, "%s, %d workers", c.name, w)
			require.LessOrEqual(t, inits, int64(w), "%s, %d workers: init per worker", c.name, w)
			require.Equal(t, want.records, got.records, "%s, %d workers: records", c.name, w)
			require.Equal(t, want.bytes, got.bytes, "%s, %d workers: bytes", c.name, w)
			require.Equal(t, want.offsets, got.offsets, "%s, %d workers: offsets", c.name, w)
			require.True(t, maps.Equal(want.first, got.first), "%s, %d workers: counts by first byte", c.name, w)
		}
	}
}

// Word counts of a text, the workload Fold is for, against a sequential count.
func TestFoldWordCount(t *testing.T) {
	noLeak(t)
	text := parText(41, 500<<10)
	name := writeFile(t, text)
	want := map[string]int{}
	for _, r := range wantRecs(text, linereader.Options{}) {
		for _, w := range wordsOf([]byte(r.Data)) {
			want[w]++
		}
	}
	for _, w := range []int{1, 2, 3, 8, 0} {
		got, err := parallel.Fold(t.Context(), name, linereader.Options{}, w,
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
		require.Equal(t, want, got, "%d workers", w)
	}
}

func wordsOf(rec []byte) []string {
	var words []string
	start := -1
	for i, c := range rec {
		if c == ' ' || c == '\n' || c == '\r' || c == ';' {
			if start >= 0 {
				words = append(words, string(rec[start:i]))
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, string(rec[start:]))
	}
	return words
}

// An error from fn stops every worker and is returned with the zero accumulator; so is
// an error from the input.
func TestFoldErrors(t *testing.T) {
	noLeak(t)
	name := writeFile(t, numbered(50000))
	for _, w := range parWorkerCounts {
		var calls atomic.Int64
		got, err := parallel.Fold(t.Context(), name, linereader.Options{}, w,
			func() int { return 0 },
			func(acc int, rec []byte, off int64) (int, error) {
				if calls.Add(1) == 1000 {
					return acc, fmt.Errorf("record at %d: %w", off, errFromFn)
				}
				return acc + 1, nil
			},
			func(a, b int) int { return a + b })
		require.ErrorIs(t, err, errFromFn, "%d workers", w)
		require.Zero(t, got)
		require.Less(t, calls.Load(), int64(50000), "%d workers: the error stopped the workers", w)

		long := writeFile(t, append(numbered(1000), make([]byte, 10000)...))
		_, err = parallel.Fold(t.Context(), long, linereader.Options{MaxRecord: 4096}, w,
			func() int { return 0 },
			func(acc int, _ []byte, _ int64) (int, error) { return acc + 1, nil },
			func(a, b int) int { return a + b })
		var tl *linereader.TooLongError
		require.ErrorAs(t, err, &tl, "%d workers", w)
	}
}

// A panic in fn, and one in init, reach the caller as a *Panic with the worker's stack.
func TestFoldPanics(t *testing.T) {
	noLeak(t)
	name := writeFile(t, numbered(20000))
	for _, w := range parWorkerCounts {
		for _, where := range []string{"fn", "init"} {
			value := func() (v any) {
				defer func() { v = recover() }()
				var calls atomic.Int64
				_, _ = parallel.Fold(t.Context(), name, linereader.Options{}, w,
					func() int {
						if where == "init" {
							panic(errFromFn)
						}
						return 0
					},
					func(acc int, _ []byte, _ int64) (int, error) {
						if calls.Add(1) == 500 {
							panic(errFromFn)
						}
						return acc + 1, nil
					},
					func(a, b int) int { return a + b })
				return nil
			}()
			requirePanic(t, value, errFromFn, fmt.Sprintf("%s, %d workers", where, w))
		}
	}
}

// workers < 1 means GOMAXPROCS; an empty file folds to init's value, merged.
func TestFoldDefaultWorkersAndEmptyFile(t *testing.T) {
	noLeak(t)
	text := parText(42, 300<<10)
	name := writeFile(t, text)
	for _, w := range []int{0, -3} {
		got, _, err := foldTally(t.Context(), name, linereader.Options{}, w)
		require.NoError(t, err)
		require.Equal(t, wantTally(text, linereader.Options{}).records, got.records)
	}
	empty := writeFile(t, nil)
	for _, w := range parWorkerCounts {
		got, err := parallel.Fold(t.Context(), empty, linereader.Options{}, w,
			func() int { return 7 },
			func(acc int, _ []byte, _ int64) (int, error) { return acc + 1, nil },
			func(a, b int) int { return a + b })
		require.NoError(t, err)
		require.Equal(t, 0, got%7, "%d workers: only init's values", w)
	}
}

// A done context stops Fold, which returns its error and the zero accumulator.
func TestFoldContext(t *testing.T) {
	noLeak(t)
	name := writeFile(t, numbered(100000))
	for _, w := range parWorkerCounts {
		ctx, cancel := context.WithCancel(t.Context())
		var calls atomic.Int64
		got, err := parallel.Fold(ctx, name, linereader.Options{}, w,
			func() int { return 0 },
			func(acc int, _ []byte, _ int64) (int, error) {
				if calls.Add(1) == 1000 {
					cancel()
				}
				return acc + 1, nil
			},
			func(a, b int) int { return a + b })
		require.ErrorIs(t, err, context.Canceled, "%d workers", w)
		require.Zero(t, got)
		require.Less(t, calls.Load(), int64(100000), "%d workers: the workers stopped", w)
		cancel()
	}
}
