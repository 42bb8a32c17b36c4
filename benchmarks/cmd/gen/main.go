// Command gen writes a benchmark corpus for foreach: text of a known shape or
// binary noise, the same bytes for the same flags on every machine.
//
//	go run ./benchmarks/cmd/gen --shape NAME [--lines N] [--phrases N] [--seed N] [--size SIZE] [-o FILE]
//
// For example, 64 MiB of lines with long-tailed lengths:
//
//	go run ./benchmarks/cmd/gen --shape mixed --size 64MiB -o mixed.txt
//
// The shapes, their defaults and the exact meaning of --size are documented
// in package corpus (internal/corpus), which does the work and which the
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

	"github.com/foreachio/foreach/internal/corpus"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usageHead = `Usage: go run ./benchmarks/cmd/gen --shape NAME [--lines N] [--phrases N] [--seed N] [--size SIZE] [-o FILE]

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
	fs := pflag.NewFlagSet("gen", pflag.ContinueOnError)
	fs.SortFlags = false
	var (
		shape   = fs.String("shape", string(corpus.Tall), "corpus `NAME`, one of the shapes above")
		lines   = fs.Int("lines", 0, "`N` lines (0: the shape's default)")
		phrases = fs.Int("phrases", 0, "`N` words per line (0: the shape's default; for mixed, the scale; verywide ignores it)")
		seed    = fs.Uint64("seed", 0, "`N` seeds the generator: other seeds, other bytes")
		size    = fs.String("size", "", "target `SIZE` in bytes, e.g. 128MiB (overrides --lines)")
		output  = fs.StringP("output", "o", "", "write to `FILE` (created or truncated) instead of standard output")
		help    = fs.BoolP("help", "h", false, "print this help and exit")
	)
	usage := func(w io.Writer) {
		names := make([]string, 0, len(corpus.Shapes()))
		for _, s := range corpus.Shapes() {
			names = append(names, string(s))
		}
		fmt.Fprintf(w, usageHead, strings.Join(names, ", "))
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fs.Usage = func() {} // run reports parse errors itself, on the right stream
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gen: "+format+"\n", a...)
		usage(stderr)
		return 2
	}

	if err := fs.Parse(args); err != nil {
		return fail("%v", err)
	}
	if *help {
		usage(stdout)
		return 0
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	spec := corpus.Spec{Shape: corpus.Shape(*shape), Lines: *lines, Phrases: *phrases, Seed: *seed}
	switch {
	case *lines < 0:
		return fail("--lines must not be negative: %d", *lines)
	case *phrases < 0:
		return fail("--phrases must not be negative: %d", *phrases)
	}
	if fs.Changed("size") {
		n, err := humanize.ParseBytes(*size)
		switch {
		case err != nil:
			return fail("invalid --size %q: want a size such as 128MiB, 64MB, 1G or 4096", *size)
		case n == 0 || n > math.MaxInt64:
			return fail("invalid --size %q: want more than 0 and less than 8 EiB", *size)
		}
		spec.Size = int64(n)
	}
	if err := spec.Validate(); err != nil {
		return fail("%v", err)
	}

	var err error
	if *output == "" || *output == "-" {
		_, err = corpus.Generate(stdout, spec)
	} else {
		_, err = corpus.WriteFile(*output, spec)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gen: %v\n", err)
		return 1
	}
	return 0
}
