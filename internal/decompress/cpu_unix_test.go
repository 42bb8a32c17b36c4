//go:build unix

package decompress_test

import "syscall"

// cpuTime returns the user and system CPU time of the process so far, in
// nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
