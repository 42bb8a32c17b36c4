//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// peakRSS is the process's peak resident memory in bytes.
func peakRSS() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss), true // bytes there
	}
	return int64(ru.Maxrss) * 1024, true // kilobytes on Linux and the BSDs
}
