//go:build !unix

package bzblock

func cpuTime() int64 { return 0 }
