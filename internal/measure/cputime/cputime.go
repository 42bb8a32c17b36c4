// Package cputime reads the CPU time of the whole process, for benchmarks and tests that
// report CPU time beside wall time: a loop that puts another core to work (the garbage
// collector's workers, a parallel reader) costs what all its threads used.
package cputime

import "time"

// Now returns the user plus system CPU time the process has used so far, over all its
// threads, and whether the platform reports it.
func Now() (time.Duration, bool) { return now() }
