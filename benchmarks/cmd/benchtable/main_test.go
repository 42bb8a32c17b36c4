package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A raw file with two contenders on one shape: the table gives medians and the ratio to
// ScannerCopy computed from them.
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
	for _, mbps := range []string{"100.00", "110.00", "90.00"} {
		raw += "BenchmarkRead/shape=tall/impl=ScannerCopy-2 \t5\t1000 ns/op\t" + mbps + " MB/s\t1.000 allocs/record\n"
	}
	for _, mbps := range []string{"150.00", "160.00", "140.00"} {
		raw += "BenchmarkRead/shape=tall/impl=Lines-2 \t5\t1000 ns/op\t" + mbps + " MB/s\t1.000 allocs/record\t0 growths/op\n"
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
	for _, want := range []string{"Test CPU", "| tall | Lines | 150 |", "1.50×", "| tall | ScannerCopy | 100 |", "1.00×"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}
