package inflate_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/foreachio/foreach/internal/inflate"
	"github.com/foreachio/foreach/internal/measure/cputime"
)

// BenchmarkMember decodes the .gz files in $INFLATE_BENCH_DIR (real.txt.gz,
// tall.txt.gz, mixed.txt.gz, as benchmarks/inflate.sh makes them), for
// profiling:
//
//	INFLATE_BENCH_DIR=/tmp/inflate go test -run '^$' -bench Member -cpuprofile cpu.out ./internal/inflate
//
// The figures to quote come from benchmarks/cmd/inflatebench, which times
// the contenders side by side.
func BenchmarkMember(b *testing.B) {
	dir := os.Getenv("INFLATE_BENCH_DIR")
	if dir == "" {
		b.Skip("INFLATE_BENCH_DIR is not set")
	}
	for _, shape := range []string{"real", "tall", "mixed"} {
		gz, err := os.ReadFile(filepath.Join(dir, shape+".txt.gz"))
		if err != nil {
			b.Skip(err)
		}
		b.Run(shape, func(b *testing.B) {
			buf := make([]byte, 64<<10)
			var m inflate.Member
			src := bufio.NewReaderSize(nil, 64<<10)
			var total int64
			cpu0, _ := cputime.Now()
			for b.Loop() {
				src.Reset(bytes.NewReader(gz))
				if _, err := inflate.ReadHeader(src); err != nil {
					b.Fatal(err)
				}
				m.Reset(src)
				var n int64
				for {
					k, err := m.Read(buf)
					n += int64(k)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(n)
				total += n
			}
			// The throughput in CPU time, which other work on a shared
			// machine moves less than the wall time.
			if cpu, ok := cputime.Now(); ok {
				b.ReportMetric(float64(total)/(cpu-cpu0).Seconds()/1e6, "cpu-MB/s")
			}
		})
	}
}
