// Command suite times the linereader engine against the standard library's ways of
// reading lines, the way a user's own program runs them: one process, each contender a
// straightforward loop over a whole file from the page cache, the two loops of a row
// alternating, nothing collected or given back between runs, CPU time of the whole
// process (getrusage) and wall time around each run, the median of the per-pair ratios.
//
//	go run ./benchmarks/cmd/suite [-size 64MiB] [-pairs 21] [-rows REGEXP] [-md FILE] [-raw FILE]
//
// benchmarks/run.sh runs it on a clean commit and keeps its output in benchmarks/results.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/foreachio/foreach/benchmarks"
	"github.com/foreachio/foreach/internal/measure/contend"
)

func main() {
	size := flag.String("size", "64MiB", "size of each corpus file")
	pairs := flag.Int("pairs", 21, "alternating pairs per row")
	rows := flag.String("rows", "", "only the rows whose \"shape A/B\" matches this regular expression")
	md := flag.String("md", "", "write the markdown report to this file (default: standard output)")
	raw := flag.String("raw", "", "write every timed run to this file, tab-separated")
	commit := flag.String("commit", "", "the commit measured, for the report")
	flag.BoolVar(&benchmarks.Collect, "collect", false, "run the collector before every timed run (the earlier suite's method)")
	flag.Parse()
	if err := run(*size, *pairs, *rows, *md, *raw, *commit); err != nil {
		fmt.Fprintln(os.Stderr, "suite:", err)
		os.Exit(1)
	}
}

// measured is one row's runs, A's and B's in pair order.
type measured struct {
	row  benchmarks.Row
	a, b []benchmarks.Run
}

func run(sizeFlag string, pairs int, rowsFlag, mdPath, rawPath, commit string) error {
	size, err := humanize.ParseBytes(sizeFlag)
	if err != nil {
		return fmt.Errorf("-size %q: %w", sizeFlag, err)
	}
	filter, err := regexp.Compile(rowsFlag)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "foreach-suite-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	files := map[string]*contend.File{}
	var results []measured
	start := time.Now()
	for _, row := range benchmarks.Rows {
		if !filter.MatchString(row.Shape + " " + row.A + "/" + row.B) {
			continue
		}
		f := files[row.Shape]
		if f == nil {
			if f, err = contend.MakeFile(dir, row.Shape, int64(size)); err != nil {
				return err
			}
			files[row.Shape] = f
		}
		m, err := measure(row, f, pairs)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%-8s %-12s / %-14s %s\n", row.Shape, row.A, row.B, ratioText(benchmarks.Summarise(m.a, m.b)))
		results = append(results, m)
	}
	elapsed := time.Since(start)
	if rawPath != "" {
		if err := writeRaw(rawPath, results, files); err != nil {
			return err
		}
	}
	out := io.Writer(os.Stdout)
	if mdPath != "" {
		fd, err := os.Create(mdPath)
		if err != nil {
			return err
		}
		defer fd.Close()
		out = fd
	}
	report(out, results, files, header{commit: commit, size: int64(size), pairs: pairs, elapsed: elapsed})
	return nil
}

// measure times one row: a warm-up run of each contender, then the pairs, alternating
// which contender goes first.
func measure(row benchmarks.Row, f *contend.File, pairs int) (measured, error) {
	a, okA := contend.Contenders[row.A]
	b, okB := contend.Contenders[row.B]
	if !okA || !okB {
		return measured{}, fmt.Errorf("row %s %s/%s: no such contender", row.Shape, row.A, row.B)
	}
	m := measured{row: row}
	if _, _, err := benchmarks.Pair(a, b, f, true); err != nil {
		return m, err
	}
	for i := range pairs {
		ra, rb, err := benchmarks.Pair(a, b, f, i%2 == 0)
		if err != nil {
			return m, err
		}
		m.a, m.b = append(m.a, ra), append(m.b, rb)
	}
	return m, nil
}

func ratioText(r benchmarks.Ratios) string {
	return fmt.Sprintf("CPU %s  wall %s", spreadText(r.CPU), spreadText(r.Wall))
}

func spreadText(s benchmarks.Spread) string {
	return fmt.Sprintf("%.2f× [%.2f–%.2f]", s.Median, s.Q1, s.Q3)
}

// writeRaw writes every timed run, one per line: the row (shape, contender A, yardstick
// B), the pair's number, which contender ran, the bytes of the file it read, and its
// wall and CPU time in nanoseconds.
func writeRaw(path string, results []measured, files map[string]*contend.File) error {
	var b strings.Builder
	b.WriteString("shape\ta\tb\tpair\tcontender\tbytes\twall_ns\tcpu_ns\n")
	for _, m := range results {
		size := files[m.row.Shape].Size
		for i := range m.a {
			for _, r := range []benchmarks.Run{m.a[i], m.b[i]} {
				fmt.Fprintf(&b, "%s\t%s\t%s\t%d\t%s\t%d\t%d\t%d\n", m.row.Shape, m.row.A, m.row.B, i, r.Contender, size, r.Wall, r.CPU)
			}
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

type header struct {
	commit  string
	size    int64
	pairs   int
	elapsed time.Duration
}

func report(w io.Writer, results []measured, files map[string]*contend.File, h header) {
	fmt.Fprintf(w, "# foreach benchmarks: the plain-program method\n\n")
	fmt.Fprintf(w, "- Machine: %s, %d cores (GOMAXPROCS %d), %s, %s/%s, %s\n",
		cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), memTotal(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	if h.commit != "" {
		fmt.Fprintf(w, "- Code: commit %s (built from `git archive` of that commit)\n", h.commit)
	}
	fmt.Fprintf(w, "- Data: %s per corpus (tall, wide, verywide, mixed from internal/measure/corpus, seed 1; real: the Go distribution's .go files concatenated), from the page cache\n", humanize.IBytes(uint64(h.size)))
	fmt.Fprintf(w, "- Runs: %d alternating pairs per row after one warm-up pair, %s in all\n", h.pairs, h.elapsed.Round(time.Second))
	if benchmarks.Collect {
		fmt.Fprintf(w, "- With -collect: the collector ran before every timed run (the earlier suite's method, not a user's program's)\n")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Each ratio is the yardstick's time over the contender's, pair by pair (above 1: the contender is faster), as the median and, in brackets, the middle half of the pairs. CPU time is the whole process's (all threads, the collector's included).\n\n")

	fmt.Fprintf(w, "## Rows\n\n| shape | contender | yardstick | by CPU | by wall | goal | met |\n| --- | --- | --- | ---: | ---: | ---: | --- |\n")
	for _, m := range results {
		r := benchmarks.Summarise(m.a, m.b)
		goal, met := "", ""
		if m.row.Goal > 0 {
			goal = fmt.Sprintf("≥ %.2f×", m.row.Goal)
			ok := r.CPU.Median >= m.row.Goal && (!m.row.Wall || r.Wall.Median >= m.row.Goal)
			if m.row.Wall {
				goal += " (CPU and wall)"
			}
			met = map[bool]string{true: "yes", false: "**no**"}[ok]
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", m.row.Shape, m.row.A, m.row.B, spreadText(r.CPU), spreadText(r.Wall), goal, met)
	}
	throughput(w, results, files)
}

// throughput tables the median MB/s of every contender on every shape, over all the
// runs of all the rows it ran in.
func throughput(w io.Writer, results []measured, files map[string]*contend.File) {
	runs := map[[2]string][]benchmarks.Run{}
	for _, m := range results {
		for i := range m.a {
			for _, r := range []benchmarks.Run{m.a[i], m.b[i]} {
				k := [2]string{m.row.Shape, r.Contender}
				runs[k] = append(runs[k], r)
			}
		}
	}
	keys := make([][2]string, 0, len(runs))
	for k := range runs {
		keys = append(keys, k)
	}
	order := map[string]int{}
	for i, s := range contend.Shapes {
		order[s] = i
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return order[keys[i][0]] < order[keys[j][0]]
		}
		return keys[i][1] < keys[j][1]
	})
	fmt.Fprintf(w, "\n## Throughput\n\nMB/s: 10^6 bytes of file per second, the median over the contender's runs on that shape; by CPU: per second of the process's CPU time.\n\n| shape | contender | MB/s | by CPU | runs |\n| --- | --- | ---: | ---: | ---: |\n")
	for _, k := range keys {
		rs := runs[k]
		mb := float64(files[k[0]].Size) / 1e6
		wall := benchmarks.MedianDuration(rs, func(r benchmarks.Run) time.Duration { return r.Wall })
		cpu := benchmarks.MedianDuration(rs, func(r benchmarks.Run) time.Duration { return r.CPU })
		cpuText := "-"
		if cpu > 0 {
			cpuText = fmt.Sprintf("%.0f", mb/cpu.Seconds())
		}
		fmt.Fprintf(w, "| %s | %s | %.0f | %s | %d |\n", k[0], k[1], mb/wall.Seconds(), cpuText, len(rs))
	}
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func memTotal() string {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "memory unknown"
	}
	var kb uint64
	if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err != nil {
		return "memory unknown"
	}
	return humanize.IBytes(kb<<10) + " memory"
}
