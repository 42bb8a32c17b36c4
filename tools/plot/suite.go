package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// A timing is one timed read of a whole file by one contender: one data line of the
// library suite's results.
type timing struct {
	shape, contender string
	bytes            int64   // the size of the file read
	wall, cpu        float64 // seconds
}

// suiteColumns are the columns of the suite's results that the chart needs; the others
// (a, b: the row's contender and yardstick; pair: the pair's number) only say which
// comparison a run belonged to.
var suiteColumns = []string{"shape", "contender", "bytes", "wall_ns", "cpu_ns"}

// readRuns reads the suite's results: every timed run, one a line.
func readRuns(name string, r io.Reader) ([]timing, error) {
	t, err := readTable(name, r, suiteColumns)
	if err != nil {
		return nil, err
	}
	runs := make([]timing, 0, len(t.rows))
	for _, rw := range t.rows {
		rn, err := t.timing(rw)
		if err != nil {
			return nil, err
		}
		runs = append(runs, rn)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no runs, only the header", name)
	}
	return runs, nil
}

func (t *table) timing(r row) (timing, error) {
	var rn timing
	var err error
	if rn.shape, err = t.text(r, "shape"); err != nil {
		return rn, err
	}
	if rn.contender, err = t.text(r, "contender"); err != nil {
		return rn, err
	}
	if rn.bytes, err = t.count(r, "bytes", 1); err != nil {
		return rn, err
	}
	wall, err := t.count(r, "wall_ns", 1)
	if err != nil {
		return rn, err
	}
	cpu, err := t.count(r, "cpu_ns", 1)
	if err != nil {
		return rn, err
	}
	rn.wall, rn.cpu = float64(wall)/1e9, float64(cpu)/1e9
	return rn, nil
}

// defaultContenders are the bars of the chart unless -contenders says otherwise: the
// engine's three ways to read records, the standard library's, and the naive loop.
var defaultContenders = []string{"Lines", "Views", "Batches", "ScannerCopy", "ScannerBytes", "ReadBytes", "Naive"}

// shapeOrder is the order of the suite's shapes on the chart: generated text from the
// shortest lines to the longest, then the mix, then real text. Other shapes follow in
// the order they first appear.
var shapeOrder = []string{"tall", "wide", "verywide", "mixed", "real"}

// A cell is one bar: one contender on one shape.
type cell struct {
	wall, cpu float64 // MB/s: the median over the runs of 10^6 bytes per second of wall or CPU time
	runs      int
}

// A throughput is what the chart shows. Every shape and every contender listed has at
// least one cell; a missing cell is a contender the suite did not run on that shape.
type throughput struct {
	shapes     []string           // the groups, in chart order
	contenders []string           // the bars of a group, in the order chosen
	cells      map[[2]string]cell // by shape and contender
}

// summarize computes the median throughput of each chosen contender on each shape, over
// all its runs there (a contender may run in several rows of the suite: all count).
// shapes, when not empty, chooses the shapes and their order. Chosen contenders or shapes
// without runs are left out and said in notes; an empty chart is an error.
func summarize(runs []timing, contenders, shapes []string) (throughput, []string, error) {
	byCell := map[[2]string][]timing{}
	var seen []string // shapes in the order they first appear
	for _, r := range runs {
		k := [2]string{r.shape, r.contender}
		if !slices.Contains(seen, r.shape) {
			seen = append(seen, r.shape)
		}
		byCell[k] = append(byCell[k], r)
	}
	if len(shapes) == 0 {
		shapes = orderShapes(seen)
	}
	tp := throughput{cells: map[[2]string]cell{}}
	var notes []string
	for _, c := range contenders {
		if !hasAny(byCell, shapes, c) {
			notes = append(notes, fmt.Sprintf("contender %s: no runs on the shapes charted; left out", c))
			continue
		}
		tp.contenders = append(tp.contenders, c)
	}
	for _, s := range shapes {
		if !hasAny(byCell, []string{s}, tp.contenders...) {
			notes = append(notes, fmt.Sprintf("shape %s: no runs of the contenders charted; left out", s))
			continue
		}
		tp.shapes = append(tp.shapes, s)
		for _, c := range tp.contenders {
			if rs := byCell[[2]string{s, c}]; len(rs) > 0 {
				tp.cells[[2]string{s, c}] = medianCell(rs)
			}
		}
	}
	if len(tp.cells) == 0 {
		return tp, notes, fmt.Errorf("no runs of %s on %s (the file has the shapes %s)",
			strings.Join(contenders, ", "), strings.Join(shapes, ", "), strings.Join(seen, ", "))
	}
	return tp, notes, nil
}

// hasAny says whether any of the contenders ran on any of the shapes.
func hasAny(byCell map[[2]string][]timing, shapes []string, contenders ...string) bool {
	for _, s := range shapes {
		for _, c := range contenders {
			if len(byCell[[2]string{s, c}]) > 0 {
				return true
			}
		}
	}
	return false
}

// orderShapes puts the shapes of shapeOrder first, in that order, then the others as given.
func orderShapes(seen []string) []string {
	var out []string
	for _, s := range shapeOrder {
		if slices.Contains(seen, s) {
			out = append(out, s)
		}
	}
	for _, s := range seen {
		if !slices.Contains(shapeOrder, s) {
			out = append(out, s)
		}
	}
	return out
}

func medianCell(rs []timing) cell {
	wall := make([]float64, len(rs))
	cpu := make([]float64, len(rs))
	for i, r := range rs {
		wall[i] = float64(r.bytes) / 1e6 / r.wall
		cpu[i] = float64(r.bytes) / 1e6 / r.cpu
	}
	return cell{wall: median(wall), cpu: median(cpu), runs: len(rs)}
}

// median returns the middle value of xs, or the mean of the two middle values when their
// number is even. xs must not be empty; it is sorted in place.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
