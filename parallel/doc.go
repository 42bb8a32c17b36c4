// Package parallel runs a function over the records of a file or a Reader on several
// goroutines at once, built on package linereader's exported API: Foreach calls it on
// every record in no particular order, Map gives its results back in input order, and
// Fold gives every worker an accumulator of its own and merges them, so that counting
// or grouping records uses every core with nothing shared; FoldViews does the same with
// each record borrowed rather than copied, for a fn that keeps nothing of it.
//
// Use it when the work per record costs more than reading the record (parsing JSON,
// matching, hashing); a light loop body is as fast in a plain linereader loop, on one
// core. Every call takes a context that stops it, raises
// a panic of a worker again in the caller with the worker's stack (a *Panic), and
// returns only once every goroutine it started has returned (Map: once the loop ends).
// workers < 1 means runtime.GOMAXPROCS(0), the CPUs the program may use.
//
// Counting the lines of a log by status, on every core:
//
//	counts, err := parallel.Fold(ctx, "access.log", linereader.Options{Chomp: true}, 0,
//		func() map[string]int { return map[string]int{} },
//		func(acc map[string]int, rec []byte, off int64) (map[string]int, error) {
//			acc[status(rec)]++
//			return acc, nil
//		},
//		func(a, b map[string]int) map[string]int {
//			for k, n := range b {
//				a[k] += n
//			}
//			return a
//		})
//
// See docs/parallel.md for how each call reads its input and what it costs.
package parallel
