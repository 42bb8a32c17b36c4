package blockz_test

import (
	"os"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
)

// BenchmarkScan scans the file BLOCKZ_BENCH_FILE.
func BenchmarkScan(b *testing.B) {
	name := os.Getenv("BLOCKZ_BENCH_FILE")
	if name == "" {
		b.Skip("BLOCKZ_BENCH_FILE is not set")
	}
	f, err := os.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	for b.Loop() {
		if _, err := blockz.Scan(f, st.Size()); err != nil {
			b.Fatal(err)
		}
	}
}
