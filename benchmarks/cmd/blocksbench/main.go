// Command blocksbench counts the lines of compressed files decoded by
// internal/blockz's parallel Reader and by internal/decompress's sequential
// one, side by side in one process: the contenders alternate in every round
// (in the other order every other round, so that a busy spell of a shared
// machine falls on all of them), after one untimed pass of each that checks
// that they count the same lines and bytes. It prints one markdown table per
// file: the median wall and CPU time (user + system, from getrusage) of
// each contender and the median of its per-round ratios to the first.
//
//	go run ./benchmarks/cmd/blocksbench [-rounds 5] [-workers seq,1,2] FILE...
//
// With -once it runs each contender once and prints "lines bytes wall_ms
// cpu_ms" for each, for a script that times whole processes
// (benchmarks/blocks.sh). With -pieces it measures what the parallel
// decoding is made of, for the estimates of more cores: the scan of the
// file's structure, each piece decoded alone in one goroutine (one line
// per piece: its compressed and decompressed bytes and milliseconds), and
// what the reading goroutine does with every byte (copying it out and
// counting its lines). With -make DIR it writes DIR/real.txt, the 128 MiB
// of Go sources the script compresses.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/contend"
)

func main() {
	rounds := flag.Int("rounds", 5, "timed rounds")
	workers := flag.String("workers", "seq,1,2", "contenders: seq for the sequential reader, N for the parallel one with N workers")
	once := flag.Bool("once", false, "run each contender once and print lines, bytes, wall and CPU milliseconds")
	window := flag.Int("window", 0, "blockz Options.Window (0: its default)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	pieces := flag.Bool("pieces", false, "time the scan and each piece alone")
	mk := flag.String("make", "", "write the real corpus (128 MiB of Go sources) into this directory and exit")
	flag.Parse()
	if *mk != "" {
		f, err := contend.MakeFile(*mk, contend.Real, 128<<20)
		if err != nil {
			fail(err)
		}
		fmt.Println(f.Path)
		return
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	var cs []contender
	for _, w := range strings.Split(*workers, ",") {
		c := contender{name: w}
		if w != "seq" {
			n, err := strconv.Atoi(w)
			if err != nil || n < 1 {
				fail(fmt.Errorf("-workers: %q is neither seq nor a number of workers", w))
			}
			c.opt = &blockz.Options{Workers: n, Window: *window}
		}
		cs = append(cs, c)
	}
	for _, name := range flag.Args() {
		var err error
		if *pieces {
			err = measurePieces(name)
		} else if *once {
			err = runOnce(name, cs)
		} else {
			err = measure(name, cs, *rounds)
		}
		if err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	pprof.StopCPUProfile()
	fmt.Fprintln(os.Stderr, "blocksbench:", err)
	os.Exit(1)
}

// contender is one way to decode: sequentially (opt nil) or in parallel.
type contender struct {
	name string
	opt  *blockz.Options
}

// pass is one decode of a file: what it saw and what it cost.
type pass struct {
	lines, bytes int64
	wall, cpu    time.Duration
}

// count decodes the named file with c and counts its lines.
func (c contender) count(name string) (pass, error) {
	f, err := os.Open(name)
	if err != nil {
		return pass{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return pass{}, err
	}
	cpu0, t0 := cpuTime(), time.Now()
	var r io.ReadCloser
	if c.opt != nil {
		br, err := blockz.NewReader(f, st.Size(), *c.opt)
		if errors.Is(err, blockz.ErrNoStructure) {
			return pass{}, fmt.Errorf("%s: %w", name, err)
		}
		if err != nil {
			return pass{}, err
		}
		r = br
	} else {
		r = decompress.NewReader(f)
	}
	defer r.Close()
	// Each reader through its best interface: the parallel one hands its
	// buffers to a writer (WriteTo), the sequential one reads into ours.
	var lc lineCounter
	if wt, ok := r.(io.WriterTo); ok {
		_, err = wt.WriteTo(&lc)
	} else {
		_, err = io.CopyBuffer(&lc, r, make([]byte, 256<<10))
	}
	if err != nil {
		return pass{}, fmt.Errorf("%s: %w", name, err)
	}
	return pass{lines: lc.lines, bytes: lc.bytes, wall: time.Since(t0), cpu: cpuTime() - cpu0}, nil
}

// lineCounter counts the lines and bytes written to it.
type lineCounter struct{ lines, bytes int64 }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	c.bytes += int64(len(p))
	return len(p), nil
}

func runOnce(name string, cs []contender) error {
	for _, c := range cs {
		p, err := c.count(name)
		if err != nil {
			return err
		}
		fmt.Printf("%s %d %d %.1f %.1f\n", c.name, p.lines, p.bytes, ms(p.wall), ms(p.cpu))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// measure runs the rounds on one file and prints its table.
func measure(name string, cs []contender, rounds int) error {
	var ref pass
	for i, c := range cs {
		p, err := c.count(name)
		if err != nil {
			return err
		}
		if i == 0 {
			ref = p
		} else if p.lines != ref.lines || p.bytes != ref.bytes {
			return fmt.Errorf("%s: %s counts %d lines in %d bytes, %s %d in %d", name, c.name, p.lines, p.bytes, cs[0].name, ref.lines, ref.bytes)
		}
	}
	walls := make([][]time.Duration, len(cs))
	cpus := make([][]time.Duration, len(cs))
	ratios := make([][]float64, len(cs))
	for round := range rounds {
		order := make([]int, len(cs))
		for i := range order {
			order[i] = i
		}
		if round%2 == 1 {
			slices.Reverse(order)
		}
		got := make([]pass, len(cs))
		for _, i := range order {
			p, err := cs[i].count(name)
			if err != nil {
				return err
			}
			got[i] = p
		}
		for i, p := range got {
			walls[i] = append(walls[i], p.wall)
			cpus[i] = append(cpus[i], p.cpu)
			ratios[i] = append(ratios[i], float64(p.wall)/float64(got[0].wall))
		}
	}
	fmt.Printf("\n%s: %d lines, %d bytes, %d rounds\n\n", name, ref.lines, ref.bytes, rounds)
	fmt.Printf("| contender | wall [ms] | CPU [ms] | wall / %s's |\n|:---|---:|---:|---:|\n", cs[0].name)
	for i, c := range cs {
		fmt.Printf("| %s | %.0f | %.0f | %.3f |\n", c.name, ms(median(walls[i])), ms(median(cpus[i])), medianf(ratios[i]))
	}
	return nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianf(d []float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
