package follow

// Benchmarks of Follow (benchmarks/follow.sh runs them and writes
// benchmarks/results/follow.md): the records per second a follower sustains behind a
// writer appending short records as fast as it can, the latency from a write to the
// loop body, and the CPU time of a follower while the file is quiet. Each verifies what
// it received (every record, in order) before it reports a number.

import (
	"fmt"
	"github.com/foreachio/foreach/linereader"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/foreachio/foreach/internal/measure/cputime"
)

// benchRecord is record i of the throughput benchmark: short, as a terse log line, and
// numbered so that the follower can check it got every record in order.
func benchRecord(b []byte, i int) []byte {
	b = append(b, "event "...)
	b = strconv.AppendInt(b, int64(i), 10)
	return append(b, " ok\n"...)
}

// BenchmarkFollowThroughput: a writer appends 2 million records of about 16 bytes as
// fast as it can, one write per record or in 4 KiB writes, while the follower counts
// them with Views. rec/s is the follower's rate from the first write to the last record
// received; writer-rec/s the writer's own; lag-ms how long after the writer's last write
// the follower received its last record. mode=none is the writer alone, with no
// follower: what the writer costs by itself on this machine.
func BenchmarkFollowThroughput(b *testing.B) {
	for _, mode := range []string{"notify", "poll", "none"} {
		for _, chunk := range []int{0, 4 << 10} {
			writes := "per-record"
			if chunk > 0 {
				writes = "4KiB"
			}
			b.Run(fmt.Sprintf("mode=%s/writes=%s", mode, writes), func(b *testing.B) {
				benchThroughput(b, mode, chunk)
			})
		}
	}
}

func benchThroughput(b *testing.B, mode string, chunk int) {
	const records = 2_000_000
	var followerNs, writerNs, lagNs int64
	for range b.N {
		name := filepath.Join(b.TempDir(), "log")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if mode == "none" {
			writerNs += benchWriter(b, f, records, chunk).Sub(start).Nanoseconds()
			f.Close()
			continue
		}
		r, err := follow(b.Context(), name, linereader.Options{}, Options{}, mode == "notify")
		if err != nil {
			b.Fatal(err)
		}
		wrote := make(chan time.Time, 1)
		go func() { wrote <- benchWriter(b, f, records, chunk) }()
		got := benchCount(b, r, records)
		end := <-wrote
		r.Close()
		f.Close()
		followerNs += got.Sub(start).Nanoseconds()
		writerNs += end.Sub(start).Nanoseconds()
		lagNs += got.Sub(end).Nanoseconds()
	}
	if mode != "none" {
		b.ReportMetric(float64(records)*float64(b.N)/(float64(followerNs)/1e9), "rec/s")
		b.ReportMetric(float64(lagNs)/float64(b.N)/1e6, "lag-ms")
	}
	b.ReportMetric(float64(records)*float64(b.N)/(float64(writerNs)/1e9), "writer-rec/s")
	b.ReportMetric(0, "ns/op")
}

// benchCount receives n records from r, checking each, and returns when it has the last.
func benchCount(b *testing.B, r *Reader, n int) time.Time {
	i := 0
	var want []byte
	for v := range r.Views() {
		if want = benchRecord(want[:0], i); string(v) != string(want) {
			b.Fatalf("record %d is %q, want %q", i, v, want)
		}
		if i++; i == n {
			break
		}
	}
	if i < n {
		b.Fatalf("%d records of %d: %v", i, n, r.Err())
	}
	return time.Now()
}

// benchWriter appends n records to f, one write each (chunk 0) or in writes of about
// chunk bytes, and returns when it made its last write.
func benchWriter(b *testing.B, f *os.File, n, chunk int) time.Time {
	buf := make([]byte, 0, chunk+64)
	for i := range n {
		buf = benchRecord(buf, i)
		if len(buf) >= chunk || i == n-1 {
			if _, err := f.Write(buf); err != nil {
				b.Error(err)
				break
			}
			buf = buf[:0]
		}
	}
	return time.Now()
}

// BenchmarkFollowLatency: a writer appends one record, waits for the loop body to have
// it, pauses, and writes the next; the latency is from just before the write to the loop
// body. The pauses spread over 2 ms with notifications, over the poll period without
// (so that writes fall anywhere between two looks). Reported: the median (p50-µs) and
// the 90th percentile.
func BenchmarkFollowLatency(b *testing.B) {
	for _, tc := range []struct {
		mode    string
		notify  bool
		samples int
		spread  time.Duration
	}{{"notify", true, 400, 2 * time.Millisecond}, {"poll", false, 40, DefaultPoll}} {
		b.Run("mode="+tc.mode, func(b *testing.B) {
			var lat []time.Duration
			for range b.N {
				lat = append(lat, latencies(b, tc.notify, tc.samples, tc.spread)...)
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds()), "p90-µs")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func latencies(b *testing.B, notify bool, samples int, spread time.Duration) []time.Duration {
	name := filepath.Join(b.TempDir(), "log")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r, err := follow(b.Context(), name, linereader.Options{}, Options{}, notify)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	sent := make([]time.Time, samples)
	got := make(chan time.Duration)
	go func() {
		i := 0
		for v := range r.Views() {
			if want := fmt.Sprintf("sample %d\n", i); string(v) != want {
				b.Errorf("record %q, want %q", v, want)
			}
			got <- time.Since(sent[i])
			i++
		}
		close(got)
	}()
	lat := make([]time.Duration, 0, samples)
	for i := range samples {
		time.Sleep(spread * time.Duration(i*7919%1000) / 1000)
		sent[i] = time.Now()
		if _, err := fmt.Fprintf(f, "sample %d\n", i); err != nil {
			b.Fatal(err)
		}
		d, ok := <-got
		if !ok {
			b.Fatalf("the loop ended at sample %d: %v", i, r.Err())
		}
		lat = append(lat, d)
	}
	return lat
}

// BenchmarkFollowQuiet: the CPU time a follower takes while the file does not change,
// waiting in Next: cpu-µs/s is the process's user and system time per second over 10 s
// of waiting, from 1 s after the wait began (0 where the platform does not say).
// mode=sleep is the same process with no follower: the runtime's own cost of waiting.
func BenchmarkFollowQuiet(b *testing.B) {
	const settle, quiet = time.Second, 10 * time.Second
	for _, mode := range []string{"notify", "poll", "sleep"} {
		b.Run("mode="+mode, func(b *testing.B) {
			var cpu int64
			for range b.N {
				cpu += quietCPU(b, mode, settle, quiet)
			}
			b.ReportMetric(float64(cpu)/1e3/float64(b.N)/quiet.Seconds(), "cpu-µs/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// quietCPU returns the CPU time of the process during quiet, after settle, while a
// follower (mode notify or poll) waits in Next on a file that does not change.
func quietCPU(b *testing.B, mode string, settle, quiet time.Duration) int64 {
	measure := func() int64 {
		time.Sleep(settle)
		c0, _ := cputime.Now()
		time.Sleep(quiet)
		c1, _ := cputime.Now()
		return (c1 - c0).Nanoseconds()
	}
	if mode == "sleep" {
		return measure()
	}
	name := filepath.Join(b.TempDir(), "log")
	if err := os.WriteFile(name, []byte("a\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	r, err := follow(b.Context(), name, linereader.Options{}, Options{}, mode == "notify")
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	if !r.Next() {
		b.Fatal(r.Err())
	}
	cpu := make(chan int64, 1)
	go func() {
		cpu <- measure()
		r.Close()
	}()
	if r.Next() {
		b.Fatalf("a record %q from a quiet file", r.Bytes())
	}
	return <-cpu
}
