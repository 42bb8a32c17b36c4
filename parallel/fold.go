package parallel

import (
	"context"
	"sync"

	"github.com/foreachio/foreach/linereader"
)

// Fold reads the named file as Foreach does and gives each worker an accumulator of its
// own (init), which fn updates for every record; the workers' accumulators are combined
// with merge, and the result is returned. Nothing is shared between workers while they
// run: the way to count, sum or group the records of a large file on every core.
//
// Records reach the workers in no particular order, so the result is exact only when
// what fn and merge compute does not depend on it: merge must be associative and
// commutative, and fn's updates must commute (counts, sums, sets, maps of counts, the
// least and the greatest). init is called once per worker, on that worker's goroutine,
// fn on the same goroutine for each record it is given (a copy it may keep), and merge
// in the caller's goroutine after every worker has stopped; with one worker (workers ==
// 1, or GOMAXPROCS 1) the file is read in the caller's goroutine, merge is not called,
// and fn sees the records in input order.
//
// The first error, from the input or from fn, stops every worker; Fold then returns it
// with the zero S. When ctx is done the workers stop and Fold returns ctx's error. A
// panic in fn or init is raised again in the caller's goroutine as a *Panic, as Foreach
// does. No goroutine outlives the call.
//
// When fn keeps nothing of a record past its return (it counts, parses into values of
// its own, looks keys up), FoldViews does the same work without copying every record.
func Fold[S any](ctx context.Context, name string, opt linereader.Options, workers int,
	init func() S, fn func(acc S, rec []byte, off int64) (S, error), merge func(a, b S) S) (S, error) {
	return fold(ctx, name, opt, workers, init, fn, merge, false)
}

// FoldViews is Fold with each record borrowed, as Reader.Views borrows it: rec lies in a
// buffer of the worker's Reader, or of the batch it was handed, and is valid only until
// fn returns; the next record overwrites it. fn must not keep rec or any slice of it (a
// key taken from it is string(rec[i:j]), a copy; json.Unmarshal and strconv copy what
// they keep). Everything else is Fold's: the same records, offsets, order (none), errors,
// cancellation, panics and goroutines.
//
// What it saves is a copy of every record: an allocation of its size, and the garbage
// collector's work for it, which on a loop that allocates little else of its own keeps
// the collector's cycles frequent (docs/parallel.md has the figures for JSON lines). It
// does not save the copy into a batch where the file is read by one goroutine and handed
// out (compressed input without an index, a FIFO, options that cannot be cut into
// sections): there the batch is the workers' only copy, and fn borrows from it.
func FoldViews[S any](ctx context.Context, name string, opt linereader.Options, workers int,
	init func() S, fn func(acc S, rec []byte, off int64) (S, error), merge func(a, b S) S) (S, error) {
	return fold(ctx, name, opt, workers, init, fn, merge, true)
}

// fold is Fold, and with borrows FoldViews.
func fold[S any](ctx context.Context, name string, opt linereader.Options, workers int,
	init func() S, fn func(acc S, rec []byte, off int64) (S, error), merge func(a, b S) S, borrows bool) (S, error) {
	var (
		mu   sync.Mutex
		accs []*padded[S] // the accumulator of every worker that saw its last record
	)
	err := run(ctx, name, opt, workers, worker{borrows: borrows, start: func() (recordFunc, func()) {
		acc := &padded[S]{v: init()}
		step := func(rec []byte, off int64) error {
			var err error
			acc.v, err = fn(acc.v, rec, off)
			return err
		}
		return step, func() {
			mu.Lock()
			accs = append(accs, acc)
			mu.Unlock()
		}
	}})
	var zero S
	if err != nil || len(accs) == 0 {
		return zero, err
	}
	result := accs[0].v
	for _, acc := range accs[1:] {
		result = merge(result, acc.v)
	}
	return result, nil
}

// padded is a worker's accumulator, allocated apart and padded, so that workers writing
// theirs for every record never write to the same cache line.
type padded[S any] struct {
	v S
	_ [64]byte
}
