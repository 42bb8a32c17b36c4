//go:build unix

package benchmarks

import "syscall"

// cpuTime returns the user plus system CPU time of the whole process so far, in
// nanoseconds, and whether it is known. The whole process, not the calling
// thread: read-ahead reads and cuts records on a second goroutine, and its core's
// time is part of what a contender costs.
func cpuTime() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
