//go:build race

package zindex_test

// raceEnabled: the tests that decode many files decode fewer under -race,
// which makes the decoders ten to twenty times slower.
const raceEnabled = true
