// Command benchtable turns the raw output of the foreach benchmarks into the
// markdown table of the README: one row per shape and contender with the median
// throughput, its confidence interval as benchstat computes it, allocations per
// record, buffer growths per read and the ratio to bufio.Scanner with each token
// copied (ScannerCopy) on the same shape.
//
//	go run ./benchmarks/cmd/benchtable [-wall 5m10s] RAW.txt > latest.md
//
// It reads the benchmark lines with golang.org/x/perf/benchfmt and summarizes each
// sample with golang.org/x/perf/benchmath (median and 95% confidence interval, no
// distributional assumption), so every number and ratio is computed from the raw
// file. The header comes from the file's configuration lines: cpu, goos, goarch
// from go test, and go, commit, cores, size, count, benchtime from benchmarks/run.sh.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// baseline is the contender every ratio is relative to.
const baseline = "ScannerCopy"

// confidence is the level of the ± column, benchstat's default.
const confidence = 0.95

// row is one benchmark, shape and contender, with its samples by unit.
type row struct {
	bench, shape, impl string
	samples            map[string][]float64
}

// descriptions say what each benchmark measures, in the table's heading.
var descriptions = map[string]string{
	"Read": "the read path alone (loop body: length and first byte of each record)",
	"Work": "per-record work about as costly as the read (FNV-1a 64 of each record's bytes)",
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
	return nil
}

// parse collects the samples of every benchmark, in the order of first appearance,
// and the configuration of the file.
func parse(r io.Reader, name string) ([]*row, map[string]string, error) {
	var rows []*row
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
	fmt.Fprintf(w, "- Machine: %s, %s cores (GOMAXPROCS %s), %s/%s, %s\n",
		get("cpu", "unknown CPU"), get("cores", "?"), get("gomaxprocs", "?"),
		get("goos", "?"), get("goarch", "?"), get("go", "unknown Go"))
	if c, ok := config["commit"]; ok {
		fmt.Fprintf(w, "- Code: commit %s\n", c)
	}
	fmt.Fprintf(w, "- Data: the tall, wide and mixed corpora of testdata/gen/corpus (seed 1), %s each "+
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
	fmt.Fprintf(w, "\n- Reproduce: `COUNT=%s FOREACH_BENCH_SIZE=%s BENCHTIME=%s benchmarks/run.sh`\n\n",
		get("count", "6"), get("size", "64MiB"), get("benchtime", "5x"))
	fmt.Fprintf(w, "MB/s is the median throughput (10^6 bytes of file per second) and ± the %.0f%% confidence "+
		"interval around it, as benchstat computes them. allocs/record: heap allocations over the timed loop "+
		"(runtime.MemStats.Mallocs) per record; growths/op: buffer growths per read of the file "+
		"(engine: Stats().Buffer.Grows; Naive: its own count; - where not observable). "+
		"vs %s: ratio of median MB/s to %s's on the same shape. Every run checked its record count, "+
		"byte total (and hash) against a bytes.Count reference before reporting.\n", confidence*100, baseline, baseline)
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
		fmt.Fprintf(w, "\n\n| shape | contender | MB/s | ± | allocs/record | growths/op | vs %s |\n", baseline)
		fmt.Fprintf(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
		base := map[string]float64{}
		for _, rw := range rows {
			if rw.bench == bench && rw.impl == baseline && len(rw.samples["B/s"]) > 0 {
				base[rw.shape] = summary(rw.samples["B/s"]).Center
			}
		}
		for _, rw := range rows {
			if rw.bench != bench {
				continue
			}
			speed, pct, ratio := "-", "-", "-"
			if vs := rw.samples["B/s"]; len(vs) > 0 {
				s := summary(vs)
				speed = mbps(s.Center / 1e6)
				pct = s.PctRangeString()
				if b := base[rw.shape]; b > 0 {
					ratio = fmt.Sprintf("%.2f×", s.Center/b)
				}
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n",
				rw.shape, rw.impl, speed, pct, median(rw.samples["allocs/record"]), median(rw.samples["growths/op"]), ratio)
		}
	}
}

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
