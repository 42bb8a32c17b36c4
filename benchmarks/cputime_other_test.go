//go:build !unix

package benchmarks

// cpuTime is not measured where getrusage is missing: the cpu-ns/op metric is
// then left out rather than reported wrong.
func cpuTime() (int64, bool) { return 0, false }
