package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// sample is one run of a command.
type sample struct {
	Wall   float64 `json:"wall"`   // seconds from before the start to after wait4 returned
	User   float64 `json:"user"`   // seconds of user CPU of the process and the descendants it reaped
	Sys    float64 `json:"sys"`    // seconds of system CPU, likewise
	MaxRSS int64   `json:"maxrss"` // KiB, the largest of the process tree's (not their sum); 0 where unknown
	MinFlt int64   `json:"minflt"` // minor page faults; 0 where unknown
	VCSw   int64   `json:"vcsw"`   // voluntary context switches (waits: a pipe, a lock, I/O); 0 where unknown
	IVCSw  int64   `json:"ivcsw"`  // involuntary ones (preempted: another runnable task wanted the CPU)
}

func (s sample) cpu() float64 { return s.User + s.Sys }

// runner runs commands as the configuration says.
type runner struct {
	output  string   // "null", "pipe" or a file
	prepare []string // run before every run, or nil
}

// run runs argv once and measures it. A command that fails is an error: a timing of a
// failure is no timing of the command.
func (r runner) run(argv []string) (sample, error) {
	if r.prepare != nil {
		if out, err := exec.Command(r.prepare[0], r.prepare[1:]...).CombinedOutput(); err != nil {
			return sample{}, fmt.Errorf("-prepare %q: %v: %s", strings.Join(r.prepare, " "), err, out)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	// An environment of a random size, as hyperfine gives each run: the size moves the
	// command's stack, and a loop's speed can depend on its alignment (cat -n ran 14%
	// faster at timeit's one fixed size than over hyperfine's random ones, and the check
	// between the two failed). Over many runs the median is taken across alignments.
	cmd.Env = append(os.Environ(), "TIMEIT_RANDOMIZED_ENVIRONMENT_OFFSET="+strings.Repeat("X", rand.IntN(4096)))
	var stderr strings.Builder
	cmd.Stderr = &limited{w: &stderr, n: 4 << 10}
	done, err := r.connect(cmd)
	if err != nil {
		return sample{}, err
	}
	t0 := time.Now()
	err = cmd.Start()
	if err == nil {
		err = done()
		if werr := cmd.Wait(); err == nil {
			err = werr
		}
	}
	wall := time.Since(t0)
	if err != nil {
		return sample{}, fmt.Errorf("%q: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(stderr.String()))
	}
	s := sample{Wall: wall.Seconds(), User: cmd.ProcessState.UserTime().Seconds(), Sys: cmd.ProcessState.SystemTime().Seconds()}
	addRusage(&s, cmd.ProcessState)
	return s, nil
}

// connect sets cmd's standard input (/dev/null) and output, and returns what to call
// after the start: with a pipe, it reads the output to its end.
func (r runner) connect(cmd *exec.Cmd) (done func() error, err error) {
	done = func() error { return nil }
	switch r.output {
	case "null":
		// exec sends a nil Stdin and Stdout to the null device.
	case "pipe":
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		done = func() error { return drain(out) }
	default:
		f, err := os.Create(r.output) // truncated before every run
		if err != nil {
			return nil, err
		}
		cmd.Stdout = f
		// The child has its own copy once started; ours is closed then.
		done = f.Close
	}
	return done, nil
}

// hyperfine times command once with hyperfine -N, with the same output and preparation,
// and returns its wall time and CPU time (user + system).
func (r runner) hyperfine(command string) (sample, error) {
	dir, err := os.MkdirTemp("", "timeit")
	if err != nil {
		return sample{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "h.json")
	args := []string{"-N", "-r", "1", "--style", "none", "--output", r.output, "--export-json", out}
	if r.prepare != nil {
		args = append(args, "--prepare", joinWords(r.prepare))
	}
	args = append(args, command)
	hf := exec.Command("hyperfine", args...)
	if msg, err := hf.CombinedOutput(); err != nil {
		return sample{}, fmt.Errorf("hyperfine %q: %v: %s", command, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return sample{}, err
	}
	var h struct {
		Results []struct {
			Times  []float64 `json:"times"`
			User   float64   `json:"user"`
			System float64   `json:"system"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &h); err != nil || len(h.Results) != 1 || len(h.Results[0].Times) != 1 {
		return sample{}, fmt.Errorf("hyperfine %q: unexpected report %.200s (%v)", command, data, err)
	}
	res := h.Results[0]
	return sample{Wall: res.Times[0], User: res.User, Sys: res.System}, nil
}

// limited keeps the first n bytes written to it and drops the rest: a command's
// standard error, for the message when it fails.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if k := min(len(p), l.n); k > 0 {
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// drainRead reads r to its end and drops what it reads, 1 MiB at a time: io.Discard's
// ReadFrom reads 8 KiB at a time, a quarter of what a pipe holds.
func drainRead(r io.Reader) error {
	buf := make([]byte, 1<<20)
	for {
		_, err := r.Read(buf)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
