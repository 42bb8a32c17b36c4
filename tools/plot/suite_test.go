package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

const header = "shape\ta\tb\tpair\tcontender\tbytes\twall_ns\tcpu_ns\n"

func TestReadRunsFields(t *testing.T) {
	in := header +
		"tall\tLines\tScannerCopy\t0\tLines\t67108880\t61432100\t60118000\n" +
		"# a comment, and an empty line, are skipped\n\n" +
		"real\tViews\tScannerBytes\t3\tScannerBytes\t1000000\t1000\t2000\r\n"
	runs, err := readRuns("r.tsv", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []timing{
		{shape: "tall", contender: "Lines", bytes: 67108880, wall: 0.0614321, cpu: 0.060118},
		{shape: "real", contender: "ScannerBytes", bytes: 1000000, wall: 1e-6, cpu: 2e-6},
	}
	if !slices.Equal(runs, want) {
		t.Errorf("got %+v\nwant %+v", runs, want)
	}
}

// Columns are found by name: a file with its columns in another order, and one more,
// reads the same.
func TestReadRunsColumnsByName(t *testing.T) {
	in := "cpu_ns\twall_ns\tnote\tbytes\tcontender\tshape\n" +
		"60118000\t61432100\tx\t67108880\tLines\ttall\n"
	runs, err := readRuns("r.tsv", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := timing{shape: "tall", contender: "Lines", bytes: 67108880, wall: 0.0614321, cpu: 0.060118}
	if len(runs) != 1 || runs[0] != want {
		t.Errorf("got %+v, want %+v", runs, want)
	}
}

func TestReadRunsErrors(t *testing.T) {
	good := "tall\tLines\tScannerCopy\t0\tLines\t100\t10\t10\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "r.tsv: empty: no header line"},
		{"comments only", "# x\n\n", "r.tsv: empty: no header line"},
		{"header only", header, "r.tsv: no runs, only the header"},
		{"missing columns", "shape\tcontender\tbytes\n", "r.tsv:1: header: no column wall_ns, cpu_ns (want the columns shape contender bytes wall_ns cpu_ns, tab-separated)"},
		{"spaces for tabs", "shape a b pair contender bytes wall_ns cpu_ns\n", "r.tsv:1: header: no column shape, contender, bytes, wall_ns, cpu_ns (want the columns shape contender bytes wall_ns cpu_ns, tab-separated)"},
		{"column twice", "shape\tshape\tcontender\n", `r.tsv:1: header: column "shape" twice`},
		{"short line", header + good + "tall\tLines\tScannerCopy\t0\tLines\t100\t10\n", "r.tsv:3: 7 fields, want 8 as in the header (fields are separated by tabs)"},
		{"long line", header + "tall\tLines\tScannerCopy\t0\tLines\t100\t10\t10\t1\n", "r.tsv:2: 9 fields, want 8 as in the header (fields are separated by tabs)"},
		{"line counted past comments", header + "# c\n\n" + good + "tall\tLines\tScannerCopy\t0\tLines\tx\t10\t10\n", `r.tsv:5: bytes "x" is not a whole number`},
		{"empty shape", header + "\tLines\tScannerCopy\t0\tLines\t100\t10\t10\n", "r.tsv:2: shape is empty"},
		{"empty contender", header + "tall\tLines\tScannerCopy\t0\t\t100\t10\t10\n", "r.tsv:2: contender is empty"},
		{"zero bytes", header + "tall\tLines\tScannerCopy\t0\tLines\t0\t10\t10\n", "r.tsv:2: bytes 0 is less than 1"},
		{"zero wall", header + "tall\tLines\tScannerCopy\t0\tLines\t100\t0\t10\n", "r.tsv:2: wall_ns 0 is less than 1"},
		{"negative cpu", header + "tall\tLines\tScannerCopy\t0\tLines\t100\t10\t-5\n", "r.tsv:2: cpu_ns -5 is less than 1"},
		{"fraction", header + "tall\tLines\tScannerCopy\t0\tLines\t100\t10.5\t10\n", `r.tsv:2: wall_ns "10.5" is not a whole number`},
		{"overflow", header + "tall\tLines\tScannerCopy\t0\tLines\t100\t99999999999999999999\t10\n", `r.tsv:2: wall_ns "99999999999999999999" is not a whole number`},
		{"not a results file", strings.Repeat("x", maxLine+1), "r.tsv: a line longer than 65536 bytes: not a results file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readRuns("r.tsv", strings.NewReader(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1}, 3},
		{[]float64{9, 1, 5}, 5},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{100, 1, 2, 2, 3}, 2},
	} {
		if got := median(slices.Clone(tc.in)); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// refMedian is the median by ranks, without sorting: the value with as many below it
// as above, or the mean of the two values that straddle the middle.
func refMedian(xs []float64) float64 {
	n := len(xs)
	kth := func(k int) float64 { // the k-th smallest, from 0
		for _, x := range xs {
			below, equal := 0, 0
			for _, y := range xs {
				if y < x {
					below++
				} else if y == x {
					equal++
				}
			}
			if below <= k && k < below+equal {
				return x
			}
		}
		panic("no k-th value")
	}
	if n%2 == 1 {
		return kth(n / 2)
	}
	return (kth(n/2-1) + kth(n/2)) / 2
}

// Each cell is the median over every run of its contender on its shape, whatever row
// of the suite the run belonged to, by wall and by CPU time.
func TestSummarizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	shapes := []string{"tall", "wide", "real"}
	names := []string{"Lines", "Views", "ScannerCopy"}
	for iter := range 200 {
		var runs []timing
		for range 1 + rng.IntN(40) {
			runs = append(runs, timing{
				shape:     shapes[rng.IntN(len(shapes))],
				contender: names[rng.IntN(len(names))],
				bytes:     1 + rng.Int64N(1<<26),
				wall:      float64(1+rng.IntN(1e6)) / 1e9,
				cpu:       float64(1+rng.IntN(1e6)) / 1e9,
			})
		}
		tp, _, err := summarize(runs, names, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range shapes {
			for _, c := range names {
				var wall, cpu []float64
				for _, r := range runs {
					if r.shape == s && r.contender == c {
						wall = append(wall, float64(r.bytes)/1e6/r.wall)
						cpu = append(cpu, float64(r.bytes)/1e6/r.cpu)
					}
				}
				got, ok := tp.cells[[2]string{s, c}]
				if len(wall) == 0 {
					if ok {
						t.Fatalf("iteration %d: %s on %s has a cell but no runs", iter, c, s)
					}
					continue
				}
				n++
				want := cell{wall: refMedian(wall), cpu: refMedian(cpu), runs: len(wall)}
				if !ok || !near(got.wall, want.wall) || !near(got.cpu, want.cpu) || got.runs != want.runs {
					t.Fatalf("iteration %d: %s on %s: got %+v, want %+v", iter, c, s, got, want)
				}
			}
		}
		if n != len(tp.cells) {
			t.Fatalf("iteration %d: %d cells, want %d", iter, len(tp.cells), n)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) }

// A slow spell moves the mean, not the median.
func TestSummarizeHandComputed(t *testing.T) {
	runs := []timing{
		{shape: "tall", contender: "Lines", bytes: 100e6, wall: 1, cpu: 0.5},
		{shape: "tall", contender: "Lines", bytes: 100e6, wall: 2, cpu: 1},
		{shape: "tall", contender: "Lines", bytes: 100e6, wall: 40, cpu: 1},
		{shape: "tall", contender: "Views", bytes: 100e6, wall: 1, cpu: 1},
		{shape: "tall", contender: "Views", bytes: 100e6, wall: 4, cpu: 4},
	}
	tp, notes, err := summarize(runs, []string{"Lines", "Views"}, nil)
	if err != nil || notes != nil {
		t.Fatal(err, notes)
	}
	if got, want := tp.cells[[2]string{"tall", "Lines"}], (cell{wall: 50, cpu: 100, runs: 3}); got != want {
		t.Errorf("Lines: got %+v, want %+v", got, want)
	}
	if got, want := tp.cells[[2]string{"tall", "Views"}], (cell{wall: 62.5, cpu: 62.5, runs: 2}); got != want {
		t.Errorf("Views: got %+v, want %+v", got, want)
	}
}

// The bars of the default chart of the sample: every chosen contender where it ran,
// the shapes in the suite's order, ScannerCopy's runs of every row on its shape pooled.
func TestSummarizeSampleBars(t *testing.T) {
	runs, err := readRuns("sample", strings.NewReader(sampleSuite(1, 7)))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(sampleRows)*7*2 {
		t.Fatalf("%d runs, want %d", len(runs), len(sampleRows)*7*2)
	}
	tp, notes, err := summarize(runs, defaultContenders, nil)
	if err != nil || notes != nil {
		t.Fatal(err, notes)
	}
	if want := []string{"tall", "wide", "verywide", "mixed", "real"}; !slices.Equal(tp.shapes, want) {
		t.Errorf("shapes %v, want %v", tp.shapes, want)
	}
	if !slices.Equal(tp.contenders, defaultContenders) {
		t.Errorf("contenders %v, want %v", tp.contenders, defaultContenders)
	}
	want := map[string]string{
		"tall":     "Lines Views Batches ScannerCopy ScannerBytes Naive",
		"wide":     "Lines Views Batches ScannerCopy ScannerBytes",
		"verywide": "Lines Views ScannerCopy ScannerBytes ReadBytes",
		"mixed":    "Lines Views Batches ScannerCopy ScannerBytes",
		"real":     "Lines Views Batches ScannerCopy ScannerBytes",
	}
	for s, w := range want {
		if got := strings.Join(tp.present(s), " "); got != w {
			t.Errorf("%s: bars %s, want %s", s, got, w)
		}
	}
	if got := tp.cells[[2]string{"tall", "ScannerCopy"}].runs; got != 3*7 {
		t.Errorf("tall ScannerCopy: %d runs, want 21 (three rows of 7 pairs)", got)
	}
	if got := tp.cells[[2]string{"tall", "Lines"}].runs; got != 2*7 {
		t.Errorf("tall Lines: %d runs, want 14 (two rows of 7 pairs)", got)
	}
	// The made-up throughputs are drawn around known values: each median lands near its own.
	if got := tp.cells[[2]string{"wide", "Views"}].wall; math.Abs(got-7350)/7350 > 0.1 {
		t.Errorf("wide Views: %.0f MB/s, want about 7350", got)
	}
}

func TestSummarizeChoices(t *testing.T) {
	runs, err := readRuns("sample", strings.NewReader(sampleSuite(2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	runs = append(runs, timing{shape: "zeta", contender: "Lines", bytes: 1, wall: 1, cpu: 1},
		timing{shape: "alpha", contender: "Lines", bytes: 1, wall: 1, cpu: 1})

	tp, notes, err := summarize(runs, []string{"Naive", "Bogus", "Lines"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"tall", "wide", "verywide", "mixed", "real", "zeta", "alpha"}; !slices.Equal(tp.shapes, want) {
		t.Errorf("shapes %v, want %v (known ones first, then as they come)", tp.shapes, want)
	}
	if want := []string{"Naive", "Lines"}; !slices.Equal(tp.contenders, want) {
		t.Errorf("contenders %v, want %v", tp.contenders, want)
	}
	if want := []string{"contender Bogus: no runs on the shapes charted; left out"}; !slices.Equal(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}

	tp, notes, err = summarize(runs, []string{"ReadBytes", "Naive"}, []string{"real", "verywide", "tall", "square"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"verywide", "tall"}; !slices.Equal(tp.shapes, want) {
		t.Errorf("shapes %v, want %v (the order asked, those with bars)", tp.shapes, want)
	}
	wantNotes := []string{
		"shape real: no runs of the contenders charted; left out",
		"shape square: no runs of the contenders charted; left out",
	}
	if !slices.Equal(notes, wantNotes) {
		t.Errorf("notes %q, want %q", notes, wantNotes)
	}

	_, _, err = summarize(runs, []string{"Bogus"}, []string{"tall"})
	if want := "no runs of Bogus on tall (the file has the shapes tall, wide, verywide, mixed, real, zeta, alpha)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// The bars of a group are side by side without overlapping, as wide as one another,
// and centred on their shape; a contender's bars follow the legend's order.
func TestThroughputBars(t *testing.T) {
	runs, err := readRuns("sample", strings.NewReader(sampleSuite(1, 3)))
	if err != nil {
		t.Fatal(err)
	}
	tp, _, err := summarize(runs, []string{"Naive", "Lines", "ScannerCopy", "Views", "ReadBytes"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tp.contenders = byFamily(tp.contenders)
	if want := []string{"Lines", "Views", "ScannerCopy", "ReadBytes", "Naive"}; !slices.Equal(tp.contenders, want) {
		t.Fatalf("order %v, want %v", tp.contenders, want)
	}
	byShape := map[int][]bar{}
	var width float64
	for _, c := range tp.contenders {
		bs := tp.bars(c, false)
		if len(bs) != countShapes(tp, c) {
			t.Errorf("%s: %d bars, want one per shape it ran on", c, len(bs))
		}
		for _, b := range bs {
			i := int(math.Round((b.lo + b.hi) / 2))
			byShape[i] = append(byShape[i], b)
			if width == 0 {
				width = b.hi - b.lo
			}
			if !near(b.hi-b.lo, width) {
				t.Errorf("%s: a bar %v wide, want %v", c, b.hi-b.lo, width)
			}
			if b.value <= 0 {
				t.Errorf("%s: bar of value %v", c, b.value)
			}
		}
	}
	for i, bs := range byShape {
		slices.SortFunc(bs, func(a, b bar) int { return int(math.Copysign(1, a.lo-b.lo)) })
		for j := 1; j < len(bs); j++ {
			if bs[j].lo < bs[j-1].hi {
				t.Errorf("shape %d: bars %v and %v overlap", i, bs[j-1], bs[j])
			}
		}
		mid := (bs[0].lo + bs[len(bs)-1].hi) / 2
		if math.Abs(mid-float64(i)) > width {
			t.Errorf("shape %d: group centred on %v", i, mid)
		}
		if bs[0].lo < float64(i)-0.5 || bs[len(bs)-1].hi > float64(i)+0.5 {
			t.Errorf("shape %d: group %v–%v leaves its place", i, bs[0].lo, bs[len(bs)-1].hi)
		}
	}
}

func countShapes(tp throughput, c string) int {
	n := 0
	for _, s := range tp.shapes {
		if _, ok := tp.cells[[2]string{s, c}]; ok {
			n++
		}
	}
	return n
}
