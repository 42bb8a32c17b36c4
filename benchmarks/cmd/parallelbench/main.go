// Command parallelbench measures parallel.Foreach, parallel.Map and parallel.Fold against
// the sequential loops a program would otherwise write, the way a program runs them:
// one process, each contender a plain loop over a whole file, the two contenders of a
// pair run one after the other in alternating order, no garbage collection forced
// between runs. It reports, per pair of contenders, the median over the pairs of the
// wall time and of the process's CPU time (all threads, getrusage) of each, and the
// medians of the per-pair ratios.
//
//	go run ./benchmarks/cmd/parallelbench [-pairs N] [-passes N] [-workers LIST] [-goals] LABEL=FILE...
//
// The loop body is either heavy (-passes FNV-1a passes over each record) or light (the
// record's length and first byte). Every contender's record count and checksum (the sum
// of the body's results) is checked against bufio.Scanner's before anything is timed.
// A word count of each file (words split at ASCII white space, counted in a map) compares
// Fold with Foreach feeding one map behind a mutex and with a sequential Lines loop, each
// count checked equal to the sequential one first.
// The output is Markdown, for benchmarks/results/parallel.md (benchmarks/parallel.sh).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/internal/measure/cputime"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// passes is how many FNV-1a passes the heavy body makes over each record.
var passes = 3

// heavy is the costly body: passes FNV-1a passes over the record.
func heavy(rec []byte) uint64 {
	h := uint64(14695981039346656037)
	for range passes {
		for _, c := range rec {
			h ^= uint64(c)
			h *= 1099511628211
		}
	}
	return h
}

// light is the cheap body: the record's length and first byte.
func light(rec []byte) uint64 {
	if len(rec) == 0 {
		return 0
	}
	return uint64(len(rec)) + uint64(rec[0])
}

// result is what a contender computed: records and the sum of the body's results.
type result struct {
	records int64
	sum     uint64
}

// contender reads the whole file, applying body to every record (chomped).
type contender struct {
	name string
	run  func(path string, body func([]byte) uint64) (result, error)
}

// scannerCopy is the sequential loop most Go programs have: bufio.Scanner, each line
// copied out before the body sees it.
var scannerCopy = contender{"Scanner+copy", func(path string, body func([]byte) uint64) (result, error) {
	f, err := os.Open(path)
	if err != nil {
		return result{}, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64<<10), 1<<30)
	var res result
	for s.Scan() {
		rec := make([]byte, len(s.Bytes()))
		copy(rec, s.Bytes())
		res.sum += body(rec)
		res.records++
	}
	return res, s.Err()
}}

// opt is what every linereader contender reads with: lines, chomped as Scanner does.
var opt = linereader.Options{Chomp: true}

// linesLoop is the sequential linereader loop.
var linesLoop = contender{"Lines", func(path string, body func([]byte) uint64) (result, error) {
	r, err := linereader.Open(path, opt)
	if err != nil {
		return result{}, err
	}
	defer r.Close()
	var res result
	for rec := range r.Lines() {
		res.sum += body(rec)
		res.records++
	}
	return res, r.Err()
}}

// foreachParallel sums the body's results as a caller would, with atomic adds.
func foreachParallel(workers int) contender {
	return contender{fmt.Sprintf("Foreach(%d)", workers), func(path string, body func([]byte) uint64) (result, error) {
		var records atomic.Int64
		var sum atomic.Uint64
		err := parallel.Foreach(context.Background(), path, opt, workers, func(rec []byte, _ int64) error {
			sum.Add(body(rec))
			records.Add(1)
			return nil
		})
		return result{records.Load(), sum.Load()}, err
	}}
}

// mapLoop sums the results in the loop, in input order.
func mapLoop(workers int) contender {
	return contender{fmt.Sprintf("Map(%d)", workers), func(path string, body func([]byte) uint64) (result, error) {
		r, err := linereader.Open(path, opt)
		if err != nil {
			return result{}, err
		}
		defer r.Close()
		var res result
		for v := range parallel.Map(context.Background(), r, workers, body) {
			res.sum += v
			res.records++
		}
		return res, r.Err()
	}}
}

// row is one comparison: base against other, with the body, and the goal if any.
type row struct {
	body        string
	base, other contender
	wallGoal    float64 // base wall / other wall must be at least this (0: no goal)
	cpuGoal     float64 // base CPU / other CPU must be at least this (0: no goal)
}

// sample is one timed run.
type sample struct{ wall, cpu time.Duration }

// cpuTime is the process's CPU time so far, all threads (0 where the platform does not
// say: the CPU columns then read n/a).
func cpuTime() time.Duration {
	t, _ := cputime.Now()
	return t
}

// timed runs c once and returns its times and result.
func timed(c contender, path string, body func([]byte) uint64) (sample, result, error) {
	c0, t0 := cpuTime(), time.Now()
	res, err := c.run(path, body)
	wall, cpu := time.Since(t0), cpuTime()-c0
	return sample{wall, cpu}, res, err
}

func main() {
	pairs := flag.Int("pairs", 15, "alternating pairs of runs per row")
	flag.IntVar(&passes, "passes", passes, "FNV-1a passes of the heavy body over each record")
	workerList := flag.String("workers", "1,2,3,4", "worker counts of the scaling rows")
	goalsOnly := flag.Bool("goals", false, "measure only the rows that have a goal")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: parallelbench [-pairs N] [-passes N] [-workers LIST] LABEL=FILE...")
		os.Exit(2)
	}
	var workers []int
	for _, s := range strings.Split(*workerList, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || w < 1 {
			fmt.Fprintf(os.Stderr, "parallelbench: bad worker count %q\n", s)
			os.Exit(2)
		}
		workers = append(workers, w)
	}
	rows := plan(workers)
	if *goalsOnly {
		rows = slices.DeleteFunc(rows, func(rw row) bool { return rw.wallGoal == 0 })
	}
	fmt.Printf("Each row: %d pairs of runs, the two contenders alternating in order; medians over the pairs. "+
		"Ratios are base/contender: above 1 the contender is faster (wall) or spends less CPU (CPU). "+
		"Heavy body: %d FNV-1a passes over each record; light body: length and first byte. "+
		"Records chomped, as bufio.Scanner gives them.\n\n", *pairs, passes)
	failed := false
	for _, arg := range flag.Args() {
		label, path, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "parallelbench: want LABEL=FILE, got %q\n", arg)
			os.Exit(2)
		}
		err := corpus(label, path, rows, *pairs)
		if err == nil {
			err = wordCount(label, path, *pairs)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "parallelbench: %s: %v\n", label, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// plan is the rows measured on every corpus: the goals first, then scaling.
func plan(workers []int) []row {
	rows := []row{
		{"heavy", scannerCopy, foreachParallel(2), 1.6, 0.9},
		{"heavy", scannerCopy, mapLoop(2), 1.3, 0.75},
		{"light", linesLoop, foreachParallel(2), 1.0, 0},
	}
	for _, w := range workers {
		if w != 2 {
			rows = append(rows, row{"heavy", scannerCopy, foreachParallel(w), 0, 0})
		}
	}
	for _, w := range workers {
		if w != 2 {
			rows = append(rows, row{"heavy", scannerCopy, mapLoop(w), 0, 0})
		}
	}
	return append(rows,
		row{"heavy", scannerCopy, linesLoop, 0, 0},
		row{"light", scannerCopy, foreachParallel(2), 0, 0},
		row{"light", linesLoop, mapLoop(2), 0, 0},
	)
}

// corpus verifies every contender on the file, then measures every row and prints its table.
func corpus(label, path string, rows []row, pairs int) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	bodies := map[string]func([]byte) uint64{"heavy": heavy, "light": light}
	if err := verify(path, rows, bodies); err != nil {
		return err
	}
	fmt.Printf("### %s (%.1f MiB)\n\n", label, float64(st.Size())/(1<<20))
	fmt.Println("| body | base | contender | base wall | contender wall | wall ratio | base CPU | contender CPU | CPU ratio | goal | met |")
	fmt.Println("|---|---|---|---:|---:|---:|---:|---:|---:|---|---|")
	for _, rw := range rows {
		if err := measureRow(path, rw, bodies[rw.body], pairs, true); err != nil {
			return err
		}
	}
	fmt.Println()
	return nil
}

// verify runs every contender of every row once and checks its records and checksum
// against Scanner+copy's.
func verify(path string, rows []row, bodies map[string]func([]byte) uint64) error {
	for name, body := range bodies {
		want, err := scannerCopy.run(path, body)
		if err != nil {
			return err
		}
		for _, rw := range rows {
			if rw.body != name {
				continue
			}
			for _, c := range []contender{rw.base, rw.other} {
				got, err := c.run(path, body)
				if err != nil {
					return fmt.Errorf("%s: %w", c.name, err)
				}
				if got != want {
					return fmt.Errorf("%s, %s body: %d records, sum %x; Scanner+copy: %d records, sum %x",
						c.name, name, got.records, got.sum, want.records, want.sum)
				}
			}
		}
	}
	return nil
}

// measureRow runs the pairs of one row and prints it, with its body and goal columns
// when withBody is set.
func measureRow(path string, rw row, body func([]byte) uint64, pairs int, withBody bool) error {
	var base, other []sample
	var wallRatio, cpuRatio []float64
	for i := range pairs {
		order := []contender{rw.base, rw.other}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		var got [2]sample
		for _, c := range order {
			s, _, err := timed(c, path, body)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if c.name == rw.base.name {
				got[0] = s
			} else {
				got[1] = s
			}
		}
		base, other = append(base, got[0]), append(other, got[1])
		wallRatio = append(wallRatio, float64(got[0].wall)/float64(got[1].wall))
		if got[1].cpu > 0 {
			cpuRatio = append(cpuRatio, float64(got[0].cpu)/float64(got[1].cpu))
		}
	}
	bw, ow := median(walls(base)), median(walls(other))
	bc, oc := median(cpus(base)), median(cpus(other))
	wr, cr := median(wallRatio), median(cpuRatio)
	goal, met := "", ""
	if rw.wallGoal > 0 {
		goal = fmt.Sprintf("wall ≥ %.2f×", rw.wallGoal)
		ok := wr >= rw.wallGoal
		if rw.cpuGoal > 0 {
			goal += fmt.Sprintf(", CPU ≥ %.2f×", rw.cpuGoal)
			ok = ok && cr >= rw.cpuGoal
		}
		met = map[bool]string{true: "yes", false: "**no**"}[ok]
	}
	cells := fmt.Sprintf("%s | %s | %s | %s | %.2f× | %s | %s | %s",
		rw.base.name, rw.other.name, ms(bw), ms(ow), wr, ms(bc), ms(oc), ratio(cr, len(cpuRatio)))
	if withBody {
		fmt.Printf("| %s | %s | %s | %s |\n", rw.body, cells, goal, met)
	} else {
		fmt.Printf("| %s |\n", cells)
	}
	return nil
}

func walls(s []sample) []float64 {
	out := make([]float64, len(s))
	for i := range s {
		out[i] = float64(s[i].wall)
	}
	return out
}

func cpus(s []sample) []float64 {
	out := make([]float64, len(s))
	for i := range s {
		out[i] = float64(s[i].cpu)
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func ms(ns float64) string {
	if ns == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f ms", ns/1e6)
}

func ratio(r float64, n int) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", r)
}
