package linereader

// Benchmarks of sections on a large file, which they do not make: set FOREACH_BENCH_FILE
// to its name, for example a file made by
//
//	go run ./testdata/gen --shape tall --size 256MiB -o /tmp/tall.txt
//	FOREACH_BENCH_FILE=/tmp/tall.txt go test -run '^$' -bench 'Count|Section' -benchtime 3x ./linereader
//
// Every benchmark checks its record count against a sequential count before it reports.
// Contenders: Count with 1 and 2 workers; and, for each io.ReaderAt (os.File.ReadAt or
// golang.org/x/exp/mmap's ReaderAt), Count's parallel path (countParallel) and a plain
// Next loop over each worker's NewSection.

import (
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	"golang.org/x/exp/mmap"
)

// benchFile opens FOREACH_BENCH_FILE and returns it, its size and its number of lines.
func benchFile(b *testing.B) (name string, f *os.File, size, lines int64) {
	name = os.Getenv("FOREACH_BENCH_FILE")
	if name == "" {
		b.Skip("FOREACH_BENCH_FILE names no file")
	}
	f, err := os.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	lines, err = countStream(io.NewSectionReader(f, 0, st.Size()), newConfig(Options{}), parallelCount.readSize)
	if err != nil {
		b.Fatal(err)
	}
	return name, f, st.Size(), lines
}

func BenchmarkCount(b *testing.B) {
	name, _, size, lines := benchFile(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				n, err := Count(name, Options{}, workers)
				if err != nil || n != lines {
					b.Fatalf("Count = %d, %v; want %d", n, err, lines)
				}
			}
		})
	}
}

// benchReaderAts returns the contenders: the file itself and a mapping of it.
func benchReaderAts(b *testing.B, name string, f *os.File) map[string]io.ReaderAt {
	m, err := mmap.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { m.Close() })
	return map[string]io.ReaderAt{"readat": f, "mmap": m}
}

func BenchmarkSectionCount(b *testing.B) {
	name, f, size, lines := benchFile(b)
	srcs := benchReaderAts(b, name, f)
	cfg := newConfig(Options{})
	for _, src := range []string{"readat", "mmap"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", src, workers), func(b *testing.B) {
				b.SetBytes(size)
				for b.Loop() {
					n, err := countParallel(srcs[src], size, cfg, workers, parallelCount)
					if err != nil || n != lines {
						b.Fatalf("countParallel = %d, %v; want %d", n, err, lines)
					}
				}
			})
		}
	}
}

func BenchmarkSectionRead(b *testing.B) {
	name, f, size, lines := benchFile(b)
	srcs := benchReaderAts(b, name, f)
	for _, src := range []string{"readat", "mmap"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", src, workers), func(b *testing.B) {
				b.SetBytes(size)
				for b.Loop() {
					if n := readInSections(b, srcs[src], size, workers); n != lines {
						b.Fatalf("%d records, want %d", n, lines)
					}
				}
			})
		}
	}
}

// readInSections reads [0, size) of src in `workers` equal sections at once, each with a
// plain Next loop, and returns the number of records.
func readInSections(b *testing.B, src io.ReaderAt, size int64, workers int) int64 {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int64
	)
	for w := range int64(workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := NewSection(src, w*size/int64(workers), (w+1)*size/int64(workers), Options{})
			var n int64
			for r.Next() {
				n++
			}
			if err := r.Err(); err != nil {
				b.Error(err)
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}
