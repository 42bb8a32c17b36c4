// Package benchmarks compares the linereader engine with the standard library's ways of
// reading a file line by line, on the same files in one process, the way a user's own
// program runs them.
//
// It holds the rows the suite times (suite.go: a contender against its yardstick on one
// shape, in alternating pairs); the contenders themselves and the corpora they read are
// in internal/measure/contend, which the command's foreach bench imports too. Every timed run is
// checked against a reference computed with bytes.IndexByte before any number is kept:
// its record count, byte total, first and last byte of every record, last record and,
// for the hashing bodies, the FNV-1a hash of every record.
//
// The programs and scripts that measure the rest of the project sit beside it: each
// benchmarks/*.sh builds what it measures from a commit and writes its latest results in
// benchmarks/results (a copy per commit under benchmarks/results/history), and its Go
// programs are under benchmarks/cmd. benchmarks/results/README.md says which script
// writes which file.
//
//	go test ./benchmarks/ ./internal/measure/contend/      # the rows and every contender checked on small files
//	go run ./benchmarks/cmd/suite -size 16MiB      # a quick run, report on standard output
//	benchmarks/run.sh                              # the full run on a clean commit, kept in benchmarks/results
//
// docs/performance.md explains the method and what the numbers cannot show.
package benchmarks
