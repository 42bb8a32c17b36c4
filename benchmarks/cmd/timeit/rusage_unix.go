//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// addRusage adds what wait4 reported beside the CPU times: the peak resident memory,
// minor page faults and context switches.
func addRusage(s *sample, ps *os.ProcessState) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return
	}
	s.MaxRSS = int64(ru.Maxrss)
	if runtime.GOOS == "darwin" {
		s.MaxRSS /= 1024 // bytes there, KiB on Linux and the BSDs
	}
	s.MinFlt, s.VCSw, s.IVCSw = int64(ru.Minflt), int64(ru.Nvcsw), int64(ru.Nivcsw)
}
