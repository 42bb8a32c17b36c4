//go:build !unix

package bzblock_test

func cpuTime() int64 { return 0 }
