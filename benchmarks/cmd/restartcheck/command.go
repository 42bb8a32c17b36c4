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

// commandScenario: a writer appends a record every millisecond, logrotate rotates the
// log (create, date suffix, compress, delaycompress) every 1.1 s, and `foreach -f
// --state` follows it, killed with SIGKILL after a random 0.2 to 1.5 s, kills times, and
// started again (every third time after a pause in which a rotation happens). At the end
// the writer stops and a last run prints the rest, ended with SIGTERM once it has.
func commandScenario(foreach, logrotate, dir string, kills int, seed uint64) (result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return result{}, err
	}
	name, state := filepath.Join(dir, "app.log"), filepath.Join(dir, "follow.state")
	conf := name + " {\n" + libraryConfs[0].body + "}\n"
	if err := os.WriteFile(filepath.Join(dir, "lr.conf"), []byte(conf), 0o644); err != nil {
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
	var out bytes.Buffer
	for k := range kills {
		cmd := exec.Command(foreach, "-f", "--state", state, name)
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			return result{}, err
		}
		time.Sleep(200*time.Millisecond + time.Duration(rng.Int64N(int64(1300*time.Millisecond))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
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
	if err := lastRun(foreach, name, state, &out, n); err != nil {
		return result{}, err
	}
	res := tally(out.String(), 0, n)
	res.kills, res.rotations = kills, int(rotations.Load())
	return res, nil
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
// the last of the n records (or after 30 s).
func lastRun(foreach, name, state string, out *bytes.Buffer, n int) error {
	var tail bytes.Buffer
	cmd := exec.Command(foreach, "-f", "--state", state, name)
	cmd.Stdout = &syncWriter{w: &tail}
	if err := cmd.Start(); err != nil {
		return err
	}
	last := strings.TrimSuffix(record(n-1), "\n")
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(cmd.Stdout.(*syncWriter).String(), last) {
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("the last run: %w", err)
	}
	out.Write(tail.Bytes())
	return nil
}
