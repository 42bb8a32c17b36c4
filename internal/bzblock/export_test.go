package bzblock

// CPUTime is the process's CPU time so far, for the benchmarks of
// package bzblock_test.
var CPUTime = cpuTime
