// Package benchmarks compares the linereader engine with the standard library's
// ways of reading a file line by line, on the same files in one run.
//
// It holds only tests: the contenders (contenders_test.go), the corpora they read
// (corpus_test.go) and the benchmarks (bench_test.go). Every contender reads a
// whole tall, wide or mixed corpus file per iteration, from the page cache, and
// checks its record count and byte total against a reference computed with
// bytes.Count before any number is reported.
//
//	go test ./benchmarks/                                # each contender once, small files
//	FOREACH_BENCH_SIZE=16MiB go test ./benchmarks/ -run '^$' -bench .
//	benchmarks/run.sh                                    # the full run and its markdown table
//
// Benchmark names carry key=value parts, so benchstat -col /impl puts every
// contender in a column: BenchmarkRead/shape=tall/impl=Lines, BenchmarkWork/...
package benchmarks
