//go:build !unix

package main

import (
	"os"
	"time"
)

// usage returns the CPU time (user and system) of a process that has
// exited; page faults are not known here.
func usage(ps *os.ProcessState) (time.Duration, int64) {
	return ps.UserTime() + ps.SystemTime(), 0
}
