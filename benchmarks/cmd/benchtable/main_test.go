package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A raw file with two contenders on one shape: the table gives medians and the ratios to
// ScannerCopy computed from them, by wall and by CPU, and the goal that compares them with
// the spread of the per-round ratios.
func TestTableRatios(t *testing.T) {
	raw := `go: go1.26.8
commit: abc1234
cores: 2
size: 64MiB
count: 3
benchtime: 5x
goos: linux
goarch: amd64
pkg: github.com/foreachio/foreach/benchmarks
cpu: Test CPU
`
	// 1000 ns/op at 100 MB/s is 100 bytes per op: with 2000 CPU-ns/op, 50 MB per
	// CPU-second. Lines reads the same 100 bytes, so its ns/op follows its MB/s.
	raw += "load: 0.50\n"
	for _, s := range [][2]string{{"1000", "100.00"}, {"909", "110.00"}, {"1111", "90.00"}} {
		raw += "BenchmarkRead/shape=tall/impl=ScannerCopy-2 \t5\t" + s[0] + " ns/op\t" + s[1] + " MB/s\t1.000 allocs/record\t2000 cpu-ns/op\n"
	}
	raw += "load: 3.25\n"
	for _, s := range [][2]string{{"667", "150.00"}, {"625", "160.00"}, {"714", "140.00"}} {
		raw += "BenchmarkRead/shape=tall/impl=Lines-2 \t5\t" + s[0] + " ns/op\t" + s[1] + " MB/s\t1.000 allocs/record\t2500 cpu-ns/op\t0 growths/op\n"
	}
	name := filepath.Join(t.TempDir(), "raw.txt")
	if err := os.WriteFile(name, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(&out, name, "1m0s"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"Test CPU", "commit abc1234 (built from `git archive`", "load average 0.50–3.25 as the rounds started",
		// wall 150 MB/s, CPU 100 B / 2.5 µs = 40 MB/s; ratios 1.50× and 0.80×.
		"| tall | Lines | 150 | ", " | 40.0 | ", " | 1.50× | 0.80× |",
		"| tall | ScannerCopy | 100 | ", " | 50.0 | ", " | 1.00× | 1.00× |",
		// Per-round wall ratios are 1.50, 1.45 and 1.56; CPU ratios all 0.80.
		"| tall Lines / Scanner+copy | 1.50× [1.45–1.56] | 0.80× [0.80–0.80] | ≥ 1.10× by CPU | no |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}
