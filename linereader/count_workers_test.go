package linereader_test

import (
	"bytes"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// goroutinesSeen is a ReaderAt that records the most goroutines running during any of
// its ReadAt calls: more than when the count started means it was read by workers.
type goroutinesSeen struct {
	*bytes.Reader
	most atomic.Int64
}

func (g *goroutinesSeen) ReadAt(p []byte, off int64) (int, error) {
	n := int64(runtime.NumGoroutine())
	for {
		old := g.most.Load()
		if n <= old || g.most.CompareAndSwap(old, n) {
			break
		}
	}
	return g.Reader.ReadAt(p, off)
}

// Regression: workers < 1 meant runtime.NumCPU() for CountAt while it meant GOMAXPROCS
// for the parallel package, so a program limited to one CPU by GOMAXPROCS still started
// workers. Now workers < 1 follows GOMAXPROCS: one means no goroutine, two means some.
func TestCountAtDefaultWorkersFollowGOMAXPROCS(t *testing.T) {
	in := bytes.Repeat([]byte("a line of text\n"), 1<<20) // 15 MiB: past the parallel threshold
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		src := &goroutinesSeen{Reader: bytes.NewReader(in)}
		before := int64(runtime.NumGoroutine())
		n, err := linereader.CountAt(src, int64(len(in)), linereader.Options{}, 0)
		if err != nil || n != 1<<20 {
			t.Fatalf("GOMAXPROCS %d: CountAt = %d, %v; want %d", procs, n, err, 1<<20)
		}
		if parallel := src.most.Load() > before; parallel != (procs > 1) {
			t.Errorf("GOMAXPROCS %d: read by workers is %v (goroutines %d, before %d)", procs, parallel, src.most.Load(), before)
		}
	}
}
