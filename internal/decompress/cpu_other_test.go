//go:build !unix

package decompress_test

// cpuTime is not measured here: the benchmarks report no cpu-ns/op.
func cpuTime() int64 { return 0 }
