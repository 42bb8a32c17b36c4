package linereader

// The read-ahead policy's evidence: Lines over a large file, with loop bodies from trivial
// to as heavy as an FNV-1a hash of the whole record, in three modes: plain (read-ahead
// off), forced (always on, never judged) and policy (as shipped). Set FOREACH_BENCH_FILE to
// the file, for example the tall corpus:
//
//	go run ./testdata/gen --shape tall --size 64MiB -o /tmp/tall.txt
//	FOREACH_BENCH_FILE=/tmp/tall.txt go test -run '^$' -bench ReadAheadPolicy -benchtime 3x ./linereader
//
// scripts/readahead.sh runs it and writes benchmarks/results/readahead.md. Besides wall
// time it reports cpu-ns/op (the process's user and system time, both cores) and, for the
// policy, starts/op: the producers started per read of the file.

import (
	"fmt"
	"runtime"
	"testing"
)

// hashPrefix is a loop body: FNV-1a of the first k bytes of rec.
func hashPrefix(rec []byte, k int) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range rec[:min(k, len(rec))] {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func BenchmarkReadAheadPolicy(b *testing.B) {
	name, _, size, lines := benchFile(b)
	bodies := []struct {
		name string
		k    int
	}{{"hash0", 0}, {"hash8", 8}, {"hash16", 16}, {"hash32", 32}, {"fnv", 1 << 30}}
	for _, body := range bodies {
		for _, mode := range []string{"plain", "forced", "policy"} {
			b.Run(fmt.Sprintf("body=%s/mode=%s", body.name, mode), func(b *testing.B) {
				b.SetBytes(size)
				var cpuNS, starts, iters int64
				var sink uint64
				for b.Loop() {
					b.StopTimer()
					runtime.GC() // every run from a collected heap, as in benchmarks/
					r, err := Open(name, Options{Chomp: true})
					if err != nil {
						b.Fatal(err)
					}
					switch mode {
					case "plain":
						r.pol.ok, r.pol.countdown = false, 1<<62
					case "forced":
						ForceReadAhead(r)
					}
					cpu0 := cpuTime()
					b.StartTimer()
					var n int64
					for rec := range r.Lines() {
						sink += hashPrefix(rec, body.k)
						n++
					}
					b.StopTimer()
					cpuNS += cpuTime() - cpu0
					starts += int64(ReadAheadStarts(r))
					iters++
					if err := r.Close(); err != nil || r.Err() != nil || n != lines {
						b.Fatalf("%d records (want %d), %v, %v", n, lines, r.Err(), err)
					}
					b.StartTimer()
				}
				b.ReportMetric(float64(cpuNS)/float64(iters), "cpu-ns/op")
				if mode == "policy" {
					b.ReportMetric(float64(starts)/float64(iters), "starts/op")
				}
				if sink == 42 {
					b.Log(sink) // keep the hashes
				}
			})
		}
	}
}
