//go:build race

package decompress_test

// raceEnabled: the race detector makes the tests several times slower; the long ones
// do less under it.
const raceEnabled = true
