//go:build race

package zfixtures

// Race is whether the race detector is on: it makes decoding tens of times slower, so
// that the tests read less text under it (the concurrency they check is the same).
const Race = true
