package benchmarks

import (
	"runtime"
	"testing"

	"github.com/foreachio/foreach/testdata/gen/corpus"
)

// workContenders are the contenders of BenchmarkWork: the engine against the
// Scanner twins of Lines and Views.
var workContenders = []string{"Lines", "Views", "Batches", "ScannerCopy", "ScannerBytes"}

// BenchmarkRead reads each corpus whole per iteration with every contender, the
// loop body doing almost nothing: the read path alone.
func BenchmarkRead(b *testing.B) {
	size := benchSize(b)
	for _, shape := range shapes {
		f := corpusOf(b, shape, size)
		b.Run("shape="+string(shape), func(b *testing.B) {
			for _, c := range contenders {
				b.Run("impl="+c.name, func(b *testing.B) { benchFile(b, f, c, false) })
			}
		})
	}
}

// BenchmarkWork is BenchmarkRead on the tall corpus with per-record work about as
// costly as reading the record: an FNV-1a 64 hash of its bytes.
func BenchmarkWork(b *testing.B) {
	f := corpusOf(b, corpus.Tall, benchSize(b))
	b.Run("shape="+string(corpus.Tall), func(b *testing.B) {
		for _, name := range workContenders {
			c := contenderNamed(name)
			b.Run("impl="+c.name, func(b *testing.B) { benchFile(b, f, c, true) })
		}
	})
}

// benchFile times c reading f whole, opened fresh, once per iteration. Every
// iteration's counts are checked against the reference before anything is
// reported; a mismatch is fatal. Besides throughput and allocs/op it reports
// allocs/record (heap allocations over the timed loop, runtime.MemStats.Mallocs,
// per record) and, for the contenders that count them, growths/op.
func benchFile(b *testing.B, f *corpusFile, c contender, hash bool) {
	b.SetBytes(f.size)
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var iters, grows int64
	for b.Loop() {
		res, err := c.run(f.path, f.size, hash)
		if err != nil {
			b.Fatal(err)
		}
		if err := check(f, c, res, hash); err != nil {
			b.Fatal(err)
		}
		iters++
		grows += res.grows
	}
	runtime.ReadMemStats(&after) // b.Loop has stopped the timer
	if iters == 0 || f.records == 0 {
		b.Fatal("no iterations or no records")
	}
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(iters*f.records), "allocs/record")
	if c.grows {
		b.ReportMetric(float64(grows)/float64(iters), "growths/op")
	}
}

// TestContenders runs every contender once, plain and hashing, on a small corpus
// of each shape and checks its counts and hashes against the reference: it keeps
// the benchmark code working in a plain go test run.
func TestContenders(t *testing.T) {
	for _, shape := range shapes {
		f := corpusOf(t, shape, smallSize)
		t.Run("shape="+string(shape), func(t *testing.T) {
			for _, c := range contenders {
				t.Run("impl="+c.name, func(t *testing.T) {
					for _, hash := range []bool{false, true} {
						res, err := c.run(f.path, f.size, hash)
						if err != nil {
							t.Fatal(err)
						}
						if err := check(f, c, res, hash); err != nil {
							t.Errorf("hash=%v: %v", hash, err)
						}
						if c.name == "Naive" && res.grows < res.records {
							t.Errorf("Naive: %d growths for %d records; every record starts empty and grows", res.grows, res.records)
						}
					}
				})
			}
		})
	}
}

// TestCheckCatchesMismatch pins that the verification the benchmarks rely on
// fails on a lost record, a lost byte and a wrong hash.
func TestCheckCatchesMismatch(t *testing.T) {
	f := corpusOf(t, corpus.Mixed, smallSize)
	c := contenderNamed("Lines")
	good, err := c.run(f.path, f.size, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(f, c, good, true); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]result{
		"record": {records: good.records - 1, bytes: good.bytes, hash: good.hash},
		"byte":   {records: good.records, bytes: good.bytes - 1, hash: good.hash},
		"hash":   {records: good.records, bytes: good.bytes, hash: good.hash + 1},
	} {
		if check(f, c, bad, true) == nil {
			t.Errorf("a lost %s passed the check", name)
		}
	}
	// A contender that keeps "\n" (ReadBytes) is held to the total with terminators: the
	// chomped total of Lines is wrong for it.
	if check(f, contenderNamed("ReadBytes"), good, false) == nil {
		t.Error("a byte total without terminators passed the check of a contender that keeps them")
	}
}
