package benchmarks

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"testing"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/testdata/gen/corpus"
)

// workContenders are the contenders of BenchmarkWork: the engine, with and
// without read-ahead, against the Scanner twins of Lines and Views.
var workContenders = []string{"Lines", "LinesNoReadAhead", "Views", "Batches", "ScannerCopy", "ScannerBytes"}

// BenchmarkRead reads each corpus whole per iteration with every contender, the
// loop body doing almost nothing: the read path alone.
func BenchmarkRead(b *testing.B) {
	size := benchSize(b)
	for _, shape := range shapes {
		f := corpusOf(b, shape, size)
		b.Run("shape="+string(shape), func(b *testing.B) {
			for _, c := range roundOrder(contenders) {
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
		var cs []contender
		for _, name := range workContenders {
			cs = append(cs, contenderNamed(name))
		}
		for _, c := range roundOrder(cs) {
			b.Run("impl="+c.name, func(b *testing.B) { benchFile(b, f, c, true) })
		}
	})
}

// roundOrder returns cs in the order of this round of the suite: shuffled, seeded by
// FOREACH_BENCH_ROUND (benchmarks/run.sh numbers its rounds from 1), or as given when it
// is unset or 1 (so that the first round fixes the order of the tables' rows).
// A fixed order favours or handicaps a contender by its place: the first on each shape ran
// while the runtime was still giving back the memory of the last one of the shape before
// (measured: Lines 18% costlier than the same loop run second, on verywide).
func roundOrder(cs []contender) []contender {
	round, err := strconv.ParseUint(os.Getenv("FOREACH_BENCH_ROUND"), 10, 64)
	if err != nil || round <= 1 {
		return cs
	}
	out := slices.Clone(cs)
	rand.New(rand.NewPCG(round, 0x5eed)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// benchFile times c reading f whole, opened fresh, once per iteration, and checks
// every iteration before anything is reported; a mismatch is fatal.
//
// What is checked: each timed run's record count, byte total and the first and
// last byte of every record (result.touch) against the reference; and the hash of
// every record's bytes, either in the timed run itself (hash set: it is the work
// being measured) or, with the light body, on an untimed run of the same contender
// right after it, so that no contender is timed over records whose content nobody
// looked at.
//
// Besides ns/op and MB/s it reports cpu-ns/op, the user+system CPU time of the
// whole process over the timed runs (getrusage), which counts a second goroutine's
// core as wall time cannot; allocs/record (runtime.MemStats.Mallocs over the timed
// runs, per record) and, for the contenders that count them, growths/op.
func benchFile(b *testing.B, f *corpusFile, c contender, hash bool) {
	b.SetBytes(f.size)
	b.ReportAllocs()
	var before, after runtime.MemStats
	var iters, grows, mallocs, cpuNS int64
	cpuKnown := true
	// Start every contender from a collected heap: otherwise the first contender of a
	// shape pays for collecting the garbage of the one before it (measured: Lines, first
	// on each shape, came out 10–18% costlier by CPU than the same loop run second).
	// And from a heap that has given back what it does not use (FreeOSMemory collects
	// first): the runtime returns freed memory gradually, in the background, and would do
	// it during this contender's timed runs for the one before.
	debug.FreeOSMemory()
	runtime.ReadMemStats(&before)
	for b.Loop() {
		cpu0, ok0 := cpuTime()
		res, err := c.run(f.path, f.size, hash)
		cpu1, ok1 := cpuTime()
		b.StopTimer()
		runtime.ReadMemStats(&after)
		mallocs += int64(after.Mallocs - before.Mallocs)
		cpuNS += cpu1 - cpu0
		cpuKnown = cpuKnown && ok0 && ok1
		if err != nil {
			b.Fatal(err)
		}
		if err := check(f, c, res, hash); err != nil {
			b.Fatal(err)
		}
		if !hash {
			if err := verifyHash(f, c); err != nil {
				b.Fatal(err)
			}
		}
		iters++
		grows += res.grows
		// And every timed run from a collected heap: otherwise it pays for the garbage
		// of the untimed hashing run just before it, whose loop body is heavy enough for
		// Lines to read ahead (measured: Lines 15% costlier than LinesNoReadAhead on
		// tall, where neither reads ahead in the timed runs). Collected, not given back
		// to the OS: the runs measure a process that reads file after file, whose heap
		// is warm; giving it back before every run made each run pay page faults for all
		// its memory, and moved the ratios by 10 to 20% from run to run.
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
	}
	if iters == 0 || f.records == 0 {
		b.Fatal("no iterations or no records")
	}
	b.ReportMetric(float64(mallocs)/float64(iters*f.records), "allocs/record")
	if cpuKnown {
		b.ReportMetric(float64(cpuNS)/float64(iters), "cpu-ns/op")
	}
	if c.grows {
		b.ReportMetric(float64(grows)/float64(iters), "growths/op")
	}
}

// verifyHash runs c once more over f, hashing every record, and checks the result.
func verifyHash(f *corpusFile, c contender) error {
	res, err := c.run(f.path, f.size, true)
	if err != nil {
		return err
	}
	if err := check(f, c, res, true); err != nil {
		return fmt.Errorf("untimed hashing run: %w", err)
	}
	return nil
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
		"record":     {records: good.records - 1, bytes: good.bytes, ends: good.ends, hash: good.hash},
		"byte":       {records: good.records, bytes: good.bytes - 1, ends: good.ends, hash: good.hash},
		"first byte": {records: good.records, bytes: good.bytes, ends: good.ends - 1, hash: good.hash},
		"hash":       {records: good.records, bytes: good.bytes, ends: good.ends, hash: good.hash + 1},
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

// A contender whose records have the right lengths and the right first and last
// bytes but a wrong byte in between passes the light check of a timed run; the
// untimed hashing run that benchFile makes after every timed run catches it.
func TestVerifyHashCatchesWrongContent(t *testing.T) {
	f := corpusOf(t, corpus.Tall, smallSize)
	corrupt := contender{name: "corrupt", chomps: true, run: func(name string, _ int64, hash bool) (res result, err error) {
		r, err := linereader.Open(name, engineOptions)
		if err != nil {
			return res, err
		}
		defer r.Close()
		for rec := range r.Lines() {
			if len(rec) > 2 {
				rec[1] ^= 0x20
			}
			res.touch(rec, hash)
		}
		return res, r.Err()
	}}
	res, err := corrupt.run(f.path, f.size, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(f, corrupt, res, false); err != nil {
		t.Fatalf("the light check already fails, so this test proves nothing: %v", err)
	}
	if err := verifyHash(f, corrupt); err == nil {
		t.Error("verifyHash passed records with a wrong byte")
	}
	if err := verifyHash(f, contenderNamed("Lines")); err != nil {
		t.Errorf("verifyHash failed a correct contender: %v", err)
	}
}
