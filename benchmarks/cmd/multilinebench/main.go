// Command multilinebench measures records of many lines (linereader's Options.Multiline)
// side by side in one process: Views with Multiline against what a program writes
// today (bufio.Scanner, the same regexp on each line, the lines joined in a
// bytes.Buffer), against plain line reading of the same bytes, and Count with Multiline
// on one core against two. Two inputs: the stacktrace corpus (internal/measure/corpus:
// log entries with Java stack traces, a record per entry, Start ^\d{4}-\d\d-\d\d ) and
// real text (the Go distribution's .go files concatenated, a record per top-level
// declaration, Start ^(func|type|var|const|import) ).
//
//	go run ./benchmarks/cmd/multilinebench [-size BYTES] [-pairs N] [-dir DIR]
//
// Every contender's records are checked first: the Scanner loop's and Views' the same
// records (count, bytes, a hash of each), Count's number theirs. Then each row runs
// -pairs pairs of the two contenders, one after the other in alternating order, and
// prints the medians of wall and process CPU time (all threads) and the median of the
// per-pair ratios base/contender (above 1: the contender is faster), as Markdown for
// benchmarks/results/multiline.md (benchmarks/multiline.sh).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"github.com/foreachio/foreach/internal/measure/contend"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/internal/measure/cputime"
)

// input is a file and the Start pattern of its records.
type input struct {
	name, path string
	re         *regexp.Regexp
}

// row is a comparison and the goal it is held to: the median ratio of metric ("CPU" or
// "wall") at least goal.
type row struct {
	base, other contender
	metric      string
	goal        float64
}

var rows = []row{
	{scanner, views, "CPU", 2},
	{plain, views, "CPU", 0.5},
	{count1, count2, "wall", 1.6},
}

func main() {
	size := flag.Int64("size", 64<<20, "bytes of each input, about")
	pairs := flag.Int("pairs", 11, "alternating pairs of runs per row")
	dir := flag.String("dir", "", "where to write the inputs (default: a temporary directory, removed)")
	flag.Parse()
	if *dir == "" {
		d, err := os.MkdirTemp("", "multilinebench")
		check(err)
		defer os.RemoveAll(d)
		*dir = d
	}
	inputs, err := makeInputs(*dir, *size)
	check(err)
	fmt.Printf("Inputs of %d MiB each, from the page cache; %d pairs per row, alternating; medians over the pairs. "+
		"Ratios are base/contender: above 1 the contender is faster.\n\n", *size>>20, *pairs)
	fmt.Println("| input | base | contender | base wall | contender wall | wall ratio | base CPU | contender CPU | CPU ratio | goal |")
	fmt.Println("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
	for _, in := range inputs {
		n, err := verify(in)
		check(err)
		fmt.Fprintf(os.Stderr, "%s: %d records, checked\n", in.name, n)
		for _, r := range rows {
			measure(in, r, *pairs)
		}
	}
}

// makeInputs writes the two inputs into dir.
func makeInputs(dir string, size int64) ([]input, error) {
	st := filepath.Join(dir, "stacktrace.txt")
	if _, err := corpus.WriteFile(st, corpus.Spec{Shape: corpus.StackTrace, Size: size, Seed: 1}); err != nil {
		return nil, err
	}
	real, err := contend.MakeFile(dir, contend.Real, size)
	if err != nil {
		return nil, err
	}
	return []input{
		{"stacktrace", st, regexp.MustCompile(`^\d{4}-\d\d-\d\d `)},
		{"real (Go)", real.Path, regexp.MustCompile(`^(func|type|var|const|import) `)},
	}, nil
}

// verify checks that the Scanner loop and Views see the same records and that Count
// counts them, and returns their number.
func verify(in input) (int64, error) {
	want, err := scanner.run(in.path, in.re, true)
	if err != nil {
		return 0, err
	}
	for _, c := range []contender{views, count1, count2} {
		got, err := c.run(in.path, in.re, true)
		if err != nil {
			return 0, fmt.Errorf("%s: %s: %w", in.name, c.name, err)
		}
		if got.records != want.records || c.name == views.name && got != want {
			return 0, fmt.Errorf("%s: %s saw %+v, the Scanner loop %+v", in.name, c.name, got, want)
		}
	}
	return want.records, nil
}

// sample is one timed run.
type sample struct{ wall, cpu float64 }

func timed(c contender, in input) sample {
	c0, _ := cputime.Now()
	t0 := time.Now()
	_, err := c.run(in.path, in.re, false)
	wall := time.Since(t0)
	c1, _ := cputime.Now()
	check(err)
	return sample{float64(wall), float64(c1 - c0)}
}

// measure runs pairs of r's contenders, alternating which goes first, and prints a row.
func measure(in input, r row, pairs int) {
	var bw, ow, bc, oc, wr, cr []float64
	for i := range pairs {
		var b, o sample
		if i%2 == 0 {
			b, o = timed(r.base, in), timed(r.other, in)
		} else {
			o, b = timed(r.other, in), timed(r.base, in)
		}
		bw, ow, bc, oc = append(bw, b.wall), append(ow, o.wall), append(bc, b.cpu), append(oc, o.cpu)
		wr = append(wr, b.wall/o.wall)
		if o.cpu > 0 {
			cr = append(cr, b.cpu/o.cpu)
		}
	}
	ratio := map[string]float64{"wall": median(wr), "CPU": median(cr)}[r.metric]
	verdict := "met"
	if ratio < r.goal {
		verdict = "**not met**"
	}
	fmt.Printf("| %s | %s | %s | %s | %s | %.2f× | %s | %s | %.2f× | %s ≥ %.1f×: %s |\n", in.name, r.base.name, r.other.name,
		ms(median(bw)), ms(median(ow)), median(wr), ms(median(bc)), ms(median(oc)), median(cr), r.metric, r.goal, verdict)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func ms(ns float64) string { return fmt.Sprintf("%.0f ms", ns/1e6) }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "multilinebench:", err)
		os.Exit(1)
	}
}
