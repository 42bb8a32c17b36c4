package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// usage samples what a process uses: its descriptors (the most seen), its CPU time
// (user and system, in clock ticks of 10 ms), and its peak memory (VmHWM).
type usage struct {
	pid     int
	mu      sync.Mutex
	maxFDs  int
	stopped chan struct{}
	ended   chan struct{}
}

// sample starts sampling pid's descriptors every 50 ms, until stop.
func sample(pid int) *usage {
	u := &usage{pid: pid, stopped: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(u.ended)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			u.note()
			select {
			case <-u.stopped:
				return
			case <-tick.C:
			}
		}
	}()
	return u
}

func (u *usage) note() {
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", u.pid))
	if err != nil {
		return
	}
	u.mu.Lock()
	u.maxFDs = max(u.maxFDs, len(entries))
	u.mu.Unlock()
}

func (u *usage) stop() int {
	close(u.stopped)
	<-u.ended
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.maxFDs
}

// cpuTicks is pid's user and system CPU time so far, in clock ticks (1/100 s on Linux).
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, which is in parentheses and may hold spaces.
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	return utime + stime, nil
}

// peakKiB is pid's peak resident memory (VmHWM), in KiB.
func peakKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// idleCPU is the share of a core pid uses over d while nothing is written.
func idleCPU(pid int, d time.Duration) (float64, error) {
	before, err := cpuTicks(pid)
	if err != nil {
		return 0, err
	}
	time.Sleep(d)
	after, err := cpuTicks(pid)
	if err != nil {
		return 0, err
	}
	return float64(after-before) * 10 / float64(d.Milliseconds()), nil // ticks of 10 ms, as a share of d
}
