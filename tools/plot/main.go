// Command plot draws the performance pictures of foreach from the committed results:
// the library's throughput by shape of text and contender, and the foreach command's
// times against the tools it stands beside. It reads result files only; it does not
// time anything.
//
// From the repository root:
//
//	tools/plot/plot.sh                   # both pictures, from the default files
//	tools/plot/plot.sh -results benchmarks/results/run.tsv -out docs/performance.png
//	tools/plot/plot.sh -cli benchmarks/results/cli.tsv -cli-out docs/cli.png
//
// plot.sh builds this module and runs it in the repository root, so that every path is
// relative to the root. Without any of -results, -out, -cpu-out, -cli and -cli-out,
// both pictures are drawn from the default files; with some, only the pictures they
// name. A picture is PNG or SVG by its file name's extension; the same input gives the
// same bytes.
//
// # The library suite's results (-results)
//
// benchmarks/cmd/suite -raw writes them: tab-separated, a header line, then one line per
// timed run:
//
//	shape	a	b	pair	contender	bytes	wall_ns	cpu_ns
//	tall	Lines	ScannerCopy	0	Lines	67108880	61432100	60118000
//
// Columns are found by their names in the header; the chart needs shape (the corpus),
// contender (the contender that ran), bytes (the size of the file it read, at least 1),
// wall_ns and cpu_ns (its wall and CPU time in nanoseconds, at least 1); other columns
// are ignored. Each bar is one contender on one shape: the median over all its runs on
// that shape (in every row of the suite it ran in) of bytes / 10^6 / seconds, by wall
// time, or by CPU time for -cpu-out. -contenders chooses the bars and their order; a
// contender charted on no shape is left out with a note.
//
// # The command's timings (-cli)
//
// Tab-separated, a header line, then one line per case, drawn from the top in file order:
//
//	foreach	tool	data	foreach_s	tool_s	goal	foreach_cpu_s	tool_cpu_s
//	foreach -n	cat -n	real	0.652	0.672	0.8	0.650	0.668
//
// The columns:
//
//   - foreach: the foreach command timed, as the chart shows it (e.g. "foreach -n").
//   - tool: the tool it is compared with (e.g. "cat -n", "gzip -dc | wc -l").
//   - data: the input (e.g. "tall", "real", "tall.gz").
//   - foreach_s, tool_s: the median wall time of each over its runs, in seconds (a
//     positive decimal number: 0.652, 6.52e-1).
//   - goal (optional column): the ratio foreach_s / tool_s the project aims not to
//     exceed in this case; empty or "-" for none.
//   - foreach_cpu_s, tool_cpu_s (optional columns, both or neither): CPU time
//     (user+system) of each, in seconds; when present, each case has a second bar by CPU
//     time.
//
// foreach, tool and data name a case: no two lines may name the same one. Other columns
// are ignored.
//
// In both formats, empty lines and lines starting with "#" are skipped, a "\r" before
// the "\n" is dropped, and every other line has as many fields as the header. An input
// that breaks a rule is refused with a message naming the file and the line.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command's flags.
type options struct {
	results, out, cpuOut string
	contenders, shapes   []string
	cli, cliOut          string
	machine              string
	drawSuite, drawCLI   bool // which pictures: from the flags given
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.results, "results", "benchmarks/results/run.tsv", "the library suite's results (tab-separated, every timed run)")
	fs.StringVar(&o.out, "out", "docs/performance.png", "the throughput chart by wall time (.png or .svg)")
	fs.StringVar(&o.cpuOut, "cpu-out", "", "also the throughput chart by CPU time, to this file")
	contenders := fs.String("contenders", strings.Join(defaultContenders, ","), "the contenders charted, comma-separated, in legend order")
	shapes := fs.String("shapes", "", "the shapes charted, comma-separated, in order (default: every shape in the results)")
	fs.StringVar(&o.cli, "cli", "benchmarks/results/cli.tsv", "the command's timings against the tools (tab-separated)")
	fs.StringVar(&o.cliOut, "cli-out", "docs/cli.png", "the chart of the command against the tools (.png or .svg)")
	fs.StringVar(&o.machine, "machine", "", "a line naming the machine, the commit and the data, under each title")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: plot [-results FILE] [-out FILE] [-cpu-out FILE] [-contenders LIST] [-shapes LIST]\n"+
			"            [-cli FILE] [-cli-out FILE] [-machine TEXT]\n"+
			"Draws the throughput chart from -results and the command's chart from -cli; without any\n"+
			"of -results, -out, -cpu-out, -cli and -cli-out, both from the default files.\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "results", "out", "cpu-out":
			o.drawSuite = true
		case "cli", "cli-out":
			o.drawCLI = true
		}
	})
	if !o.drawSuite && !o.drawCLI {
		o.drawSuite, o.drawCLI = true, true
	}
	o.contenders, o.shapes = list(*contenders), list(*shapes)
	if len(o.contenders) == 0 {
		return o, errors.New("-contenders: no contender named")
	}
	return o, nil
}

// list splits a comma-separated flag, dropping spaces and empty items.
func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "plot:", err)
		return 2
	}
	if o.drawSuite {
		if err := drawSuite(o, stdout, stderr); err != nil {
			fmt.Fprintln(stderr, "plot:", err)
			return 1
		}
	}
	if o.drawCLI {
		if err := drawCLI(o, stdout); err != nil {
			fmt.Fprintln(stderr, "plot:", err)
			return 1
		}
	}
	return 0
}

func drawSuite(o options, stdout, stderr io.Writer) error {
	runs, err := readFile(o.results, readRuns)
	if err != nil {
		return err
	}
	tp, notes, err := summarize(runs, o.contenders, o.shapes)
	if err != nil {
		return fmt.Errorf("%s: %w", o.results, err) // says more than the notes
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "plot: %s: %s\n", o.results, n)
	}
	what := fmt.Sprintf("%d contenders on %d shapes, from %s", len(tp.contenders), len(tp.shapes), o.results)
	if err := save(o.out, throughputFigure(tp, false, o.machine), what, stdout); err != nil {
		return err
	}
	if o.cpuOut == "" {
		return nil
	}
	return save(o.cpuOut, throughputFigure(tp, true, o.machine), what+", by CPU time", stdout)
}

func drawCLI(o options, stdout io.Writer) error {
	cs, err := readFile(o.cli, readComparisons)
	if err != nil {
		return err
	}
	return save(o.cliOut, versusFigure(cs, o.machine), fmt.Sprintf("%d cases, from %s", len(cs), o.cli), stdout)
}

// readFile opens name and reads it with read.
func readFile[T any](name string, read func(string, io.Reader) (T, error)) (T, error) {
	f, err := os.Open(name)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(name, f)
}

// save encodes f in the format name asks for and writes it, whole, to name.
func save(name string, f figure, what string, stdout io.Writer) error {
	format, err := formatOf(name)
	if err != nil {
		return err
	}
	b, err := f.encode(format)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s\n", name, what)
	return nil
}
