//go:build unix

package linereader

import "syscall"

// cpuTime returns the user plus system CPU time of the whole process so far, in
// nanoseconds (0 when unknown): both goroutines' cores count.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
