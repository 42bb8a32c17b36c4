//go:build !race

package blockz_test

const raceEnabled = false
