package main

// foreach bench: the engine against the standard library on the same files.
//
// Every contender reads the whole file from an *os.File opened outside the timed
// region and runs the same loop body, touch, over each record it yields. They
// all yield the same records, terminator included (the Scanner contenders use
// scanLinesKeep, which is bufio.ScanLines without the chomp), so their record
// counts, byte totals and the sums of each record's first and last bytes must
// agree: they are checked against the first contender after every run, before
// any number is printed.
//
// Each contender is compared with bufio.Scanner+copy by one ratio with its spread:
// the contenders run in rounds, one run each, so the ratio of two runs of the same
// round is a fair pair; the ratio is the median of the rounds' ratios, the spread
// their least and greatest, and where the spread includes 1.00 the verdict is "no
// clear difference". The table and the summary print the same comparison.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/exp/stats"

	"github.com/foreachio/foreach/internal/bytesize"
	"github.com/foreachio/foreach/internal/cliflag"
	"github.com/foreachio/foreach/internal/measure/contend"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/linereader"
)

const benchUsageHead = `Usage: foreach bench [flags] [FILE...]

For each FILE, time the linereader engine (Lines: records copied out; Views:
records borrowed; Batches: records copied in blocks) against bufio.Scanner
(borrowed tokens, and each token copied), bufio.Reader.ReadBytes, and a naive
per-line buffer that starts empty for every line and grows by 1.5x
(cap*3/2+1, copying) as 128-byte steps arrive from a bufio.Reader.
Contenders alternate within each round, the starting one rotating from round
to round; every run's record count, byte total and first and last bytes of
each record are checked against the first contender's before anything is
reported.

The table shows the median MB/s (10^6 bytes per second) over the runs with
its min-max range, heap allocations per record (runtime.MemStats.Mallocs),
buffer growths per run (- for bufio, which does not report them), and the
speed against bufio.Scanner+copy: the median of the rounds' ratios, their
least and greatest, and "no clear difference" where those include 1.00. A
summary at the end repeats the engine's comparisons for every file.

With no FILE, write the three reference corpora, tall (many short lines),
wide (few long lines) and verywide (lines of 512 KiB and more), to a
temporary directory, benchmark them and remove them.

Flags:
`

// benchConfig is the parsed command line of foreach bench.
type benchConfig struct {
	runs   int
	size   int // corpus size with no FILE
	buffer int // read size of every contender
	files  []string
}

// benchRaw holds the values of foreach bench's flags as typed.
type benchRaw struct {
	runs, size, buffer string
	help               bool
}

func newBenchFlagSet(raw *benchRaw) *cliflag.FlagSet {
	fs := newFlags("foreach bench")
	raw.runs, raw.size, raw.buffer = "7", "16MiB", "64KiB"
	fs.Var(typed{&raw.runs, "N"}, "runs", "timed runs of each contender on each file")
	fs.Var(typed{&raw.size, "SIZE"}, "size", "with no FILE: size of each reference corpus")
	fs.Var(typed{&raw.buffer, "SIZE"}, "buffer", "bytes per read for every contender")
	fs.BoolVarP(&raw.help, "help", "h", false, "print this help")
	return fs
}

// parseBenchArgs parses foreach bench's command line; help reports --help.
func parseBenchArgs(args []string) (cfg *benchConfig, help bool, err error) {
	var raw benchRaw
	fs := newBenchFlagSet(&raw)
	if err := fs.Parse(args); err != nil {
		if err = flagError(err); errors.Is(err, cliflag.ErrHelp) {
			return nil, true, nil
		}
		return nil, false, err
	}
	if raw.help {
		return nil, true, nil
	}
	cfg = &benchConfig{files: fs.Args()}
	if cfg.runs, err = strconv.Atoi(strings.TrimSpace(raw.runs)); err != nil {
		return nil, false, invalidArg("runs", raw.runs, "not a whole number")
	}
	if cfg.runs < 1 {
		return nil, false, invalidArg("runs", raw.runs, "must be at least 1")
	}
	if cfg.size, err = sizeArg("size", raw.size, 1); err != nil {
		return nil, false, err
	}
	if cfg.buffer, err = sizeArg("buffer", raw.buffer, 1); err != nil {
		return nil, false, err
	}
	if err := optionsError(benchOptions(cfg.buffer).Validate(), fs, &rawFlags{}); err != nil {
		return nil, false, err
	}
	return cfg, false, nil
}

// benchOptions are the engine contenders' options.
func benchOptions(buffer int) linereader.Options { return linereader.Options{BufferSize: buffer} }

// benchTryHelp follows a usage error of foreach bench.
const benchTryHelp = "Try 'foreach bench --help' for more information.\n"

func benchUsage() string {
	return benchUsageHead + newBenchFlagSet(&benchRaw{}).FlagUsagesWrapped(80)
}

func runBench(args []string, stdout, stderr io.Writer) int {
	cfg, help, err := parseBenchArgs(args)
	switch {
	case help:
		fmt.Fprint(stdout, benchUsage())
		return 0
	case err != nil:
		// One line and a pointer to the help, as for the command's own usage errors.
		fmt.Fprintf(stderr, "foreach bench: %v\n%s", err, benchTryHelp)
		return 2
	}
	start := time.Now()
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fmt.Fprintf(w, "foreach bench: %s\n", machine())

	files, displays := cfg.files, cfg.files
	if len(files) == 0 {
		dir, err := os.MkdirTemp("", "foreach-bench-")
		if err != nil {
			fmt.Fprintf(stderr, "foreach bench: %s\n", reason(err))
			return 1
		}
		defer os.RemoveAll(dir)
		displays = nil
		for _, shape := range []corpus.Shape{corpus.Tall, corpus.Wide, corpus.Verywide} {
			name := filepath.Join(dir, string(shape)+".txt")
			spec := corpus.Spec{Shape: shape, Seed: 1, Size: int64(cfg.size)}
			if _, err := corpus.WriteFile(name, spec); err != nil {
				fmt.Fprintf(stderr, "foreach bench: writing the %s corpus: %s\n", shape, reason(err))
				return 1
			}
			files = append(files, name)
			displays = append(displays, filepath.Base(name)+" (corpus "+string(shape)+")")
		}
	}

	status := 0
	var summary []fileComparisons
	for i, name := range files {
		fmt.Fprintln(w)
		fc, err := benchFile(w, name, displays[i], cfg)
		if err != nil {
			w.Flush()
			fmt.Fprintf(stderr, "foreach bench: %s: %s\n", quoteName(name), reason(err))
			status = 1
			continue
		}
		summary = append(summary, fc)
	}
	printSummary(w, summary)
	fmt.Fprintf(w, "\nMB/s: median of %s per contender, alternated (10^6 bytes/s); min–max: slowest\n"+
		"and fastest run; allocs/record: runtime.MemStats.Mallocs per record; growths/run:\n"+
		"buffer replacements (- for bufio, which does not report them). vs Scanner+copy: the\n"+
		"median of the rounds' speed ratios (each round runs every contender once) and\n"+
		"[least–greatest]; \"no clear difference\" where they include 1.00. Total time %s.\n",
		plural(int64(cfg.runs), "run"), time.Since(start).Round(100*time.Millisecond))
	fmt.Fprint(w, contendersExplained)
	return status
}

// fileComparisons is what the summary repeats of one file's table.
type fileComparisons struct {
	display string
	engine  []string     // the engine contenders' names
	vs      []comparison // theirs against the baseline, in the same order
}

// printSummary repeats, for every file, the engine's comparisons from its table.
func printSummary(w io.Writer, files []fileComparisons) {
	if len(files) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSummary: the engine against %s\n", baseline)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range files {
		for i, name := range f.engine {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f.display, name, f.vs[i].ratio(), f.vs[i].verdict())
		}
	}
	tw.Flush()
}

// machine names the machine for the header: GOOS/GOARCH, CPUs, Go version and
// the CPU model when /proc/cpuinfo tells it.
func machine() string {
	s := fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			k, v, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(k) == "model name" {
				s += ", " + strings.TrimSpace(v)
				break
			}
		}
	}
	return s
}

// contendersExplained says in plain words what each contender is, for a reader
// who has not seen the code.
const contendersExplained = `
The contenders:
  engine Lines            this project: each record copied into a slice of its own
  engine Views            this project: each record lent from the reader's buffer
  engine Batches          this project: records copied in blocks, one allocation per block
  bufio.Scanner           the standard library's line scanner, each line lent (no copy),
                          without its "\n" (bufio.ScanLines)
  bufio.Scanner+copy      the same, each line then copied: what most programs that keep
                          lines do, and the yardstick of the ratios
  bufio.ReadBytes         bufio.Reader.ReadBytes('\n'): a new slice per line
  naive 1.5x line buffer  a fresh buffer for every line, grown by half again (copying)
                          whenever the next 128 bytes do not fit: the pattern this
                          project was written to replace
`

// contender is one of the suite's contenders (package internal/measure/contend) under the name this
// table gives it: the demo and the published figures time the same loops.
type contender struct {
	name string
	contend.Contender
}

var contenders = []contender{
	{"engine Lines", contend.Contenders["Lines"]},
	{"engine Views", contend.Contenders["Views"]},
	{"engine Batches", contend.Contenders["Batches"]},
	{"bufio.Scanner", contend.Contenders["ScannerBytes"]},
	{baseline, contend.Contenders["ScannerCopy"]},
	{"bufio.ReadBytes", contend.Contenders["ReadBytes"]},
	{"naive 1.5x line buffer", contend.Contenders["Naive"]},
}

// baseline is the contender the others are compared with.
const baseline = "bufio.Scanner+copy"

// sample is one timed run.
type sample struct {
	mbps    float64
	mallocs uint64
	res     contend.Result
}

// benchFile runs every contender cfg.runs times on the file name and prints its table.
func benchFile(w io.Writer, name, display string, cfg *benchConfig) (fileComparisons, error) {
	fc := fileComparisons{display: display}
	samples, size, err := runRounds(name, cfg)
	if err != nil {
		return fc, err
	}
	ref := samples[0][0].res
	fmt.Fprintf(w, "%s: %s, %s, longest %s\n", display,
		bytesize.IEC(uint64(size)), plural(ref.Records, "record"), bytesize.IEC(uint64(ref.Longest)))
	baseIdx := slices.IndexFunc(contenders, func(c contender) bool { return c.name == baseline })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "contender\tMB/s\tmin–max\tallocs/record\tgrowths/run\tvs Scanner+copy\tverdict\t\n")
	for i, c := range contenders {
		ss := samples[i]
		mbps := median(ss, func(s sample) float64 { return s.mbps })
		lo, hi := ss[0].mbps, ss[0].mbps
		for _, s := range ss {
			lo, hi = min(lo, s.mbps), max(hi, s.mbps)
		}
		allocs := "-"
		if ref.Records > 0 {
			allocs = fmt.Sprintf("%.2f", median(ss, func(s sample) float64 { return float64(s.mallocs) })/float64(ref.Records))
		}
		growths := "-"
		if c.Reports {
			growths = fmt.Sprintf("%.0f", median(ss, func(s sample) float64 { return float64(s.res.Grows) }))
		}
		ratio, verdict := "1.00×", "(the yardstick)"
		if i != baseIdx {
			vs := compare(ss, samples[baseIdx])
			ratio, verdict = vs.ratio(), vs.verdict()
			if strings.HasPrefix(c.name, "engine ") {
				fc.engine, fc.vs = append(fc.engine, c.name), append(fc.vs, vs)
			}
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f–%.0f\t%s\t%s\t%s\t%s\t\n", c.name, mbps, lo, hi, allocs, growths, ratio, verdict)
	}
	return fc, tw.Flush()
}

// runRounds times every contender on the file name cfg.runs times, in rounds, and
// checks after each round that all of them saw the same records. samples[i] are the
// runs of contenders[i], one per round.
func runRounds(name string, cfg *benchConfig) (samples [][]sample, size int64, err error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, errors.New("not a regular file")
	}
	size = fi.Size()
	// Warm the page cache so that the first contender does not pay for it.
	if err := readAll(name); err != nil {
		return nil, 0, err
	}
	samples = make([][]sample, len(contenders))
	for round := range cfg.runs {
		for k := range contenders {
			i := (k + round) % len(contenders) // rotate who goes first
			s, err := timeOne(contenders[i], name, size, cfg.buffer)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", contenders[i].name, err)
			}
			samples[i] = append(samples[i], s)
		}
		if err := sameRecords(samples, round); err != nil {
			return nil, 0, err
		}
	}
	return samples, size, nil
}

// sameRecords checks that every contender saw the same records in the given round:
// the same number, and the same bytes as the first contender that, like it, keeps or
// drops the separators.
func sameRecords(samples [][]sample, round int) error {
	for i, c := range contenders {
		ref := contenders[0]
		for _, r := range contenders {
			if r.Chomps == c.Chomps {
				ref = r
				break
			}
		}
		k := slices.IndexFunc(contenders, func(x contender) bool { return x.name == ref.name })
		got, want := samples[i][round].res, samples[k][round].res
		if got.Records != want.Records || got.Bytes != want.Bytes || got.Ends != want.Ends {
			return fmt.Errorf("%s saw %d records, %d bytes, first and last bytes summing to %d; %s saw %d, %d, %d",
				c.name, got.Records, got.Bytes, got.Ends, ref.name, want.Records, want.Bytes, want.Ends)
		}
	}
	return nil
}

// comparison is one contender against another, round by round: the median of the
// rounds' speed ratios, and their least and greatest.
type comparison struct {
	median, lo, hi float64
	rounds         int
}

func compare(a, b []sample) comparison {
	ratios := make([]float64, len(a))
	for r := range a {
		ratios[r] = a[r].mbps / b[r].mbps
	}
	return comparison{stats.Median(ratios), slices.Min(ratios), slices.Max(ratios), len(ratios)}
}

// ratio is the comparison in numbers: "1.27× [0.83–3.16]".
func (c comparison) ratio() string {
	return fmt.Sprintf("%.2f× [%.2f–%.2f]", c.median, c.lo, c.hi)
}

// verdict is what the comparison says: faster or slower when every round says so.
func (c comparison) verdict() string {
	switch {
	case c.rounds < 2:
		return "one round: no spread to judge by (use --runs)"
	case c.lo <= 1 && c.hi >= 1:
		return "no clear difference"
	case c.hi < 1:
		return "slower"
	}
	return "faster"
}

// timeOne opens the file, then times one run of c over it and counts its allocations.
func timeOne(c contender, name string, size int64, buffer int) (sample, error) {
	f, err := os.Open(name)
	if err != nil {
		return sample{}, err
	}
	defer f.Close()
	// Every run starts from a collected heap. Lines, Batches, Scanner+copy, ReadBytes
	// and the naive buffer leave garbage behind them; uncollected, it would be
	// collected during the next contender's run and charged to it, and since the
	// order of the contenders rotates, which of them paid would change from round to
	// round. The library never calls runtime.GC (it may be one part of a large
	// program); this benchmark is a program that owns its process and its heap.
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	res, err := c.Run(f, buffer)
	d := time.Since(t0)
	runtime.ReadMemStats(&m1)
	if err != nil {
		return sample{}, err
	}
	return sample{
		mbps:    float64(size) / 1e6 / max(d.Seconds(), 1e-9),
		mallocs: m1.Mallocs - m0.Mallocs,
		res:     res,
	}, nil
}

func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	return stats.Median(v)
}

func readAll(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(io.Discard, f)
	return err
}
