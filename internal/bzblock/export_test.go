package bzblock

// CPUTime is the process's CPU time so far, for the benchmarks of
// package bzblock_test.
var CPUTime = cpuTime

// RaceEnabled says whether the race detector is on: the tests decode less.
const RaceEnabled = raceEnabled
