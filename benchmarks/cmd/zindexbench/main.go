// Command zindexbench measures package zindex on a .gz file of text (its
// text beside it, FILE without .gz), side by side in one process: a plain
// sequential decode (internal/decompress, what foreach -z reads with)
// against Build; reads through the index (sequential ReadAts of 1 MiB, and
// random ones of 64 KiB); linereader.CountAt over the index with 1 and 2
// workers against `igzip -dc FILE | wc -l` (a pipeline, timed as a process);
// the last 10 lines through a saved index (Load, then NewTail) against the
// last 10 lines of a 1 MiB .gz read sequentially. Every contender's result
// is checked first (bytes and CRC, line counts, the last lines). Each round
// times every contender once, in an order rotated every round; the report
// gives medians of wall and CPU time (user + system of the process, or of
// the pipeline's processes) and the medians of the per-round ratios named
// in the goals. Run by benchmarks/zindex.sh.
//
//	go run ./benchmarks/cmd/zindexbench [-rounds 7] FILE.gz
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/cputime"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/zindex"
)

// bench is what the contenders share: the file, its text, its index.
type bench struct {
	name, small string // the .gz, and a 1 MiB .gz of the same text's start
	text        []byte
	lines       int64
	// last and smallLast are the last 10 lines of the text and of the
	// small file's.
	last, smallLast []string
	ix              *zindex.Index
	f               *os.File
	dir             string
}

// contender is one timed thing; run returns an error when its result is
// not the one expected. A contender that runs a process sets process to its
// times.
type contender struct {
	name    string
	run     func(b *bench) error
	process *result
}

// result is one timed run.
type result struct{ wall, cpu time.Duration }

func main() {
	rounds := flag.Int("rounds", 7, "rounds, each timing every contender once")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: zindexbench [-rounds N] FILE.gz")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "zindexbench:", err)
		os.Exit(1)
	}
}

func run(name string, rounds int) error {
	b, err := setUp(name)
	if err != nil {
		return err
	}
	defer os.RemoveAll(b.dir)
	cs := contenders()
	for _, c := range cs { // checks, and warms the page cache
		if err := c.run(b); err != nil {
			return fmt.Errorf("%s: %v", c.name, err)
		}
	}
	runs := make([][]result, len(cs))
	for round := range rounds {
		for k := range cs {
			i := (k + round) % len(cs)
			r, err := timed(cs[i], b)
			if err != nil {
				return err
			}
			runs[i] = append(runs[i], r)
		}
	}
	report(b, cs, runs)
	return nil
}

// setUp reads the text, builds and saves the index, and makes the 1 MiB .gz.
func setUp(name string) (*bench, error) {
	text, err := os.ReadFile(strings.TrimSuffix(name, ".gz"))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "zindexbench")
	if err != nil {
		return nil, err
	}
	b := &bench{name: filepath.Join(dir, filepath.Base(name)), text: text, dir: dir}
	b.lines = int64(bytes.Count(text, []byte{'\n'}))
	if len(text) > 0 && text[len(text)-1] != '\n' {
		b.lines++
	}
	if err := os.Symlink(mustAbs(name), b.name); err != nil {
		return nil, err
	}
	if b.f, err = os.Open(b.name); err != nil {
		return nil, err
	}
	if b.ix, err = zindex.Build(bufio.NewReaderSize(b.f, 1<<20), 0); err != nil {
		return nil, err
	}
	if err := b.ix.Save(b.name); err != nil {
		return nil, err
	}
	b.small = filepath.Join(dir, "small.txt.gz")
	end := bytes.IndexByte(text[1<<20:], '\n') + 1<<20 + 1
	cmd := exec.Command("sh", "-c", `gzip -6 -n -c > "$1"`, "sh", b.small)
	cmd.Stdin = bytes.NewReader(text[:end])
	b.last, b.smallLast = lastLines(text, 10), lastLines(text[:end], 10)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("gzip: %v: %s", err, out)
	}
	return b, nil
}

func mustAbs(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		panic(err)
	}
	return abs
}

func timed(c contender, b *bench) (result, error) {
	cpu0, _ := cputime.Now()
	t0 := time.Now()
	err := c.run(b)
	wall := time.Since(t0)
	cpu1, _ := cputime.Now()
	if c.process != nil {
		return *c.process, err
	}
	return result{wall: wall, cpu: cpu1 - cpu0}, err
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// crcOf reads r to its end, returning its length and CRC-32.
func crcOf(r io.Reader) (int64, uint32, error) {
	buf := make([]byte, 1<<20)
	var n int64
	var crc uint32
	for {
		k, err := r.Read(buf)
		n += int64(k)
		crc = crc32.Update(crc, crc32.IEEETable, buf[:k])
		if err == io.EOF {
			return n, crc, nil
		}
		if err != nil {
			return n, crc, err
		}
	}
}

func contenders() []contender {
	pipe := &contender{name: "`igzip -dc | wc -l` (processes)", process: new(result)}
	pipe.run = func(b *bench) error {
		cmd := exec.Command("sh", "-c", `igzip -dc "$1" | wc -l`, "sh", b.name)
		t0 := time.Now()
		out, err := cmd.Output()
		pipe.process.wall = time.Since(t0)
		if err != nil {
			return err
		}
		pipe.process.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return checkCount(strings.TrimSpace(string(out)), b.lines)
	}
	return []contender{
		{name: "sequential decode (internal/decompress)", run: decode},
		{name: "Build", run: build},
		{name: "ReadAt, 1 MiB reads in order", run: readSequential},
		{name: "ReadAt, 200 random reads of 64 KiB", run: readRandom},
		{name: "CountAt over the index, 1 worker", run: func(b *bench) error { return count(b, 1) }},
		{name: "CountAt over the index, 2 workers", run: func(b *bench) error { return count(b, 2) }},
		*pipe,
		{name: "2 sections cut at access points, counted on 2 goroutines", run: countAligned},
		{name: "last 10 lines: Load, NewTail over the index", run: tailIndexed},
		{name: "last 10 lines of a 1 MiB .gz, read in order", run: tailSmall},
	}
}

func checkCount(got string, want int64) error {
	if got != strconv.FormatInt(want, 10) {
		return fmt.Errorf("%s lines, want %d", got, want)
	}
	return nil
}

func decode(b *bench) error {
	r := decompress.NewReader(io.NewSectionReader(b.f, 0, b.ix.CompressedSize()))
	defer r.Close()
	n, crc, err := crcOf(r)
	if err != nil || n != int64(len(b.text)) || crc != crc32.ChecksumIEEE(b.text) {
		return fmt.Errorf("%d bytes, %v: not the text", n, err)
	}
	return nil
}

func build(b *bench) error {
	ix, err := zindex.Build(io.NewSectionReader(b.f, 0, b.ix.CompressedSize()), 0)
	if err != nil || ix.Size() != int64(len(b.text)) || ix.Points() != b.ix.Points() {
		return fmt.Errorf("Build: %v", err)
	}
	return nil
}

func readSequential(b *bench) error {
	ra := b.ix.ReaderAt(b.f)
	n, crc, err := crcOf(io.NewSectionReader(ra, 0, b.ix.Size()))
	if err != nil || n != int64(len(b.text)) || crc != crc32.ChecksumIEEE(b.text) {
		return fmt.Errorf("%d bytes, %v: not the text", n, err)
	}
	return nil
}

func readRandom(b *bench) error {
	ra := b.ix.ReaderAt(b.f)
	rng := rand.New(rand.NewPCG(1, 2))
	p := make([]byte, 64<<10)
	for range 200 {
		off := rng.Int64N(int64(len(b.text) - len(p)))
		if _, err := ra.ReadAt(p, off); err != nil || !bytes.Equal(p, b.text[off:off+int64(len(p))]) {
			return fmt.Errorf("ReadAt at %d: %v", off, err)
		}
	}
	return nil
}

// countAligned counts the newlines of the text through the index in two
// halves cut at the access point nearest the middle, on two goroutines, as
// an integration that cuts its sections at access points would.
func countAligned(b *bench) error {
	offs := b.ix.Offsets()
	mid := offs[0]
	for _, o := range offs {
		if abs(o-b.ix.Size()/2) < abs(mid-b.ix.Size()/2) {
			mid = o
		}
	}
	ra := b.ix.ReaderAt(b.f)
	var counts [2]int64
	var errs [2]error
	var wg sync.WaitGroup
	for i, s := range [][2]int64{{0, mid}, {mid, b.ix.Size()}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 1<<20)
			for off := s[0]; off < s[1]; {
				n, err := ra.ReadAt(buf[:min(int64(len(buf)), s[1]-off)], off)
				counts[i] += int64(bytes.Count(buf[:n], []byte{'\n'}))
				off += int64(n)
				if err != nil && err != io.EOF {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		return fmt.Errorf("%v, %v", errs[0], errs[1])
	}
	return checkCount(strconv.FormatInt(counts[0]+counts[1], 10), b.lines)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func count(b *bench, workers int) error {
	n, err := linereader.CountAt(b.ix.ReaderAt(b.f), b.ix.Size(), linereader.Options{}, workers)
	if err != nil {
		return err
	}
	return checkCount(strconv.FormatInt(n, 10), b.lines)
}

// lastLines returns the last n lines of text (which ends with a newline).
func lastLines(text []byte, n int) []string {
	start := len(text)
	for range n {
		start = bytes.LastIndexByte(text[:max(0, start-1)], '\n') + 1
	}
	lines := strings.SplitAfter(string(text[start:]), "\n")
	return lines[:len(lines)-1] // the empty string after the last newline
}

func tailIndexed(b *bench) error {
	ix, err := zindex.Load(b.name)
	if err != nil {
		return err
	}
	f, err := os.Open(b.name)
	if err != nil {
		return err
	}
	defer f.Close()
	var got []string
	for rec := range linereader.NewTail(ix.ReaderAt(f), ix.Size(), 10, linereader.Options{}).Lines() {
		got = append(got, string(rec))
	}
	if !slices.Equal(got, b.last) {
		return fmt.Errorf("not the last 10 lines")
	}
	return nil
}

func tailSmall(b *bench) error {
	r, err := linereader.Open(b.small, linereader.Options{Decompress: true})
	if err != nil {
		return err
	}
	defer r.Close()
	var ring []string
	for rec := range r.Views() {
		if len(ring) == 10 {
			ring = append(ring[:0], ring[1:]...)
		}
		ring = append(ring, string(rec))
	}
	if err := r.Err(); err != nil {
		return err
	}
	if !slices.Equal(ring, b.smallLast) {
		return fmt.Errorf("not the last 10 lines")
	}
	return nil
}

func report(b *bench, cs []contender, runs [][]result) {
	var idx bytes.Buffer
	b.ix.WriteTo(&idx)
	fmt.Printf("%s: %.1f MiB of text, %.1f MiB compressed; the index: %d access points, %d bytes (%.2f%% of the .gz); %d rounds\n\n",
		filepath.Base(b.name), float64(len(b.text))/(1<<20), float64(b.ix.CompressedSize())/(1<<20),
		b.ix.Points(), idx.Len(), 100*float64(idx.Len())/float64(b.ix.CompressedSize()), len(runs[0]))
	fmt.Println("| contender | wall (ms) | CPU (ms) | MB/s of text (wall) |")
	fmt.Println("|---|---:|---:|---:|")
	for i, c := range cs {
		var wall, cpu []float64
		for _, r := range runs[i] {
			wall = append(wall, r.wall.Seconds()*1000)
			cpu = append(cpu, r.cpu.Seconds()*1000)
		}
		rate := "-"
		if i <= 7 && i != 3 && i != 6 {
			rate = fmt.Sprintf("%.0f", float64(len(b.text))/median(wall)/1000)
		}
		fmt.Printf("| %s | %.1f | %.1f | %s |\n", c.name, median(wall), median(cpu), rate)
	}
	ratio := func(a, z int, cpu bool) string {
		var v []float64
		for j := range runs[a] {
			x, y := runs[a][j].wall, runs[z][j].wall
			if cpu {
				x, y = runs[a][j].cpu, runs[z][j].cpu
			}
			v = append(v, x.Seconds()/y.Seconds())
		}
		return fmt.Sprintf("%.2f", median(v))
	}
	fmt.Println()
	fmt.Println("| goal | measured (wall) | (CPU) |")
	fmt.Println("|---|---:|---:|")
	fmt.Printf("| Build / sequential decode <= 1.1 | %s | %s |\n", ratio(1, 0, false), ratio(1, 0, true))
	fmt.Printf("| CountAt, 2 workers / `igzip -dc \\| wc -l` <= 0.6 | %s | %s |\n", ratio(5, 6, false), ratio(5, 6, true))
	fmt.Printf("| CountAt, 2 workers / 1 worker | %s | %s |\n", ratio(5, 4, false), ratio(5, 4, true))
	fmt.Printf("| 2 sections at access points / `igzip -dc \\| wc -l` | %s | %s |\n", ratio(7, 6, false), ratio(7, 6, true))
	fmt.Printf("| last 10 lines, indexed / of a 1 MiB .gz <= 2 | %s | %s |\n", ratio(8, 9, false), ratio(8, 9, true))
	fmt.Printf("| index size / .gz <= 2%% | %.2f%% | |\n", 100*float64(idx.Len())/float64(b.ix.CompressedSize()))
}
