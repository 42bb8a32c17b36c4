//go:build race

package bzblock

// Under the race detector (the package starts no goroutine: there is no
// race to find), the tests decode less.
const raceEnabled = true
