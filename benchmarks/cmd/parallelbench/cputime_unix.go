//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the user plus system CPU time of the whole process so far, every thread
// counted: a parallel contender's second core shows here and not in wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
