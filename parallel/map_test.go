package parallel_test

// Map against a sequential loop: results in input order under a body whose cost varies
// per record, for several option sets, sources and worker counts; records owned; early
// break, panics (in fn and in the loop body), Goexit, the input's error, a source that
// blocks, a bounded window; no goroutine left after any loop (goleak).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// mapResult is what the tests' fn makes of a record.
type mapResult struct {
	Rec  string
	Hash uint32
}

// costly is the tests' fn: the record with its FNV-1a hash, after work whose amount
// depends on the record (none for most, a lot for one in 50), so that batches take very
// different times and workers finish out of order.
func costly(rec []byte) mapResult {
	h := fnv.New32a()
	h.Write(rec)
	sum := h.Sum32()
	rounds := 0
	if sum%50 == 0 {
		rounds = 2000
	} else if sum%7 == 0 {
		rounds = 50
	}
	x := sum
	for range rounds {
		x = x*16777619 ^ 0x9e3779b9
	}
	if x == 1 && rounds > 0 { // keeps the loop from being optimised away; never true in practice
		sum++
	}
	return mapResult{string(rec), sum}
}

// sequentialMap is what Map must give: fn over the reference's records, in order.
func sequentialMap(in []byte, opt linereader.Options) []mapResult {
	var out []mapResult
	for _, r := range wantRecs(in, opt) {
		out = append(out, costly([]byte(r.Data)))
	}
	return out
}

// Results in input order, exactly those of a sequential loop, whatever the source, the
// options and the worker count.
func TestMapOrderUnderVariableCost(t *testing.T) {
	noLeak(t)
	text := parText(11, 300<<10)
	sources := map[string]func() io.Reader{
		"bytes":    func() io.Reader { return bytes.NewReader(text) },
		"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(text)) },
		"gzip":     func() io.Reader { return bytes.NewReader(gzipped(t, text)) },
	}
	opts := []linereader.Options{
		{}, {Chomp: true}, {Paragraph: true}, {Limit: 7, UTF8: true}, {Sep: []byte("aa")}, {Whole: true, Limit: 5000},
	}
	for srcName, src := range sources {
		for _, opt := range opts {
			if srcName == "one byte" && opt.Limit > 0 {
				continue // slow under -race and nothing new
			}
			opt.Decompress = srcName == "gzip"
			want := sequentialMap(text, opt)
			for _, w := range parWorkerCounts {
				r := linereader.New(src(), opt)
				got := slices.Collect(parallel.Map(t.Context(), r, w, costly))
				require.NoError(t, r.Err())
				if !slices.Equal(want, got) {
					t.Fatalf("%s %+v, %d workers: %d results, want %d", srcName, opt, w, len(got), len(want))
				}
				require.Equal(t, int64(len(want)), r.Stats().Records)
			}
		}
	}
}

// Records reach fn as exact-size copies that fn may keep: the kept ones are unchanged
// after the loop, and scribbling on one changes no other.
func TestMapRecordsOwned(t *testing.T) {
	noLeak(t)
	text := parText(12, 200<<10)
	for _, w := range parWorkerCounts {
		r := linereader.New(bytes.NewReader(text), linereader.Options{})
		var kept [][]byte
		for rec := range parallel.Map(t.Context(), r, w, func(rec []byte) []byte {
			s := string(rec)
			for i := range rec {
				rec[i] = 'X'
			}
			copy(rec, s)
			return rec
		}) {
			require.Equal(t, len(rec), cap(rec))
			kept = append(kept, rec)
		}
		require.NoError(t, r.Err())
		want := wantRecs(text, linereader.Options{})
		require.Len(t, kept, len(want))
		for i := range kept {
			require.Equal(t, want[i].Data, string(kept[i]), "record %d", i)
		}
	}
}

// Breaking out of the loop stops every goroutine before the loop statement ends: fn is
// not called after it, and the results before the break are exactly the first ones.
func TestMapBreak(t *testing.T) {
	noLeak(t)
	text := numbered(50000)
	want := sequentialMap(text, linereader.Options{})
	for _, w := range parWorkerCounts {
		for _, k := range []int{1, 2, 1000, 30000} {
			var ended atomic.Bool
			var late atomic.Int64
			r := linereader.New(bytes.NewReader(text), linereader.Options{})
			var got []mapResult
			for v := range parallel.Map(t.Context(), r, w, func(rec []byte) mapResult {
				if ended.Load() {
					late.Add(1)
				}
				return costly(rec)
			}) {
				got = append(got, v)
				if len(got) == k {
					break
				}
			}
			ended.Store(true)
			require.Equal(t, want[:k], got, "%d workers, break after %d", w, k)
			require.Zero(t, late.Load(), "%d workers: fn called after the loop", w)
		}
	}
}

var errFromLoop = errors.New("loop body panicked")

// A panic in fn reaches the loop in input order: every result before the record whose
// fn panicked first, then the panic, with its own value, once every goroutine has
// stopped.
func TestMapPanicInFn(t *testing.T) {
	noLeak(t)
	text := numbered(20000)
	want := sequentialMap(text, linereader.Options{})
	for _, w := range parWorkerCounts {
		for _, bad := range []int{1, 2, 777, 19999} {
			badRec := fmt.Sprintf("line %d\n", bad)
			var ended atomic.Bool
			var late atomic.Int64
			got := []mapResult{}
			value := func() (v any) {
				defer func() { v = recover() }()
				r := linereader.New(bytes.NewReader(text), linereader.Options{})
				for v := range parallel.Map(t.Context(), r, w, func(rec []byte) mapResult {
					if ended.Load() {
						late.Add(1)
					}
					if string(rec) == badRec {
						panic(errFromFn)
					}
					return costly(rec)
				}) {
					got = append(got, v)
				}
				return nil
			}()
			ended.Store(true)
			requirePanic(t, value, errFromFn, fmt.Sprintf("%d workers, panic at %d", w, bad))
			require.Equal(t, want[:bad-1], got, "%d workers, panic at %d: the results before it", w, bad)
			require.Zero(t, late.Load())
		}
	}
}

// A panic in the loop body stops every goroutine on its way out.
func TestMapPanicInLoopBody(t *testing.T) {
	noLeak(t)
	text := numbered(20000)
	for _, w := range parWorkerCounts {
		value := func() (v any) {
			defer func() { v = recover() }()
			r := linereader.New(bytes.NewReader(text), linereader.Options{})
			n := 0
			for range parallel.Map(t.Context(), r, w, costly) {
				if n++; n == 100 {
					panic(errFromLoop)
				}
			}
			return nil
		}()
		require.Equal(t, errFromLoop, value)
	}
}

// A runtime.Goexit in fn ends the loop's goroutine too, after the workers have stopped.
func TestMapGoexit(t *testing.T) {
	noLeak(t)
	text := numbered(5000)
	for _, w := range parWorkerCounts {
		after := false
		done := make(chan struct{})
		go func() {
			defer close(done)
			r := linereader.New(bytes.NewReader(text), linereader.Options{})
			for range parallel.Map(t.Context(), r, w, func(rec []byte) int {
				if string(rec) == "line 300\n" {
					runtime.Goexit()
				}
				return 0
			}) {
			}
			after = true
		}()
		<-done
		require.False(t, after, "%d workers: the loop went on after fn's Goexit", w)
	}
}

// failAfter delivers data, then fails with err.
type failAfter struct {
	data []byte
	err  error
}

func (f *failAfter) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data[:min(len(f.data), 1000)])
	f.data = f.data[n:]
	return n, nil
}

var errSource = errors.New("source failed")

// The input's error ends the results after every record read before it, as in a plain
// loop; r.Err reports it after the loop.
func TestMapInputError(t *testing.T) {
	noLeak(t)
	text := numbered(20000)
	delivered := text[:len(text)/2+3] // ends inside a line: the piece is the last record
	want := sequentialMap(delivered, linereader.Options{})
	for _, w := range parWorkerCounts {
		r := linereader.New(&failAfter{data: delivered, err: errSource}, linereader.Options{})
		got := slices.Collect(parallel.Map(t.Context(), r, w, costly))
		require.ErrorIs(t, r.Err(), errSource)
		require.Equal(t, want, got, "%d workers", w)
	}
}

// A Reader with invalid options gives no result, and its error after the loop.
func TestMapInvalidOptions(t *testing.T) {
	noLeak(t)
	for _, w := range parWorkerCounts {
		r := linereader.New(bytes.NewReader(numbered(10)), linereader.Options{Whole: true, Paragraph: true})
		require.Empty(t, slices.Collect(parallel.Map(t.Context(), r, w, costly)))
		require.ErrorIs(t, r.Err(), linereader.ErrInvalidOptions)
	}
}

// One worker (or GOMAXPROCS 1) with a context that is never done is a plain loop: no
// goroutine is started.
func TestMapOneWorkerInline(t *testing.T) {
	noLeak(t)
	text := numbered(3000)
	ignore := goleak.IgnoreCurrent()
	r := linereader.New(bytes.NewReader(text), linereader.Options{})
	var got []mapResult
	for v := range parallel.Map(context.Background(), r, 1, costly) {
		if len(got) == 0 {
			require.NoError(t, goleak.Find(ignore))
		}
		got = append(got, v)
	}
	require.Equal(t, sequentialMap(text, linereader.Options{}), got)
}

// workers < 1 means GOMAXPROCS.
func TestMapDefaultWorkers(t *testing.T) {
	noLeak(t)
	text := numbered(3000)
	for _, w := range []int{0, -5} {
		r := linereader.New(bytes.NewReader(text), linereader.Options{})
		require.Equal(t, sequentialMap(text, linereader.Options{}), slices.Collect(parallel.Map(t.Context(), r, w, costly)))
	}
}

// While the loop body stands still, fn gets no further ahead of it than the window: at
// most 2 batches per worker plus 2, each of at most BatchBytes of records. The body
// waits until fn's calls stop moving (the workers have gone as far as they can), and the
// bound is checked all along. Regression: the window was 4 batches per worker, and what
// it held alive (blocks of records and results) made the garbage collector run a third
// more cycles than for a hand-written pool over the same JSON decoding (see mapWindow).
func TestMapWindowBounded(t *testing.T) {
	noLeak(t)
	const recLen = 100
	line := append(bytes.Repeat([]byte("r"), recLen-1), '\n')
	text := bytes.Repeat(line, 100000)
	for _, w := range []int{2, 3} {
		var calls atomic.Int64
		r := linereader.New(bytes.NewReader(text), linereader.Options{})
		perBatch := min(parallel.BatchBytes/recLen, parallel.BatchRecords)
		bound := int64((2*w + 2) * perBatch)
		n := 0
		for range parallel.Map(t.Context(), r, w, func(rec []byte) int { calls.Add(1); return len(rec) }) {
			// Standing still once batches have their full size, not only at the first
			// record, while the first batches are still of a record or a few.
			if n++; n == 1 || n == 30000 {
				settle(t, "fn's calls", calls.Load, func(c int64) {
					require.LessOrEqual(t, c-int64(n), bound, "%d workers: fn ran too far ahead of record %d", w, n)
				})
				require.Greater(t, calls.Load()-int64(n), int64(w), "%d workers: the workers did run ahead of record %d", w, n)
			}
		}
		require.Equal(t, 100000, n)
		require.Less(t, bound, int64(n), "the bound is below the input's size")
	}
}

// A source that blocks forever: breaking out waits for the read in progress, and closing
// the source ends it (the documented way out).
func TestMapBreakOverBlockedSource(t *testing.T) {
	noLeak(t)
	for _, w := range []int{2, 3} {
		pr, pw := io.Pipe()
		go func() {
			// Records, then nothing more: the pipe stays open until the test closes it.
			pw.Write(numbered(50))
		}()
		breaking := make(chan struct{})
		go func() {
			<-breaking
			pr.Close()
		}()
		r := linereader.New(pr, linereader.Options{})
		var got []mapResult
		for v := range parallel.Map(t.Context(), r, w, costly) {
			got = append(got, v)
			close(breaking)
			break
		}
		require.Equal(t, sequentialMap(numbered(1), linereader.Options{}), got)
		if err := r.Err(); err != nil {
			require.ErrorIs(t, err, io.ErrClosedPipe)
		}
	}
}

// A pipe that delivers everything and closes gives every result.
func TestMapOverPipe(t *testing.T) {
	noLeak(t)
	text := numbered(20000)
	for _, w := range parWorkerCounts {
		pr, pw := io.Pipe()
		go func() {
			for p := text; len(p) > 0; p = p[min(len(p), 777):] {
				pw.Write(p[:min(len(p), 777)])
			}
			pw.Close()
		}()
		r := linereader.New(pr, linereader.Options{})
		require.Equal(t, sequentialMap(text, linereader.Options{}), slices.Collect(parallel.Map(t.Context(), r, w, costly)))
		require.NoError(t, r.Err())
	}
}

// Randomized inputs and options against the reference, through Map with random worker
// counts, including files of a few huge records.
func TestMapRandomized(t *testing.T) {
	noLeak(t)
	rng := rand.New(rand.NewPCG(42, 42))
	alphabet := "ab\n\r;xé"
	seps := []string{"", "\n", ";", "ab", "aa", "\r\n", "aba"}
	for i := range 200 {
		var in []byte
		if i%20 == 0 {
			in = hugeRecords()
		} else {
			in = randomOver(rng, alphabet, rng.IntN(5000))
		}
		opt := randomOptions(rng, seps)
		w := 1 + rng.IntN(8)
		r := linereader.New(iotest.HalfReader(bytes.NewReader(in)), opt)
		got := slices.Collect(parallel.Map(t.Context(), r, w, costly))
		require.NoError(t, r.Err())
		want := sequentialMap(in, opt)
		if !slices.Equal(want, got) {
			t.Fatalf("case %d (%+v, %d workers): %d results, want %d", i, opt, w, len(got), len(want))
		}
	}
}

// The plain loop of one worker (a ctx that is never done) raises a panic in fn as a
// *Panic too, and lets a panic of the loop body through untouched.
func TestMapOneWorkerInlinePanics(t *testing.T) {
	noLeak(t)
	text := numbered(100)
	value := func() (v any) {
		defer func() { v = recover() }()
		r := linereader.New(bytes.NewReader(text), linereader.Options{})
		for range parallel.Map(context.Background(), r, 1, func(rec []byte) int {
			if string(rec) == "line 50\n" {
				panic(errFromFn)
			}
			return 0
		}) {
		}
		return nil
	}()
	requirePanic(t, value, errFromFn, "one worker, panic in fn")
	value = func() (v any) {
		defer func() { v = recover() }()
		r := linereader.New(bytes.NewReader(text), linereader.Options{})
		for range parallel.Map(context.Background(), r, 1, costly) {
			panic(errFromLoop)
		}
		return nil
	}()
	require.Equal(t, errFromLoop, value)
}

// Regression: the worker that finished the batch the loop was blocked on kept its P while
// batches were waiting, so the loop got no result until the window had filled and the
// workers had run dry, and then took the whole window's results in a burst, all of them
// held alive meanwhile (on 2 cores, about 7 batches per wake of the loop). On one P,
// where no other P can take the loop's goroutine, the loop now takes each result while
// fn is at most a couple of batches ahead of it: measured by how far fn is ahead when
// the loop takes a result, in the median over the results, so that a rare preemption of
// the loop's goroutine (which lets fn run as far as the window allows) cannot fail it.
func TestMapLoopTakesResultsPromptly(t *testing.T) {
	noLeak(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const recLen, n, workers = 1000, 20000, 2
	line := append(bytes.Repeat([]byte("r"), recLen-1), '\n')
	text := bytes.Repeat(line, n)
	perBatch := int64(parallel.BatchBytes / recLen)
	var calls atomic.Int64
	ahead := make([]int64, 0, n) // for each result, how many more records fn had had
	r := linereader.New(bytes.NewReader(text), linereader.Options{})
	for range parallel.Map(t.Context(), r, workers, func(rec []byte) int { calls.Add(1); return len(rec) }) {
		ahead = append(ahead, calls.Load()-int64(len(ahead)+1))
	}
	require.Len(t, ahead, n)
	slices.Sort(ahead)
	median, most := ahead[n/2], ahead[n-1]
	t.Logf("fn ahead of the loop: median %d records, most %d (%d per batch)", median, most, perBatch)
	require.LessOrEqual(t, median, 2*perBatch, "the loop took its results late")
	require.Less(t, 2*perBatch, int64(parallel.MapWindow*workers+2)*perBatch/2, "the bound is well below the window's")
}
