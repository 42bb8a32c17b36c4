// Command pgzipbench measures internal/pgzip, the speculative parallel
// decoder of plain gzip files, against the sequential decode
// (decompress.NewReader, internal/inflate in one goroutine), side by side in
// one process. Each contender reads the .gz file (from the page cache) into
// a 256 KiB buffer, as a reader of records does; first every contender's
// output is checked against the file's text (length and CRC-32). Then each
// round times every contender once, the order rotated from round to round;
// the report gives each one's median wall and CPU time (user + system of
// the process, all its threads), the median over the rounds of the
// sequential time over its own (the speed-up), and what the parallel
// decoder did (its Stats: chunks, guesses, false starts, the share of the
// text decoded with markers, the consumer's time).
//
//	go run ./benchmarks/cmd/pgzipbench [-rounds 7] [-workers 2,3] [-chunk 4MiB] [-processes] FILE.gz...
//
// With -processes, a second table times each contender as a process of its
// own reading the file once (this command run again with -once), as a
// command run on a file does: its memory is new, and the page faults of
// touching it are in its CPU time, where the first table's later rounds
// reuse the memory of earlier ones.
//
// Each FILE.gz needs FILE beside it, its text (benchmarks/cmd/inflatebench
// -make DIR writes the corpora). benchmarks/pgzip.sh runs it and writes
// benchmarks/results/pgzip.md.
package main

import (
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/cputime"
	"github.com/foreachio/foreach/internal/pgzip"
)

// contender is one way of reading the file; workers 0 is the sequential
// decode.
type contender struct {
	name    string
	workers int
}

// run is one timed read.
type run struct {
	wall, cpu time.Duration
	faults    int64 // minor page faults, of a process
	stats     pgzip.Stats
}

func main() {
	rounds := flag.Int("rounds", 7, "rounds, each timing every contender once")
	workers := flag.String("workers", "2", "the parallel decoder's worker counts, separated by commas")
	chunk := flag.String("chunk", "", "the chunk size (bytes, or with KiB or MiB); default the package's")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the timed rounds to this file")
	processes := flag.Bool("processes", false, "also time each contender as a process of its own")
	once := flag.Int("once", -1, "read the file once with this many workers (0: sequentially) and exit: -processes runs it")
	flag.Parse()
	chunkSize, err := parseSize(*chunk)
	if err != nil {
		fail(err)
	}
	if *once >= 0 {
		if _, _, _, err := read(flag.Arg(0), contender{workers: *once}, chunkSize, false); err != nil {
			fail(err)
		}
		return
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fail(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	cs := []contender{{"sequential", 0}}
	for _, w := range strings.Split(*workers, ",") {
		n, err := strconv.Atoi(w)
		if err != nil || n < 2 {
			fail(fmt.Errorf("bad worker count %q", w))
		}
		cs = append(cs, contender{fmt.Sprintf("pgzip, %d workers", n), n})
	}
	for _, name := range flag.Args() {
		if err := measure(name, cs, chunkSize, *rounds); err != nil {
			pprof.StopCPUProfile()
			fail(err)
		}
		if *processes {
			if err := measureProcesses(name, cs, *chunk, *rounds); err != nil {
				fail(err)
			}
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pgzipbench:", err)
	os.Exit(1)
}

func parseSize(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mult, nil
}

// read reads the file with c into a 256 KiB buffer, returning the bytes,
// their CRC-32 when sum is set, and the parallel decoder's stats.
func read(name string, c contender, chunk int64, sum bool) (int64, uint32, pgzip.Stats, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, 0, pgzip.Stats{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, pgzip.Stats{}, err
	}
	var r io.Reader
	var p *pgzip.Reader
	if c.workers == 0 {
		d := decompress.NewReader(f)
		defer d.Close()
		r = d
	} else {
		p = pgzip.NewReader(f, fi.Size(), pgzip.Options{Workers: c.workers, ChunkSize: chunk})
		defer p.Close()
		r = p
	}
	buf := make([]byte, 256<<10)
	var n int64
	var crc uint32
	for {
		k, err := r.Read(buf)
		n += int64(k)
		if sum {
			crc = crc32.Update(crc, crc32.IEEETable, buf[:k])
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, crc, pgzip.Stats{}, err
		}
	}
	var st pgzip.Stats
	if p != nil {
		st = p.Stats()
	}
	return n, crc, st, nil
}

func measure(name string, cs []contender, chunk int64, rounds int) error {
	text, err := os.ReadFile(strings.TrimSuffix(name, ".gz"))
	if err != nil {
		return err
	}
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	want := crc32.ChecksumIEEE(text)
	for _, c := range cs {
		n, crc, _, err := read(name, c, chunk, true)
		if err != nil || n != int64(len(text)) || crc != want {
			return fmt.Errorf("%s on %s: %d bytes, CRC %08x, %v; want %d bytes, CRC %08x", c.name, name, n, crc, err, len(text), want)
		}
	}
	runs := make([][]run, len(cs))
	for round := range rounds {
		for k := range cs {
			i := (k + round) % len(cs)
			cpu0, _ := cputime.Now()
			t0 := time.Now()
			_, _, st, err := read(name, cs[i], chunk, false)
			wall := time.Since(t0)
			cpu1, _ := cputime.Now()
			if err != nil {
				return err
			}
			runs[i] = append(runs[i], run{wall: wall, cpu: cpu1 - cpu0, stats: st})
		}
	}
	report(name, int64(len(text)), fi.Size(), chunk, cs, runs)
	return nil
}

// measureProcesses times each contender as a process of its own, rounds
// times in a rotated order, and prints the medians.
func measureProcesses(name string, cs []contender, chunk string, rounds int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	runs := make([][]run, len(cs))
	for round := range rounds {
		for k := range cs {
			i := (k + round) % len(cs)
			args := []string{"-once", strconv.Itoa(cs[i].workers)}
			if chunk != "" {
				args = append(args, "-chunk", chunk)
			}
			cmd := exec.Command(self, append(args, name)...)
			cmd.Stderr = os.Stderr
			t0 := time.Now()
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s as a process: %v", cs[i].name, err)
			}
			wall := time.Since(t0)
			cpu, faults := usage(cmd.ProcessState)
			runs[i] = append(runs[i], run{wall: wall, cpu: cpu, faults: faults})
		}
	}
	fmt.Printf("\nAs processes of their own (%d rounds):\n\n", rounds)
	fmt.Println("| contender | wall (ms) | CPU (ms) | page faults | speed-up (wall) | CPU / sequential's |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for i, c := range cs {
		var wall, cpu, faults, up, cpuRatio []float64
		for j, r := range runs[i] {
			wall = append(wall, r.wall.Seconds()*1e3)
			cpu = append(cpu, r.cpu.Seconds()*1e3)
			faults = append(faults, float64(r.faults))
			up = append(up, runs[0][j].wall.Seconds()/r.wall.Seconds())
			cpuRatio = append(cpuRatio, r.cpu.Seconds()/runs[0][j].cpu.Seconds())
		}
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %.2f | %.2f |\n", c.name, median(wall), median(cpu), median(faults), median(up), median(cpuRatio))
	}
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func report(name string, size, gzSize, chunk int64, cs []contender, runs [][]run) {
	if chunk == 0 {
		chunk = pgzip.DefaultChunkSize
	}
	fmt.Printf("\n%s: %.1f MiB of text, %.1f MiB compressed, chunks of %d KiB, %d rounds\n\n", name[strings.LastIndex(name, "/")+1:],
		float64(size)/(1<<20), float64(gzSize)/(1<<20), chunk>>10, len(runs[0]))
	fmt.Println("| contender | wall (ms) | CPU (ms) | MB/s (wall) | MB/s (CPU) | speed-up (wall) | CPU / sequential's |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for i, c := range cs {
		var wall, cpu, up, cpuRatio []float64
		for j, r := range runs[i] {
			wall = append(wall, r.wall.Seconds()*1e3)
			cpu = append(cpu, r.cpu.Seconds()*1e3)
			up = append(up, runs[0][j].wall.Seconds()/r.wall.Seconds())
			cpuRatio = append(cpuRatio, r.cpu.Seconds()/runs[0][j].cpu.Seconds())
		}
		w, u := median(wall), median(cpu)
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |\n", c.name, w, u, float64(size)/w/1e3, float64(size)/u/1e3, median(up), median(cpuRatio))
	}
	for i, c := range cs {
		if c.workers == 0 {
			continue
		}
		st := runs[i][len(runs[i])/2].stats
		falseStarts := 0.0
		if st.Guesses > 0 {
			falseStarts = float64(st.FalseStarts) / float64(st.Guesses)
		}
		fmt.Printf("\n%s (the middle round): %d chunks, %d used, %d missed; %d guesses, %d false starts (%.1f%%);\n",
			c.name, st.Chunks, st.Held, st.Missed, st.Guesses, st.FalseStarts, 100*falseStarts)
		fmt.Printf("text decoded with markers (up to the last marker of each chunk) %.1f%%, decoded by the consumer %.1f%%;\n",
			100*float64(st.Resolved)/float64(size), 100*float64(st.Sequential)/float64(size))
		fmt.Printf("workers: guessing %v, decoding %v; consumer: resolving %v, decoding %v, waiting %v\n",
			st.GuessTime.Round(time.Millisecond), st.DecodeTime.Round(time.Millisecond),
			st.Resolving.Round(time.Millisecond), st.Streaming.Round(time.Millisecond), st.Waiting.Round(time.Millisecond))
	}
}
