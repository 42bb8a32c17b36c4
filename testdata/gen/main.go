// Command gen writes a benchmark corpus for foreach: text of a known shape or
// binary noise, the same bytes for the same flags on every machine.
//
//	go run ./testdata/gen --shape NAME [--lines N] [--phrases N] [--seed N] [--size SIZE] [-o FILE]
//
// For example, 64 MiB of lines with long-tailed lengths:
//
//	go run ./testdata/gen --shape mixed --size 64MiB -o mixed.txt
//
// The shapes, their defaults and the exact meaning of --size are documented
// in package corpus (internal/measure/corpus), which does the work and which the
// benchmarks import directly.
//
// Without -o (or with -o -) the corpus goes to standard output. Exit status:
// 0 on success; 1 if the corpus could not be written, with the reason on
// standard error and no partial file left behind; 2 for bad flags or values,
// with a usage message on standard error. --help prints the usage on standard
// output and exits 0.
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usageHead = `Usage: go run ./testdata/gen --shape NAME [--lines N] [--phrases N] [--seed N] [--size SIZE] [-o FILE]

Writes a deterministic benchmark corpus to standard output or FILE.
Shapes: %s.
SIZE is in human units (128MiB, 64MB, 1G, 4096) and overrides --lines: text
shapes end at the first line end at or past SIZE; huge-line and binary are
exactly SIZE bytes. Zero --lines or --phrases means the shape's default.

Flags:
`

// run is the whole command, apart from the exit: it parses args, writes the
// corpus to stdout or the -o file, reports to stderr and returns the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	fs, fl := newFlags()
	spec, err := fl.parse(fs, args)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "gen: %v\n", err)
		usage(stderr, fs)
		return 2
	case fl.help:
		usage(stdout, fs)
		return 0
	}
	if fl.output == "" || fl.output == "-" {
		_, err = corpus.Generate(stdout, spec)
	} else {
		_, err = corpus.WriteFile(fl.output, spec)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gen: %v\n", err)
		return 1
	}
	return 0
}

// flags are the command's flags as typed.
type flags struct {
	shape, size, output string
	lines, phrases      int
	seed                uint64
	help                bool
}

func newFlags() (*pflag.FlagSet, *flags) {
	fs := pflag.NewFlagSet("gen", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {} // run reports parse errors itself, on the right stream
	fl := &flags{}
	fs.StringVar(&fl.shape, "shape", string(corpus.Tall), "corpus `NAME`, one of the shapes above")
	fs.IntVar(&fl.lines, "lines", 0, "`N` lines (0: the shape's default)")
	fs.IntVar(&fl.phrases, "phrases", 0, "`N` words per line (0: the shape's default; for mixed, the scale; verywide ignores it)")
	fs.Uint64Var(&fl.seed, "seed", 0, "`N` seeds the generator: other seeds, other bytes")
	fs.StringVar(&fl.size, "size", "", "target `SIZE` in bytes, e.g. 128MiB (overrides --lines)")
	fs.StringVarP(&fl.output, "output", "o", "", "write to `FILE` (created or truncated) instead of standard output")
	fs.BoolVarP(&fl.help, "help", "h", false, "print this help and exit")
	return fs, fl
}

// parse parses args into fl and returns the corpus they ask for (nothing to check with
// --help).
func (fl *flags) parse(fs *pflag.FlagSet, args []string) (corpus.Spec, error) {
	if err := fs.Parse(args); err != nil || fl.help {
		return corpus.Spec{}, err
	}
	spec := corpus.Spec{Shape: corpus.Shape(fl.shape), Lines: fl.lines, Phrases: fl.phrases, Seed: fl.seed}
	switch {
	case fs.NArg() > 0:
		return spec, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case fl.lines < 0:
		return spec, fmt.Errorf("--lines must not be negative: %d", fl.lines)
	case fl.phrases < 0:
		return spec, fmt.Errorf("--phrases must not be negative: %d", fl.phrases)
	}
	if fs.Changed("size") {
		n, err := humanize.ParseBytes(fl.size)
		switch {
		case err != nil:
			return spec, fmt.Errorf("invalid --size %q: want a size such as 128MiB, 64MB, 1G or 4096", fl.size)
		case n == 0 || n > math.MaxInt64:
			return spec, fmt.Errorf("invalid --size %q: want more than 0 and less than 8 EiB", fl.size)
		}
		spec.Size = int64(n)
	}
	return spec, spec.Validate()
}

// usage prints the command's usage to w.
func usage(w io.Writer, fs *pflag.FlagSet) {
	names := make([]string, 0, len(corpus.Shapes()))
	for _, s := range corpus.Shapes() {
		names = append(names, string(s))
	}
	fmt.Fprintf(w, usageHead, strings.Join(names, ", "))
	fs.SetOutput(w)
	fs.PrintDefaults()
}
