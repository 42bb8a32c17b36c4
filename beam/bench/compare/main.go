// Command compare runs foreachio and Beam's own textio over the same files, on Prism, and
// checks every run against a sequential read of the file. beam/compare.sh drives it; each
// mode does one step:
//
//	compare gen -dir DIR                 write the files of every case (existing ones are kept)
//	compare ref -dir DIR -case NAME      print the sequential reference of a case, as JSON
//	compare run -dir DIR -case NAME -contender ID -ref FILE
//	                                     run one contender over one case and print one
//	                                     tab-separated line: what it delivered and read
//	compare table RAW                    render the lines of RAW (each followed by the
//	                                     wall, user and system seconds and the peak RSS
//	                                     in KiB of its process) as Markdown
//	compare list                         the cases and the contenders, one a line
//
// Beam's flags pass through (--runner; Prism, in this process, by default). The bytes each
// reader reads are counted by a Beam filesystem of its own (counted://), which is the local
// one with its reads counted; textio.Immediate, which opens the file itself, is counted by
// the process's read count instead (Linux only).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

var (
	dir         = flag.String("dir", "", "the `DIR` of the data files")
	caseName    = flag.String("case", "", "the case `NAME` (compare list)")
	contenderID = flag.String("contender", "", "the contender `ID` (compare list)")
	refFile     = flag.String("ref", "", "the `FILE` that compare ref wrote for the case")
	verbose     = flag.Bool("verbose", false, "show Beam's and Prism's log lines")
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compare gen|ref|run|table|list [flags]")
		os.Exit(2)
	}
	mode := os.Args[1]
	flag.CommandLine.Parse(os.Args[2:])
	beam.Init() // right after the flags: on a runner that starts this binary as a worker, it never returns
	if !*verbose {
		slog.SetDefault(slog.New(slog.DiscardHandler))
	}
	if err := run(mode); err != nil {
		fmt.Fprintf(os.Stderr, "compare %s: %v\n", mode, err)
		os.Exit(1)
	}
}

func run(mode string) error {
	switch mode {
	case "list":
		for _, c := range cases {
			fmt.Printf("case\t%s\t%s\n", c.name, c.file)
		}
		for _, c := range contenders {
			fmt.Printf("contender\t%s\t%s\n", c.id, c.title)
		}
		return nil
	case "gen":
		return generate(*dir)
	case "ref":
		tc, err := selectedCase()
		if err != nil {
			return err
		}
		ref, err := reference(filepath.Join(*dir, tc.file))
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(ref)
	case "run":
		return runOne()
	case "table":
		if flag.NArg() != 1 {
			return errors.New("the raw results file is missing")
		}
		return writeTable(os.Stdout, flag.Arg(0))
	}
	return fmt.Errorf("unknown mode (gen, ref, run, table, list)")
}

func selectedCase() (testCase, error) {
	tc, ok := caseByName(*caseName)
	if !ok {
		return tc, fmt.Errorf("-case %q: no such case (compare list)", *caseName)
	}
	if *dir == "" {
		return tc, errors.New("-dir is required")
	}
	return tc, nil
}

func runOne() error {
	tc, err := selectedCase()
	if err != nil {
		return err
	}
	c, ok := contenderByID(*contenderID)
	if !ok {
		return fmt.Errorf("-contender %q: no such contender (compare list)", *contenderID)
	}
	data, err := os.ReadFile(*refFile)
	if err != nil {
		return err
	}
	var ref Reference
	if err := json.Unmarshal(data, &ref); err != nil {
		return fmt.Errorf("%s: %v", *refFile, err)
	}
	tmp, err := os.MkdirTemp("", "compare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	o, err := runContender(context.Background(), c, filepath.Join(*dir, tc.file), ref, tmp)
	if err != nil {
		return err
	}
	fmt.Println(rawLine{Case: tc.name, Contender: c.id, Outcome: o, Ref: ref}.String())
	return nil
}

// generate writes the file of every case into dir, keeping those that exist (delete them
// to make them again: they depend on the Go version's sources).
func generate(dir string) error {
	if dir == "" {
		return errors.New("-dir is required")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var text []byte
	for _, tc := range cases {
		path := filepath.Join(dir, tc.file)
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if text == nil {
			var err error
			if text, err = goText(); err != nil {
				return err
			}
		}
		b, err := tc.make(text)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
			return err
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			return err
		}
		fmt.Printf("%s\t%d bytes\n", path, len(b))
	}
	return nil
}
