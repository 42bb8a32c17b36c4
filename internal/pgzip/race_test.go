//go:build race

package pgzip_test

// underRace says that the race detector is on: the tests that decode the
// most do less (the detector makes decoding ten times slower).
const underRace = true
