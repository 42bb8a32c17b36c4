// Command jsonlbench measures decoding every record of a JSON-lines file with
// encoding/json through bufio.Scanner (1 MiB buffer), linereader's Lines and Views,
// parallel.Map, parallel.Foreach, parallel.Fold and a worker pool written by hand with
// errgroup, the way a program runs them: one process, each contender a plain loop over
// the whole file, the two contenders of a pair run one after the other in alternating
// order. Every contender counts the records decoded, sums their ids, counts them by
// kind and lists the offsets of the malformed ones; all those summaries are checked
// equal before anything is timed.
//
//	go run ./benchmarks/cmd/jsonlbench -gen FILE [-size BYTES]   # write the input
//	go run ./benchmarks/cmd/jsonlbench [-pairs N] [-workers N] FILE
//	go run ./benchmarks/cmd/jsonlbench -profile NAME [-trace] [-pairs N] FILE # CPU profile (and trace) of one loop
//	go run ./benchmarks/cmd/jsonlbench -stats NAME,NAME [-pairs N] FILE # the runtime's account of each run
//
// It prints, per pair of contenders, the medians over the pairs of the wall time and of
// the process's CPU time (all threads), and the median of the per-pair ratios, as
// Markdown for benchmarks/results/jsonl.md (benchmarks/jsonl.sh).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"time"

	"github.com/foreachio/foreach/internal/measure/cputime"
)

func main() {
	gen := flag.String("gen", "", "write the generated input to this file and exit")
	size := flag.Int64("size", 200_000_000, "bytes of input to generate, about")
	pairs := flag.Int("pairs", 5, "alternating pairs of runs per row")
	workers := flag.Int("workers", 2, "workers of the parallel contenders")
	only := flag.String("only", "", "measure only the rows whose contender is called this (Map: both of its rows)")
	profile := flag.String("profile", "", "run only the contender of this name, -pairs times, under a CPU profile written to NAME.pprof")
	traced := flag.Bool("trace", false, "with -profile, also write a runtime trace (go tool trace) to NAME.trace")
	stats := flag.String("stats", "", "run the contenders of these comma-separated names -pairs times in turn and print the runtime's metrics of each run")
	flag.Parse()
	if *gen != "" {
		if err := generate(*gen, *size); err != nil {
			fail(err)
		}
		return
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: jsonlbench -gen FILE [-size BYTES] | jsonlbench [-pairs N] [-workers N] FILE")
		os.Exit(2)
	}
	path := flag.Arg(0)
	if *stats != "" {
		if err := withStats(path, *stats, *workers, *pairs); err != nil {
			fail(err)
		}
		return
	}
	if *profile != "" {
		if err := profiled(path, *profile, *workers, *pairs, *traced); err != nil {
			fail(err)
		}
		return
	}
	want, err := verify(path, *workers)
	if err != nil {
		fail(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		fail(err)
	}
	fmt.Printf("Input: %.1f MB, %d records decoded, %d malformed (reported with their offsets and skipped), "+
		"%d kinds. Every contender's summary checked equal first. %d workers for the parallel contenders; "+
		"each row %d pairs of runs, alternating; medians over the pairs. Ratios are base/contender: "+
		"above 1 the contender is faster (wall) or spends less CPU.\n\n",
		float64(st.Size())/1e6, want.records, len(want.bad), len(want.byKind), *workers, *pairs)
	fmt.Println("| base | contender | base wall | contender wall | wall ratio | base CPU | contender CPU | CPU ratio |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	scanner, pool := contenders[0], contenders[len(contenders)-1]
	for _, c := range contenders[1:] {
		if *only == "" || *only == c.name {
			measure(path, *workers, scanner, c, *pairs)
		}
	}
	if mapC := contenders[3]; *only == "" || *only == mapC.name {
		measure(path, *workers, pool, mapC, *pairs)
	}
	fmt.Println()
	fmt.Printf("Malformed records at offsets %v.\n", slices.Sorted(slices.Values(want.bad)))
}

// profiled runs the contender called name n times under the CPU profiler, and the
// execution tracer if traced.
func profiled(path, name string, workers, n int, traced bool) error {
	i := slices.IndexFunc(contenders, func(c contender) bool { return c.name == name })
	if i < 0 {
		return fmt.Errorf("no contender %q", name)
	}
	f, err := os.Create(name + ".pprof")
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	if traced {
		tf, err := os.Create(name + ".trace")
		if err != nil {
			return err
		}
		defer tf.Close()
		if err := trace.Start(tf); err != nil {
			return err
		}
		defer trace.Stop()
	}
	for range n {
		s := timed(contenders[i], path, workers)
		fmt.Printf("%s: wall %s, CPU %s\n", name, ms(s.wall), ms(s.cpu))
	}
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "jsonlbench:", err)
	os.Exit(1)
}

// verify runs every contender once and checks its summary against Scanner's.
func verify(path string, workers int) (summary, error) {
	want, err := contenders[0].run(path, workers)
	if err != nil {
		return want, err
	}
	for _, c := range contenders[1:] {
		got, err := c.run(path, workers)
		if err != nil {
			return want, fmt.Errorf("%s: %w", c.name, err)
		}
		if !got.equal(want) {
			return want, fmt.Errorf("%s: %d records, id sum %d, %d malformed; Scanner: %d, %d, %d",
				c.name, got.records, got.idSum, len(got.bad), want.records, want.idSum, len(want.bad))
		}
	}
	return want, nil
}

// sample is one timed run.
type sample struct{ wall, cpu float64 }

func timed(c contender, path string, workers int) sample {
	c0, _ := cputime.Now()
	t0 := time.Now()
	if _, err := c.run(path, workers); err != nil {
		fail(fmt.Errorf("%s: %w", c.name, err))
	}
	wall := time.Since(t0)
	c1, _ := cputime.Now()
	return sample{float64(wall), float64(c1 - c0)}
}

// measure runs pairs of base and other, alternating which goes first, and prints a row.
func measure(path string, workers int, base, other contender, pairs int) {
	var b, o []sample
	var wr, cr []float64
	for i := range pairs {
		var sb, so sample
		if i%2 == 0 {
			sb, so = timed(base, path, workers), timed(other, path, workers)
		} else {
			so, sb = timed(other, path, workers), timed(base, path, workers)
		}
		b, o = append(b, sb), append(o, so)
		wr = append(wr, sb.wall/so.wall)
		if so.cpu > 0 {
			cr = append(cr, sb.cpu/so.cpu)
		}
	}
	wall := func(s sample) float64 { return s.wall }
	cpu := func(s sample) float64 { return s.cpu }
	name := func(c contender) string {
		if c.name == "Lines" || c.name == "Views" || c.name == "Scanner 1 MiB" {
			return c.name
		}
		return fmt.Sprintf("%s(%d)", c.name, workers)
	}
	fmt.Printf("| %s | %s | %s | %s | %.2f× | %s | %s | %.2f× |\n", name(base), name(other),
		ms(median(b, wall)), ms(median(o, wall)), medianOf(wr), ms(median(b, cpu)), ms(median(o, cpu)), medianOf(cr))
}

func median(s []sample, f func(sample) float64) float64 {
	v := make([]float64, len(s))
	for i := range s {
		v[i] = f(s[i])
	}
	return medianOf(v)
}

func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Sorted(slices.Values(v))
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func ms(ns float64) string {
	if ns == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f ms", ns/1e6)
}
