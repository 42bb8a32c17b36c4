//go:build !unix

package main

import "time"

// cpuTime is unknown here: CPU columns read n/a.
func cpuTime() time.Duration { return 0 }
