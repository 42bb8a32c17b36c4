//go:build race

package blockz

// Under the race detector, which makes decoding ten times slower, the
// differential tests read fewer damaged variants: the concurrency they
// check is the same in every variant.
const raceEnabled = true
