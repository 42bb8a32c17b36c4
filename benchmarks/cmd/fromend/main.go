// Command fromend measures reading from the end against reading forward, side by side in
// one process: linereader's NewBackward Views against forward Views (New) over the same
// file, after checking that both see the same records (count and bytes). The two
// alternate in every round, in the other order every other round, so that a busy spell
// of a shared machine falls on both; each one's wall and CPU time (user + system, from
// getrusage) is kept, and the ratio of their throughputs per round. It also measures
// what a backward pass allocates: its buffer, which stays the same whatever the file.
//
//	go run ./benchmarks/cmd/fromend [-rounds 5] FILE...
//
// It prints one markdown table per file. benchmarks/fromend.sh runs it on the tall and
// real corpora and writes benchmarks/results/fromend.md.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/foreachio/foreach/linereader"
)

func main() {
	rounds := flag.Int("rounds", 5, "rounds, each timing forward and backward once")
	flag.Parse()
	for _, name := range flag.Args() {
		if err := measure(name, *rounds); err != nil {
			fmt.Fprintln(os.Stderr, "fromend:", err)
			os.Exit(1)
		}
	}
}

// pass is one read of a file: what it saw and what it cost.
type pass struct {
	records, bytes int64
	wall, cpu      time.Duration
}

// readViews reads every record of f with Views, forward or backward.
func readViews(f *os.File, size int64, backward bool) (pass, error) {
	var r *linereader.Reader
	if backward {
		r = linereader.NewBackward(f, size, linereader.Options{})
	} else {
		r = linereader.New(io.NewSectionReader(f, 0, size), linereader.Options{})
	}
	var p pass
	cpu0 := cpuTime()
	t0 := time.Now()
	for rec := range r.Views() {
		p.records++
		p.bytes += int64(len(rec))
	}
	p.wall, p.cpu = time.Since(t0), cpuTime()-cpu0
	return p, r.Err()
}

// measure times forward and backward Views over the named file and prints the table.
func measure(name string, rounds int) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	fwd, err := readViews(f, size, false) // also brings the file into the page cache
	if err != nil {
		return err
	}
	back, err := readViews(f, size, true)
	if err != nil {
		return err
	}
	if fwd.records != back.records || fwd.bytes != back.bytes || fwd.bytes != size {
		return fmt.Errorf("%s: forward saw %d records, %d bytes; backward %d, %d; the file has %d",
			name, fwd.records, fwd.bytes, back.records, back.bytes, size)
	}
	var fw, bw, fc, bc []time.Duration
	var ratios []float64
	for i := range rounds {
		order := []bool{false, true}
		if i%2 == 1 {
			order = []bool{true, false}
		}
		var got [2]pass
		for _, backward := range order {
			p, err := readViews(f, size, backward)
			if err != nil {
				return err
			}
			got[b2i(backward)] = p
		}
		fw, fc = append(fw, got[0].wall), append(fc, got[0].cpu)
		bw, bc = append(bw, got[1].wall), append(bc, got[1].cpu)
		ratios = append(ratios, got[0].wall.Seconds()/got[1].wall.Seconds()) // backward's throughput / forward's
	}
	alloc, held := backwardMemory(f, size)
	mb := float64(size) / 1e6
	fmt.Printf("\n%s: %d bytes, %d records\n\n", name, size, fwd.records)
	fmt.Println("| reader | median wall | MB/s | median CPU |")
	fmt.Println("|---|---:|---:|---:|")
	fmt.Printf("| forward Views (New) | %v | %.0f | %v |\n", median(fw), mb/median(fw).Seconds(), median(fc))
	fmt.Printf("| backward Views (NewBackward) | %v | %.0f | %v |\n", median(bw), mb/median(bw).Seconds(), median(bc))
	slices.Sort(ratios)
	fmt.Printf("\nbackward/forward throughput, per round: median %.2f (least %.2f, greatest %.2f) over %d rounds\n",
		ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1], rounds)
	fmt.Printf("backward pass: %d bytes allocated in all, %d bytes of heap in use at its end over the reader's\n", alloc, held)
	return nil
}

// backwardMemory returns the bytes a backward pass allocates (runtime.MemStats'
// TotalAlloc) and the heap it holds while its last record is current, over what was in
// use before it.
func backwardMemory(f *os.File, size int64) (alloc, held int64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := linereader.NewBackward(f, size, linereader.Options{})
	for range r.Views() {
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(r)
	return int64(after.TotalAlloc - before.TotalAlloc), int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
