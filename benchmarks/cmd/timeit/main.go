// Command timeit is the one way the benchmarks time a command as a user runs it: a whole
// process (a pipeline is `bash -c 'TOOL -dc F | wc -l'`), from before it is started to
// after it and everything it waited for have exited, with its CPU time (user + system of
// the process and of every descendant it reaped, from wait4), its peak memory, page
// faults and context switches. Every script under benchmarks/ that sets the project
// beside an outside tool times both with it.
//
//	timeit [-rounds 5] [-warmup 1] [-output null|pipe|FILE] [-prepare CMD] [-json FILE] CMD...
//
// Each CMD is split into words as a shell would split it (quotes and backslashes; no
// globbing, no variables, no pipes) and run without a shell, as `hyperfine -N` runs it,
// with standard input from /dev/null and standard output to /dev/null (or a pipe emptied
// into /dev/null by splice(2), as hyperfine empties it, or FILE, truncated before every
// run), and, as hyperfine does, an environment variable of a random length (0 to 4095
// bytes) that moves the command's stack from run to run. After -warmup untimed runs of
// each command, each of -rounds rounds runs every command once, in an order rotated by
// one from round to round, so that a slow spell of a shared machine falls on all of them.
//
// In every round each command is also timed by hyperfine (`hyperfine -N -r 1`, right
// after timeit's own run of it, or right before it in every other round), and the report gives hyperfine's median beside
// timeit's. The two must agree within -agree (10%) for every command: when they do not,
// timeit prints the report, says which commands disagree, and exits with status 3, so
// that no script keeps a table whose timings a second method does not confirm. -hyperfine=false
// leaves the check out (a machine without hyperfine; never for a published run).
//
// It prints a Markdown table on standard output: per command the median wall time over
// the rounds, hyperfine's median, their ratio, the median CPU time (timeit's and
// hyperfine's), and the median of the per-round ratios of wall times to the first
// command's, with the least and greatest. -json writes every run for scripts that make
// tables of their own.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
)

func main() {
	// One processor: while the pipe's reader waits in splice(2), a second one would send
	// the runtime's idle threads spinning on the core the command needs (the command's
	// involuntary context switches doubled, and its time with them).
	runtime.GOMAXPROCS(1)
	var cfg config
	flag.IntVar(&cfg.rounds, "rounds", 5, "timed rounds, each running every command once")
	flag.IntVar(&cfg.warmup, "warmup", 1, "untimed runs of each command before the rounds")
	flag.StringVar(&cfg.output, "output", "null", "where each command's standard output goes: null, pipe (emptied into /dev/null) or a FILE (truncated before every run)")
	flag.StringVar(&cfg.prepare, "prepare", "", "a command run (untimed) before every run of every command")
	flag.StringVar(&cfg.jsonOut, "json", "", "write every run to this FILE as JSON")
	flag.StringVar(&cfg.names, "names", "", "comma-separated names for the commands in the report (default: the commands)")
	flag.BoolVar(&cfg.hyperfine, "hyperfine", true, "time every command with hyperfine too, in every round, and check that both agree")
	flag.Float64Var(&cfg.agree, "agree", 0.10, "the largest relative difference allowed between timeit's and hyperfine's medians")
	flag.Parse()
	if flag.NArg() == 0 || cfg.rounds < 1 || cfg.warmup < 0 {
		fmt.Fprintln(os.Stderr, "usage: timeit [-rounds N] [-warmup N] [-output null|pipe|FILE] [-prepare CMD] [-json FILE] CMD...")
		os.Exit(2)
	}
	res, err := measure(cfg, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "timeit:", err)
		os.Exit(1)
	}
	fmt.Print(res.table())
	if cfg.jsonOut != "" {
		if err := res.writeJSON(cfg.jsonOut); err != nil {
			fmt.Fprintln(os.Stderr, "timeit:", err)
			os.Exit(1)
		}
	}
	if bad := res.disagreements(); len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "timeit: timeit and hyperfine disagree by more than %.0f%%: %s\n", 100*cfg.agree, strings.Join(bad, "; "))
		os.Exit(3)
	}
}

// config is the command line.
type config struct {
	rounds, warmup int
	output         string // "null", "pipe" or a file name
	prepare        string
	jsonOut        string
	names          string
	hyperfine      bool
	agree          float64
}

// measure runs the warm-up and the rounds and returns every run.
func measure(cfg config, cmds []string) (*result, error) {
	res := &result{agree: cfg.agree, checked: cfg.hyperfine}
	var names []string
	if cfg.names != "" {
		names = strings.Split(cfg.names, ",")
		if len(names) != len(cmds) {
			return nil, fmt.Errorf("-names gives %d names for %d commands", len(names), len(cmds))
		}
	}
	var prepare []string
	if cfg.prepare != "" {
		var err error
		if prepare, err = splitWords(cfg.prepare); err != nil {
			return nil, fmt.Errorf("-prepare: %v", err)
		}
	}
	for i, c := range cmds {
		argv, err := splitWords(c)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", c, err)
		}
		if len(argv) == 0 {
			return nil, errors.New("an empty command")
		}
		m := &measured{command: c, name: c, argv: argv}
		if names != nil {
			m.name = names[i]
		}
		res.cmds = append(res.cmds, m)
	}
	r := runner{output: cfg.output, prepare: prepare}
	for range cfg.warmup {
		for _, m := range res.cmds {
			if _, err := r.run(m.argv); err != nil {
				return nil, err
			}
		}
	}
	for round := range cfg.rounds {
		for k := range res.cmds {
			m := res.cmds[(round+k)%len(res.cmds)]
			if err := r.time(m, cfg.hyperfine, round%2 == 1); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// time runs m once by timeit and, with hf, once by hyperfine, and keeps both. The one
// that runs second finds what the first left warm (the file's pages, the binary's, the
// caches), so the two take turns: hfFirst puts hyperfine's run first. Always second,
// hyperfine's medians of commands of 30 ms ran up to 15% under timeit's.
func (r runner) time(m *measured, hf, hfFirst bool) error {
	timeHF := func() error {
		h, err := r.hyperfine(m.command)
		m.hf = append(m.hf, h)
		return err
	}
	if hf && hfFirst {
		if err := timeHF(); err != nil {
			return err
		}
	}
	s, err := r.run(m.argv)
	if err != nil {
		return err
	}
	m.runs = append(m.runs, s)
	if hf && !hfFirst {
		return timeHF()
	}
	return nil
}
