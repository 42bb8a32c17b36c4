//go:build !unix

package cputime

import "time"

// On platforms without getrusage the CPU time is unknown.
func now() (time.Duration, bool) { return 0, false }
