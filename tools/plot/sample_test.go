package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The samples are made up: numbers of about the sizes the suite and the command's
// scripts measure, with the noise of a shared machine, so that the tests and a first look
// at the pictures need no timing run. They are not measurements.

var writeSamples = flag.Bool("write-samples", false, "write the samples to testdata/ instead of checking them")

// sampleRow is one row of a made-up suite: A against B on a shape, with the throughput
// around which each one's runs are drawn, in MB/s.
type sampleRow struct {
	shape, a, b string
	mbA, mbB    float64
}

var sampleRows = []sampleRow{
	{"tall", "Lines", "ScannerCopy", 1040, 830},
	{"tall", "Lines", "ScannerClone", 1040, 790},
	{"tall", "Batches", "ScannerCopy", 1350, 830},
	{"tall", "Views", "ScannerBytes", 3000, 2780},
	{"tall", "LinesFNV", "ScannerCopyFNV", 610, 560},
	{"tall", "Naive", "ScannerCopy", 770, 830},
	{"wide", "Lines", "ScannerCopy", 2250, 2100},
	{"wide", "Views", "ScannerBytes", 7350, 7800},
	{"wide", "Batches", "ScannerCopy", 2020, 2100},
	{"verywide", "Lines", "ReadBytes", 1750, 1050},
	{"verywide", "Lines", "ScannerCopy", 1750, 1950},
	{"verywide", "Views", "ScannerBytes", 7900, 7400},
	{"mixed", "Lines", "ScannerCopy", 1410, 1430},
	{"mixed", "Views", "ScannerBytes", 5900, 6300},
	{"mixed", "Batches", "ScannerCopy", 1670, 1430},
	{"real", "Lines", "ScannerCopy", 1200, 980},
	{"real", "Views", "ScannerBytes", 4100, 3900},
	{"real", "Batches", "ScannerCopy", 1500, 980},
	{"real", "MinimalLines", "ScannerCopy", 1250, 980},
}

var sampleBytes = map[string]int64{"tall": 67108880, "wide": 67117021, "verywide": 67439104, "mixed": 67109412, "real": 67108962}

// sampleSuite writes a made-up results file as benchmarks/cmd/suite -raw does: pairs
// runs of each row, A first in even pairs, with a slow spell now and then.
func sampleSuite(seed uint64, pairs int) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("shape\ta\tb\tpair\tcontender\tbytes\twall_ns\tcpu_ns\n")
	for _, r := range sampleRows {
		for i := range pairs {
			order := [][2]any{{r.a, r.mbA}, {r.b, r.mbB}}
			if i%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for _, c := range order {
				wall, cpu := sampleTimes(rng, sampleBytes[r.shape], c[1].(float64))
				fmt.Fprintf(&b, "%s\t%s\t%s\t%d\t%s\t%d\t%d\t%d\n", r.shape, r.a, r.b, i, c[0], sampleBytes[r.shape], wall, cpu)
			}
		}
	}
	return b.String()
}

// sampleTimes draws one run's wall and CPU time, in nanoseconds, around mb MB/s.
func sampleTimes(rng *rand.Rand, bytes int64, mb float64) (wall, cpu int64) {
	w := float64(bytes) / (mb * 1e6) * math.Exp(rng.NormFloat64()*0.06)
	if rng.IntN(12) == 0 {
		w *= 1.4 + rng.Float64() // another process took the core
	}
	return int64(w * 1e9), int64(w * 1e9 * (0.88 + 0.1*rng.Float64()))
}

// sampleCLI is a made-up file of the command's timings, with goals and CPU times.
const sampleCLI = `# made-up numbers: a sample of the format, not a measurement
foreach	tool	data	foreach_s	tool_s	goal	foreach_cpu_s	tool_cpu_s
foreach	cat	tall	0.0339	0.0263	1.05	0.0362	0.0264
foreach	cat	real	0.0301	0.0266	1.05	0.0320	0.0268
foreach -n	cat -n	tall	0.1886	0.3101	0.8	0.1948	0.3185
foreach -n	cat -n	real	0.2510	0.2588	0.8	0.2540	0.2610
foreach -c	wc -l	tall	0.0190	0.0361	0.55	0.0327	0.0371
foreach -c	wc -l	real	0.0240	0.0330	0.55	0.0410	0.0335
foreach -z -c	gzip -dc | wc -l	tall.gz	0.327	0.503	-	0.315	0.391
foreach -z -c	zstd -dc | wc -l	tall.zst	0.142	0.137	-	0.144	0.193
`

// TestSamples keeps testdata/sample-*.tsv, the samples the README shows how to draw,
// what the generator makes; -write-samples writes them anew.
func TestSamples(t *testing.T) {
	for name, want := range map[string]string{
		"sample-latest.tsv": sampleSuite(1, 7),
		"sample-cli.tsv":    sampleCLI,
	} {
		path := filepath.Join("testdata", name)
		if *writeSamples {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s differs from what the generator makes: go test -run TestSamples -write-samples", path)
		}
	}
}
