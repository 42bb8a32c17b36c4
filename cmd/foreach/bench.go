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
	"bytes"
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

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"
	"golang.org/x/exp/stats"

	"github.com/foreachio/foreach/internal/naive"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/internal/corpus"
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

func newBenchFlagSet(raw *benchRaw) *pflag.FlagSet {
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
		if err = flagError(err); errors.Is(err, pflag.ErrHelp) {
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
  bufio.Scanner           the standard library's line scanner, each line lent (no copy)
  bufio.Scanner+copy      the same, each line then copied: what most programs that keep
                          lines do, and the yardstick of the ratios
  bufio.ReadBytes         bufio.Reader.ReadBytes('\n'): a new slice per line
  naive 1.5x line buffer  a fresh buffer for every line, grown by half again (copying)
                          whenever the next 128 bytes do not fit: the pattern this
                          project was written to replace
`

// result is what one run of a contender saw.
type result struct {
	records int64
	bytes   int64
	ends    uint64 // sum of the first and last byte of every non-empty record
	grows   int    // buffer growths; -1: not known
	longest int    // longest record, engine only (0 otherwise)
}

// touch is the loop body of every contender: it reads the record's length and
// its first and last bytes, so borrowed records are really looked at and a
// record shifted or cut by a byte shows in the check.
func touch(res *result, rec []byte) {
	res.records++
	res.bytes += int64(len(rec))
	if len(rec) > 0 {
		res.ends += uint64(rec[0]) + uint64(rec[len(rec)-1])
	}
}

// contender reads all of f and reports what it saw.
type contender struct {
	name string
	run  func(f *os.File, size int64, buffer int) (result, error)
}

var contenders = []contender{
	{"engine Lines", engine(func(r *linereader.Reader, res *result) {
		for rec := range r.Lines() {
			touch(res, rec)
		}
	})},
	{"engine Views", engine(func(r *linereader.Reader, res *result) {
		for rec := range r.Views() {
			touch(res, rec)
		}
	})},
	{"engine Batches", engine(func(r *linereader.Reader, res *result) {
		for batch := range r.Batches() {
			for _, rec := range batch {
				touch(res, rec)
			}
		}
	})},
	{"bufio.Scanner", benchScanner},
	{baseline, benchScannerCopy},
	{"bufio.ReadBytes", benchReadBytes},
	{"naive 1.5x line buffer", benchNaive},
}

// baseline is the contender the others are compared with.
const baseline = "bufio.Scanner+copy"

// engine is a contender that reads the file with the engine, through loop.
func engine(loop func(r *linereader.Reader, res *result)) func(*os.File, int64, int) (result, error) {
	return func(f *os.File, _ int64, buffer int) (result, error) {
		var res result
		r := linereader.New(f, benchOptions(buffer))
		loop(r, &res)
		st := r.Stats()
		res.grows, res.longest = st.Buffer.Grows, st.MaxRecord
		return res, r.Err()
	}
}

// scanLinesKeep is bufio.ScanLines keeping the "\n" (and any "\r" before it),
// so that the Scanner yields the same records as the other contenders.
func scanLinesKeep(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func newScanner(f *os.File, size int64, buffer int) *bufio.Scanner {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, buffer), int(size)+1) // room for the longest line
	sc.Split(scanLinesKeep)
	return sc
}

func benchScanner(f *os.File, size int64, buffer int) (result, error) {
	res := result{grows: -1}
	sc := newScanner(f, size, buffer)
	for sc.Scan() {
		touch(&res, sc.Bytes())
	}
	return res, sc.Err()
}

func benchScannerCopy(f *os.File, size int64, buffer int) (result, error) {
	res := result{grows: -1}
	sc := newScanner(f, size, buffer)
	for sc.Scan() {
		touch(&res, bytes.Clone(sc.Bytes()))
	}
	return res, sc.Err()
}

func benchReadBytes(f *os.File, _ int64, buffer int) (result, error) {
	res := result{grows: -1}
	br := bufio.NewReaderSize(f, buffer)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			touch(&res, line)
		}
		if err == io.EOF {
			return res, nil
		}
		if err != nil {
			return res, err
		}
	}
}

// benchNaive is the pattern this project replaces (internal/naive): a fresh buffer
// for every line, grown by 1.5x (copying what it holds) whenever the next 128-byte step
// does not fit.
func benchNaive(f *os.File, _ int64, buffer int) (result, error) {
	var res result
	br := bufio.NewReaderSize(f, max(buffer, naive.Step))
	grows, err := naive.Lines(br, func(line []byte) { touch(&res, line) })
	res.grows = grows
	return res, err
}

// sample is one timed run.
type sample struct {
	mbps    float64
	mallocs uint64
	res     result
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
		humanize.IBytes(uint64(size)), plural(ref.records, "record"), humanize.IBytes(uint64(ref.longest)))
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
		if ref.records > 0 {
			allocs = fmt.Sprintf("%.2f", median(ss, func(s sample) float64 { return float64(s.mallocs) })/float64(ref.records))
		}
		growths := "-"
		if ss[0].res.grows >= 0 {
			growths = fmt.Sprintf("%.0f", median(ss, func(s sample) float64 { return float64(s.res.grows) }))
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
		ref := samples[0][round].res
		for i, c := range contenders {
			got := samples[i][round].res
			if got.records != ref.records || got.bytes != ref.bytes || got.ends != ref.ends {
				return nil, 0, fmt.Errorf("%s saw %d records, %d bytes, first and last bytes summing to %d; %s saw %d, %d, %d",
					c.name, got.records, got.bytes, got.ends, contenders[0].name, ref.records, ref.bytes, ref.ends)
			}
		}
	}
	return samples, size, nil
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
	res, err := c.run(f, size, buffer)
	d := time.Since(t0)
	runtime.ReadMemStats(&m1)
	if err != nil {
		return sample{}, err
	}
	return sample{
		mbps:    float64(res.bytes) / 1e6 / max(d.Seconds(), 1e-9),
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
