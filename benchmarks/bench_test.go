package benchmarks

import (
	"os"
	"sort"
	"testing"

	"github.com/foreachio/foreach/internal/measure/contend"
)

// BenchmarkContenders runs each contender on each shape under go test, for profiling one
// loop at a time (go test -bench 'Contenders/tall/Lines$' -cpuprofile cpu.out). The
// figures the project publishes come from the suite (cmd/suite), which alternates the
// loops it compares; these do not.
func BenchmarkContenders(b *testing.B) {
	dir := b.TempDir()
	size := int64(16 << 20)
	if testing.Short() {
		size = 1 << 20
	}
	names := make([]string, 0, len(contend.Contenders))
	for name := range contend.Contenders {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, shape := range contend.Shapes {
		f, err := contend.MakeFile(dir, shape, size)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(shape, func(b *testing.B) {
			for _, name := range names {
				b.Run(name, func(b *testing.B) {
					b.SetBytes(f.Size)
					for b.Loop() {
						if _, err := Time(contend.Contenders[name], f); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
		os.Remove(f.Path)
	}
}
