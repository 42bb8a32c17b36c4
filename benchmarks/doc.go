// Package benchmarks compares the linereader engine with the standard library's
// ways of reading a file line by line, on the same files in one run.
//
// It holds only tests: the contenders (contenders_test.go), the corpora they read
// (corpus_test.go) and the benchmarks (bench_test.go). Every contender reads a
// whole tall, wide, verywide or mixed corpus file per iteration, from the page
// cache. Every timed run is checked before any number is reported: its record
// count, byte total and the first and last byte of every record against a
// reference computed with bytes.IndexByte, and the FNV-1a hash of every record's
// bytes (in the timed run when hashing is the work measured, else on an untimed
// run of the same contender right after it). Each benchmark reports CPU time
// (cpu-ns/op: the process's user+system time) beside wall time, because
// read-ahead puts a second core to work that wall time does not show.
//
//	go test ./benchmarks/                                # each contender once, small files
//	FOREACH_BENCH_SIZE=16MiB go test ./benchmarks/ -run '^$' -bench .
//	flock /tmp/foreach-bench.lock benchmarks/run.sh      # the full run, its tables and goals
//
// Benchmark names carry key=value parts, so benchstat -col /impl puts every
// contender in a column: BenchmarkRead/shape=tall/impl=Lines, BenchmarkWork/...
package benchmarks
