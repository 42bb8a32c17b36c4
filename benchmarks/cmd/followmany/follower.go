package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// record is one record as written: the file's number, the record's number in the file,
// and when it was written (nanoseconds, just before its write).
func record(file, seq int, at time.Time) []byte {
	return fmt.Appendf(nil, "f=%05d seq=%09d ts=%019d\n", file, seq, at.UnixNano())
}

// parse reads a record back; ok is false for anything else (a header, a blank line).
func parse(line string) (file, seq int, at int64, ok bool) {
	n, err := fmt.Sscanf(line, "f=%d seq=%d ts=%d", &file, &seq, &at)
	return file, seq, at, err == nil && n == 3
}

// follower is the follower's process, its output read as it comes.
type follower struct {
	cmd *exec.Cmd
	mu  sync.Mutex
	got map[[2]int]bool // the records printed, by file and seq
	lat []time.Duration // the latency of each record printed since the last take
	// quiet are the latencies of the records of every file but file 0 (fair's hot one)
	quiet []time.Duration
	junk  int           // lines that are no record of ours
	done  chan struct{} // closed when the output has ended
}

// startFollower starts the follower of dir's files (names: every file, for tail -F) and
// reads its output.
func startFollower(c config, dir string, names []string) (*follower, error) {
	var cmd *exec.Cmd
	switch c.follower {
	case "foreach":
		cmd = exec.Command(c.foreach, "-f", "--max-open", strconv.Itoa(c.maxOpen), filepath.Join(dir, "*.log"))
	case "tail":
		cmd = exec.Command("tail", append([]string{"-q", "-F", "-n", "1"}, names...)...)
	default:
		return nil, fmt.Errorf("unknown follower %q", c.follower)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	f := &follower{cmd: cmd, got: map[[2]int]bool{}, done: make(chan struct{})}
	go f.read(bufio.NewReaderSize(out, 1<<20))
	return f, nil
}

func (f *follower) read(r *bufio.Reader) {
	defer close(f.done)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		now := time.Now()
		file, seq, at, ok := parse(line)
		f.mu.Lock()
		if ok {
			f.got[[2]int{file, seq}] = true
			d := now.Sub(time.Unix(0, at))
			f.lat = append(f.lat, d)
			if file != 0 {
				f.quiet = append(f.quiet, d)
			}
		} else if strings.TrimSpace(line) != "" {
			f.junk++
		}
		f.mu.Unlock()
	}
}

// count is how many records have been printed.
func (f *follower) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.got)
}

// waitFor waits until n records have been printed, or the deadline passes; it reports
// whether they were.
func (f *follower) waitFor(n int, deadline time.Duration) bool {
	end := time.Now().Add(deadline)
	for f.count() < n {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// takeLatencies returns the latencies noted since the last call, sorted.
func (f *follower) takeLatencies() []time.Duration {
	f.mu.Lock()
	lat := f.lat
	f.lat, f.quiet = nil, nil
	f.mu.Unlock()
	slices.Sort(lat)
	return lat
}

// quietLatencies is takeLatencies for the records of every file but file 0.
func (f *follower) quietLatencies() []time.Duration {
	f.mu.Lock()
	lat := f.quiet
	f.lat, f.quiet = nil, nil
	f.mu.Unlock()
	slices.Sort(lat)
	return lat
}

// stop ends the follower with SIGTERM and waits for it.
func (f *follower) stop() {
	f.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-f.done:
	case <-time.After(10 * time.Second):
		f.cmd.Process.Kill()
	}
	f.cmd.Wait()
}

// percentile is the p-th percentile of sorted (0 when empty).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}
