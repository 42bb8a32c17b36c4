// Command benchtable turns the raw output of the foreach benchmarks into the
// markdown tables of the README: one row per shape and contender with the median
// throughput by wall time and by CPU time (bytes per second of the process's
// user+system time), their confidence intervals as benchstat computes them,
// allocations per record, buffer growths per read and the ratios to
// bufio.Scanner with each token copied (ScannerCopy) on the same shape; then the
// goals of the engine (issue 11), each a ratio of two contenders of the same run
// by wall and by CPU, with the spread of that ratio over the rounds.
//
//	go run ./benchmarks/cmd/benchtable [-wall 5m10s] RAW.txt > benchmarks/results/latest.md
//
// It reads the benchmark lines with golang.org/x/perf/benchfmt and summarizes each
// sample with golang.org/x/perf/benchmath (median and 95% confidence interval, no
// distributional assumption), so every number and ratio is computed from the raw
// file. The header comes from the file's configuration lines: cpu, goos, goarch
// from go test, and go, commit, cores, memory, size, count, benchtime from benchmarks/run.sh.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// baseline is the contender every ratio is relative to, unless baselines names
// another for a benchmark.
const baseline = "ScannerCopy"

// baselines are the benchmarks whose ratios are relative to another contender.
var baselines = map[string]string{"Gzip": "ScannerCopyStdGzip"}

// baselineOf returns the contender the ratios of bench are relative to.
func baselineOf(bench string) string {
	if b, ok := baselines[bench]; ok {
		return b
	}
	return baseline
}

// confidence is the level of the ± column, benchstat's default.
const confidence = 0.95

// row is one benchmark, shape and contender, with its samples by unit.
type row struct {
	bench, shape, impl string
	samples            map[string][]float64
}

// descriptions say what each benchmark measures, in the table's heading.
var descriptions = map[string]string{
	"Read": "the read path alone (loop body: length, first and last byte of each record)",
	"Work": "per-record work about as costly as the read (FNV-1a 64 of each record's bytes)",
	"Gzip": "gzip files (compress/gzip, default level), MB/s of decompressed bytes: Lines with Options.Decompress against bufio.Scanner+copy over compress/gzip",
}

func main() {
	wall := flag.String("wall", "", "wall time of the run, for the header")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: benchtable [-wall DURATION] RAW.txt")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *wall); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, name, wall string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, config, err := parse(f, name)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return errors.New(name + ": no benchmark results")
	}
	writeHeader(w, config, rows, wall)
	writeTables(w, rows)
	writeGoals(w, rows)
	return nil
}

// parse collects the samples of every benchmark, in the order of first appearance,
// and the configuration of the file.
func parse(r io.Reader, name string) ([]*row, map[string]string, error) {
	var rows []*row
	var loads []float64 // the load average in force for each result, when run.sh gave it
	index := map[string]*row{}
	config := map[string]string{}
	br := benchfmt.NewReader(r, name)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			if serr, ok := br.Result().(*benchfmt.SyntaxError); ok {
				fmt.Fprintln(os.Stderr, "benchtable:", serr)
			}
			continue
		}
		for _, c := range res.Config {
			config[c.Key] = string(c.Value)
		}
		if l, err := strconv.ParseFloat(config["load"], 64); err == nil {
			loads = append(loads, l)
		}
		base, parts := res.Name.Parts()
		rw := &row{bench: string(base)}
		for _, p := range parts {
			s := string(p)
			if strings.HasPrefix(s, "-") {
				config["gomaxprocs"] = s[1:]
				continue
			}
			k, v, _ := strings.Cut(strings.TrimPrefix(s, "/"), "=")
			switch k {
			case "shape":
				rw.shape = v
			case "impl":
				rw.impl = v
			}
		}
		key := rw.bench + "/" + rw.shape + "/" + rw.impl
		if old, ok := index[key]; ok {
			rw = old
		} else {
			rw.samples = map[string][]float64{}
			index[key] = rw
			rows = append(rows, rw)
		}
		for _, v := range res.Values {
			rw.samples[v.Unit] = append(rw.samples[v.Unit], v.Value)
		}
	}
	if len(loads) > 0 {
		config["load range"] = fmt.Sprintf("%.2f–%.2f", slices.Min(loads), slices.Max(loads))
	}
	return rows, config, br.Err()
}

// summary is benchstat's summary of values: the median and its confidence interval.
func summary(values []float64) benchmath.Summary {
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(values, &benchmath.DefaultThresholds), confidence)
}

func writeHeader(w io.Writer, config map[string]string, rows []*row, wall string) {
	get := func(k, def string) string {
		if v, ok := config[k]; ok && v != "" {
			return v
		}
		return def
	}
	fmt.Fprintf(w, "# foreach benchmarks\n\n")
	fmt.Fprintf(w, "- Machine: %s, %s cores (GOMAXPROCS %s), %s memory, %s/%s, %s\n",
		strings.TrimSpace(get("cpu", "unknown CPU")), get("cores", "?"), get("gomaxprocs", "?"), get("memory", "?"),
		get("goos", "?"), get("goarch", "?"), get("go", "unknown Go"))
	if c, ok := config["commit"]; ok {
		note := " (built from `git archive` of that commit: nothing uncommitted was measured)"
		if strings.HasSuffix(c, "+dirty") {
			note = " (**with uncommitted changes: not a measurement of any commit**)"
		}
		fmt.Fprintf(w, "- Code: commit %s%s\n", c, note)
	}
	if l, ok := config["load range"]; ok {
		fmt.Fprintf(w, "- Load: 1-minute load average %s as the rounds started (other work on the machine; %s cores)\n", l, get("cores", "?"))
	}
	fmt.Fprintf(w, "- Data: the tall, wide, verywide and mixed corpora of testdata/gen/corpus (seed 1), %s each "+
		"(each ends at the first line end past that size), read whole from the page cache, opened fresh per iteration\n",
		get("size", "?"))
	n := 0
	for _, rw := range rows {
		n = max(n, len(rw.samples["B/s"]))
	}
	fmt.Fprintf(w, "- Runs: -count %s (%d samples per row), -benchtime %s", get("count", "?"), n, get("benchtime", "?"))
	if wall != "" {
		fmt.Fprintf(w, ", wall time %s", wall)
	}
	fmt.Fprintf(w, "\n- Command: `COUNT=%s FOREACH_BENCH_SIZE=%s BENCHTIME=%s benchmarks/run.sh`\n\n",
		get("count", "6"), get("size", "64MiB"), get("benchtime", "3x"))
	fmt.Fprintf(w, "MB/s is the median throughput (10^6 bytes of file per second of wall time) and ± the %.0f%% "+
		"confidence interval around it, as benchstat computes them. CPU MB/s is the same by CPU time: bytes per "+
		"second of the process's user+system time over the timed runs (getrusage), which counts the second core "+
		"that read-ahead uses. allocs/record: heap allocations over the timed runs (runtime.MemStats.Mallocs) per "+
		"record; growths/op: buffer growths per read of the file (engine: Stats().Buffer.Grows; Naive: its own "+
		"count; - where not observable). vs %s: ratio of medians to %s's on the same shape, by wall and by CPU "+
		"(above 1: faster or cheaper). Every timed run was checked before anything was reported: its record "+
		"count, byte total and the first and last byte of every record against a reference computed with "+
		"bytes.IndexByte, and the FNV-1a hash of every record's bytes (in the timed run itself for Work, on an "+
		"untimed run of the same contender right after it for Read).\n", confidence*100, baseline, baseline)
}

// cpuUnits are the names the CPU-time metric (cpu-ns/op) may carry once benchfmt
// has tidied it into base units, and as written.
var cpuUnits = []string{"cpu-sec/op", "cpu-ns/op"}

// cpuMBps returns the bytes per CPU-second of each sample of rw (10^6 bytes),
// from its wall throughput, wall time and CPU time per op; nil if any is missing.
func cpuMBps(rw *row) []float64 {
	var cpu []float64
	scale := 1.0
	for _, u := range cpuUnits {
		if v := rw.samples[u]; len(v) > 0 {
			cpu = v
			if u == "cpu-ns/op" {
				scale = 1e-9
			}
			break
		}
	}
	bps, sec := rw.samples["B/s"], rw.samples["sec/op"]
	if len(cpu) == 0 || len(cpu) != len(bps) || len(sec) != len(bps) {
		return nil
	}
	out := make([]float64, len(cpu))
	for i := range cpu {
		// bytes per op = B/s × sec/op; per CPU-second = that / CPU-seconds per op.
		out[i] = bps[i] * sec[i] / (cpu[i] * scale) / 1e6
	}
	return out
}

// wallMBps returns the wall throughput of each sample of rw in 10^6 bytes per second.
func wallMBps(rw *row) []float64 {
	out := make([]float64, len(rw.samples["B/s"]))
	for i, v := range rw.samples["B/s"] {
		out[i] = v / 1e6
	}
	return out
}

func writeTables(w io.Writer, rows []*row) {
	var benches []string
	seen := map[string]bool{}
	for _, rw := range rows {
		if !seen[rw.bench] {
			seen[rw.bench] = true
			benches = append(benches, rw.bench)
		}
	}
	for _, bench := range benches {
		fmt.Fprintf(w, "\n## %s", bench)
		if d, ok := descriptions[bench]; ok {
			fmt.Fprintf(w, ": %s", d)
		}
		fmt.Fprintf(w, "\n\n| shape | contender | MB/s | ± | CPU MB/s | ± | allocs/record | growths/op | vs %s by wall | by CPU |\n", baselineOf(bench))
		fmt.Fprintf(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, rw := range rows {
			if rw.bench != bench {
				continue
			}
			base := find(rows, bench, rw.shape, baselineOf(bench))
			cells := []string{rw.shape, rw.impl}
			for _, f := range []func(*row) []float64{wallMBps, cpuMBps} {
				speed, pct, ratio := "-", "-", "-"
				if vs := f(rw); len(vs) > 0 {
					s := summary(vs)
					speed, pct = mbps(s.Center), s.PctRangeString()
					if base != nil {
						if bs := f(base); len(bs) > 0 {
							ratio = fmt.Sprintf("%.2f×", s.Center/summary(bs).Center)
						}
					}
				}
				cells = append(cells, speed, pct, ratio)
			}
			// wall speed, ±, cpu speed, ±, allocs, growths, wall ratio, cpu ratio
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				cells[0], cells[1], cells[2], cells[3], cells[5], cells[6],
				median(rw.samples["allocs/record"]), median(rw.samples["growths/op"]), cells[4], cells[7])
		}
	}
}

// find returns the row of the given benchmark, shape and contender, or nil.
func find(rows []*row, bench, shape, impl string) *row {
	for _, rw := range rows {
		if rw.bench == bench && rw.shape == shape && rw.impl == impl {
			return rw
		}
	}
	return nil
}

// goal is one row of issue 11's goals: contender a against contender b on the same
// benchmark and shape, with the least ratio wanted by wall time and by CPU time
// (0: no goal on that clock).
type goal struct {
	what            string
	bench, shape    string
	a, b            string
	minWall, minCPU float64
}

// goals lists the goals in the order of the table; rows whose benchmarks
// are not in the file are left out.
func goals(rows []*row) []goal {
	gs := []goal{
		{"tall Lines / Scanner+copy", "Read", "tall", "Lines", "ScannerCopy", 0, 1.10},
	}
	for _, sh := range shapesOf(rows, "Read") {
		gs = append(gs, goal{sh + " read-ahead on / off (Lines / LinesNoReadAhead), light body", "Read", sh, "Lines", "LinesNoReadAhead", 0, 0.97})
	}
	gs = append(gs,
		goal{"verywide Lines / Scanner+copy", "Read", "verywide", "Lines", "ScannerCopy", 0, 1.0},
		goal{"verywide Lines / bufio.Reader.ReadBytes", "Read", "verywide", "Lines", "ReadBytes", 0, 1.8},
		goal{"mixed Lines / Scanner+copy", "Read", "mixed", "Lines", "ScannerCopy", 0, 1.0},
		goal{"tall Batches / Scanner+copy", "Read", "tall", "Batches", "ScannerCopy", 1.5, 1.3},
		goal{"tall.gz Lines with Decompress / Scanner+copy over compress/gzip", "Gzip", "tall", "LinesDecompress", "ScannerCopyStdGzip", 0, 1.0},
		goal{"mixed.gz Lines with Decompress / Scanner+copy over compress/gzip", "Gzip", "mixed", "LinesDecompress", "ScannerCopyStdGzip", 0, 1.0},
		goal{"tall, FNV-1a of each record: Lines / Scanner+copy", "Work", "tall", "Lines", "ScannerCopy", 1.3, 0.85},
	)
	for _, sh := range shapesOf(rows, "Read") {
		gs = append(gs, goal{sh + " Views / Scanner.Bytes", "Read", sh, "Views", "ScannerBytes", 0, 0.95})
	}
	return gs
}

// shapesOf lists the shapes of a benchmark in the order of first appearance.
func shapesOf(rows []*row, bench string) []string {
	var out []string
	seen := map[string]bool{}
	for _, rw := range rows {
		if rw.bench == bench && !seen[rw.shape] {
			seen[rw.shape] = true
			out = append(out, rw.shape)
		}
	}
	return out
}

// ratioSpread gives the ratio of the medians of a and b, and the least and greatest
// ratio of a round's sample of a to the same round's sample of b: the suite runs
// whole rounds, so the i-th samples were measured close together in time.
func ratioSpread(a, b []float64) (mid, lo, hi float64, ok bool) {
	if len(a) == 0 || len(a) != len(b) {
		return 0, 0, 0, false
	}
	mid = summary(a).Center / summary(b).Center
	lo, hi = a[0]/b[0], a[0]/b[0]
	for i := range a {
		r := a[i] / b[i]
		lo, hi = min(lo, r), max(hi, r)
	}
	return mid, lo, hi, true
}

func writeGoals(w io.Writer, rows []*row) {
	fmt.Fprintf(w, "\n## Goals\n\nEach goal is a ratio of two contenders of this run (above 1: the first is faster "+
		"by wall time, or uses less CPU time, for the same file): the ratio of their medians, and in brackets the "+
		"least and greatest ratio within one round. A goal is met when the ratio of medians reaches it.\n\n")
	fmt.Fprintf(w, "| goal | by wall | by CPU | wanted | met |\n| --- | ---: | ---: | --- | --- |\n")
	for _, g := range goals(rows) {
		a, b := find(rows, g.bench, g.shape, g.a), find(rows, g.bench, g.shape, g.b)
		if a == nil || b == nil {
			continue
		}
		cell := func(f func(*row) []float64, want float64) (string, string) {
			mid, lo, hi, ok := ratioSpread(f(a), f(b))
			if !ok {
				return "-", ""
			}
			verdict := ""
			if want > 0 {
				verdict = "yes"
				if mid < want {
					verdict = "no"
				}
			}
			return fmt.Sprintf("%.2f× [%.2f–%.2f]", mid, lo, hi), verdict
		}
		wall, okWall := cell(wallMBps, g.minWall)
		cpu, okCPU := cell(cpuMBps, g.minCPU)
		var wanted, met []string
		if g.minWall > 0 {
			wanted, met = append(wanted, fmt.Sprintf("≥ %.2f× by wall", g.minWall)), append(met, okWall)
		}
		if g.minCPU > 0 {
			wanted, met = append(wanted, fmt.Sprintf("≥ %.2f× by CPU", g.minCPU)), append(met, okCPU)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", g.what, wall, cpu, strings.Join(wanted, ", "), strings.Join(met, ", "))
	}
}

// mbps formats a throughput in 10^6 bytes per second.
func mbps(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// median formats the median of values to three significant digits, whole numbers
// from 1000 on; "-" for none.
func median(values []float64) string {
	if len(values) == 0 {
		return "-"
	}
	v := summary(values).Center
	if v >= 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
