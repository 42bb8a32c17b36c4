package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// killRange is when a run of the command scenario is killed: a random time in [min,
// min+span) after it starts.
type killRange struct{ min, span time.Duration }

// commandScenario: a writer appends a record every millisecond, logrotate rotates the
// log (conf) every 1.1 s, and `foreach -f --state` follows it, killed with SIGKILL at a
// random time of after, kills times, and started again (every third time after a pause
// in which a rotation happens). At the end the writer stops and a last run prints the
// rest, ended with SIGTERM once it has.
func commandScenario(foreach, logrotate, dir string, conf rotateConf, kills int, after killRange, seed uint64) (result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return result{}, err
	}
	name, state := filepath.Join(dir, "app.log"), filepath.Join(dir, "follow.state")
	lr := name + " {\n" + conf.body + "}\n"
	if err := os.WriteFile(filepath.Join(dir, "lr.conf"), []byte(lr), 0o644); err != nil {
		return result{}, err
	}
	if err := appendRecords(name, 0, 1); err != nil {
		return result{}, err
	}
	var written, rotations atomic.Int64
	written.Store(1)
	stop := make(chan struct{})
	errs := make(chan error, 2)
	go func() { errs <- writeEveryMs(name, &written, stop) }()
	go func() { errs <- rotateEvery(logrotate, dir, &rotations, stop) }()
	rng := rand.New(rand.NewPCG(seed, 29))
	var outs []string
	for k := range kills {
		var out bytes.Buffer
		cmd := exec.Command(foreach, "-f", "--state", state, name)
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			return result{}, err
		}
		if k == 0 {
			waitFile(state) // a first run killed before it saved anything is no restart
		}
		time.Sleep(after.min + time.Duration(rng.Int64N(int64(after.span))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		outs = append(outs, out.String())
		if k%3 == 2 {
			time.Sleep(1200 * time.Millisecond) // down while a rotation comes
		}
	}
	close(stop)
	for range 2 {
		if err := <-errs; err != nil {
			return result{}, err
		}
	}
	n := int(written.Load())
	last, err := lastRun(foreach, name, state, n)
	if err != nil {
		return result{}, err
	}
	res := tally(append(outs, last), 0, n)
	res.kills, res.rotations = kills, int(rotations.Load())
	res.onNoFile, err = countOnNoFile(dir, filepath.Base(name), res.lostSeqs)
	return res, err
}

// waitFile waits until the file at path exists (30 s at most).
func waitFile(path string) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
}

// writeEveryMs appends a record every millisecond until stop.
func writeEveryMs(name string, written *atomic.Int64, stop chan struct{}) error {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return nil
		case <-tick.C:
			seq := int(written.Load())
			if err := appendRecords(name, seq, seq+1); err != nil {
				return err
			}
			written.Add(1)
		}
	}
}

// rotateEvery runs logrotate every 1.1 s until stop.
func rotateEvery(logrotate, dir string, rotations *atomic.Int64, stop chan struct{}) error {
	tick := time.NewTicker(1100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return nil
		case <-tick.C:
			if err := rotate(logrotate, dir); err != nil {
				return err
			}
			rotations.Add(1)
		}
	}
}

// lastRun starts the command once more and ends it with SIGTERM once it has printed
// the last of the n records (or after 30 s), and returns what it printed.
func lastRun(foreach, name, state string, n int) (string, error) {
	var tail bytes.Buffer
	cmd := exec.Command(foreach, "-f", "--state", state, name)
	cmd.Stdout = &syncWriter{w: &tail}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	last := strings.TrimSuffix(record(n-1), "\n")
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(cmd.Stdout.(*syncWriter).String(), last) {
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("the last run: %w", err)
	}
	return tail.String(), nil
}
