// Package benchmarks compares the linereader engine with the standard library's ways of
// reading a file line by line, on the same files in one process, the way a user's own
// program runs them.
//
// It holds the contenders (contenders.go: each a straightforward loop over a whole
// file), the corpora they read (corpora.go: the generated tall, wide, verywide and mixed
// corpora, and real text, the Go distribution's own sources) and the rows the suite
// times (suite.go: a contender against its yardstick on one shape, in alternating
// pairs). Every timed run is checked against a reference computed with bytes.IndexByte
// before any number is kept: its record count, byte total, first and last byte of every
// record, last record and, for the hashing bodies, the FNV-1a hash of every record.
//
//	go test ./benchmarks/                          # every contender checked on small files
//	go run ./benchmarks/cmd/suite -size 16MiB      # a quick run, report on standard output
//	benchmarks/run.sh                              # the full run on a clean commit, kept in benchmarks/results
//
// docs/performance.md explains the method and what the numbers cannot show.
package benchmarks
