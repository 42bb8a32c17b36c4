package linereader

import (
	"io"
	"os"
	"testing"
)

// BenchmarkFromEnd reads the file named by FOREACH_BENCH_FILE (skipped without it) with
// forward and backward Views, for profiles of the two loops side by side
// (benchmarks/cmd/fromend times them).
func BenchmarkFromEnd(b *testing.B) {
	name := os.Getenv("FOREACH_BENCH_FILE")
	if name == "" {
		b.Skip("FOREACH_BENCH_FILE names the file to read")
	}
	f, err := os.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	size := fi.Size()
	for _, dir := range []string{"forward", "backward"} {
		b.Run(dir, func(b *testing.B) {
			b.SetBytes(size)
			for range b.N {
				var r *Reader
				if dir == "forward" {
					r = New(io.NewSectionReader(f, 0, size), Options{})
				} else {
					r = NewBackward(f, size, Options{})
				}
				n := 0
				for rec := range r.Views() {
					n += len(rec)
				}
				if int64(n) != size || r.Err() != nil {
					b.Fatal(n, r.Err())
				}
			}
		})
	}
}
