package benchmarks

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/foreachio/foreach/internal/measure/contend"
	"github.com/foreachio/foreach/internal/measure/cputime"
)

// A Row is one comparison: contender A against its yardstick B on one shape, timed in
// alternating pairs (A then B, then B then A, ...). Its ratio is B's time over A's:
// above 1, A is faster. Goal, when set, is the ratio A must reach by CPU time (and by
// wall time too when Wall is set).
type Row struct {
	Shape string
	A, B  string
	Goal  float64
	Wall  bool
	Note  string // what the row shows, for the results table
}

// Rows are the suite: the goals of the engine, and the yardsticks that say what a
// minimal loop costs.
var Rows = []Row{
	{Shape: "tall", A: "Lines", B: "ScannerCopy", Goal: 1.10, Note: "records owned, make+copy"},
	{Shape: "tall", A: "Lines", B: "ScannerClone", Goal: 1.30, Note: "records owned, bytes.Clone"},
	{Shape: "tall", A: "Batches", B: "ScannerCopy", Goal: 1.5, Wall: true, Note: "records owned, one block per batch"},
	{Shape: "tall", A: "Views", B: "ScannerBytes", Goal: 1.0, Note: "records borrowed"},
	{Shape: "tall", A: "LinesFNV", B: "ScannerCopyFNV", Goal: 1.0, Note: "FNV-1a of each record"},
	{Shape: "tall", A: "Lines", B: "LinesReader", Goal: 0.97, Note: "a regular file against a plain io.Reader"},
	{Shape: "tall", A: "MinimalLines", B: "ScannerCopy", Note: "yardstick: a minimal loop"},
	{Shape: "tall", A: "MinimalViews", B: "ScannerBytes", Note: "yardstick: a minimal loop"},
	{Shape: "tall", A: "Naive", B: "ScannerCopy", Note: "the pattern this project replaces"},
	{Shape: "tall", A: "LinesChomp", B: "ScannerClone", Note: "the earlier suite's comparison: Chomp, bytes.Clone"},
	{Shape: "wide", A: "Lines", B: "ScannerCopy"},
	{Shape: "wide", A: "Views", B: "ScannerBytes", Goal: 1.0},
	{Shape: "wide", A: "Batches", B: "ScannerCopy"},
	{Shape: "verywide", A: "Lines", B: "ReadBytes", Goal: 1.8, Note: "lines of 512 to 768 KiB"},
	{Shape: "verywide", A: "MinimalLines", B: "ReadBytes", Note: "yardstick: a minimal loop"},
	{Shape: "verywide", A: "Lines", B: "ScannerCopy"},
	{Shape: "verywide", A: "Views", B: "ScannerBytes"},
	{Shape: "mixed", A: "Lines", B: "ScannerCopy", Goal: 1.0},
	{Shape: "mixed", A: "Views", B: "ScannerBytes", Goal: 1.0},
	{Shape: "mixed", A: "Batches", B: "ScannerCopy"},
	{Shape: contend.Real, A: "Lines", B: "ScannerCopy", Goal: 1.10, Note: "the Go distribution's sources"},
	{Shape: contend.Real, A: "Views", B: "ScannerBytes", Goal: 1.0},
	{Shape: contend.Real, A: "Batches", B: "ScannerCopy"},
	{Shape: contend.Real, A: "MinimalLines", B: "ScannerCopy", Note: "yardstick: a minimal loop"},
	{Shape: contend.Real, A: "MinimalViews", B: "ScannerBytes", Note: "yardstick: a minimal loop"},
}

// A Run is one timed read of a whole file by one contender.
type Run struct {
	Contender string
	Wall, CPU time.Duration
}

// Collect, when set, runs the collector before every timed run: the earlier suite's
// choice, kept to measure what it changes. By default nothing is collected or given back
// around a run, as in a program that reads file after file.
var Collect bool

// Time reads f once with c, from a freshly opened file, and returns its wall and CPU
// time. The result is checked against f's reference: a contender that saw anything else
// is an error, never a number.
func Time(c contend.Contender, f *contend.File) (Run, error) {
	fd, err := os.Open(f.Path)
	if err != nil {
		return Run{}, err
	}
	defer fd.Close()
	if Collect {
		runtime.GC()
	}
	c0, _ := cputime.Now()
	t0 := time.Now()
	res, err := c.Run(fd, contend.ReadSize)
	wall := time.Since(t0)
	c1, _ := cputime.Now()
	if err != nil {
		return Run{}, fmt.Errorf("%s on %s: %w", c.Name, f.Shape, err)
	}
	if err := f.Check(c, res); err != nil {
		return Run{}, err
	}
	return Run{Contender: c.Name, Wall: wall, CPU: c1 - c0}, nil
}

// Pair times A and B once each, A first when aFirst is set.
func Pair(a, b contend.Contender, f *contend.File, aFirst bool) (ra, rb Run, err error) {
	first, second := a, b
	if !aFirst {
		first, second = b, a
	}
	r1, err := Time(first, f)
	if err != nil {
		return ra, rb, err
	}
	r2, err := Time(second, f)
	if err != nil {
		return ra, rb, err
	}
	if aFirst {
		return r1, r2, nil
	}
	return r2, r1, nil
}

// Ratios summarises the per-pair ratios of one row, B's time over A's.
type Ratios struct {
	Wall, CPU Spread
}

// Spread is the median of some ratios and the range of their middle half.
type Spread struct {
	Median, Q1, Q3 float64
}

// Summarise returns the spread of the per-pair ratios b[i]/a[i].
func Summarise(a, b []Run) Ratios {
	var wall, cpu []float64
	for i := range a {
		wall = append(wall, float64(b[i].Wall)/float64(a[i].Wall))
		if a[i].CPU > 0 {
			cpu = append(cpu, float64(b[i].CPU)/float64(a[i].CPU))
		}
	}
	return Ratios{Wall: spreadOf(wall), CPU: spreadOf(cpu)}
}

func spreadOf(x []float64) Spread {
	if len(x) == 0 {
		return Spread{}
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return Spread{Median: quantile(s, 0.5), Q1: quantile(s, 0.25), Q3: quantile(s, 0.75)}
}

// quantile interpolates linearly between the closest ranks of the sorted s.
func quantile(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}

// MedianDuration returns the median of the durations d picks from runs.
func MedianDuration(runs []Run, d func(Run) time.Duration) time.Duration {
	x := make([]float64, len(runs))
	for i, r := range runs {
		x[i] = float64(d(r))
	}
	sort.Float64s(x)
	return time.Duration(quantile(x, 0.5))
}
