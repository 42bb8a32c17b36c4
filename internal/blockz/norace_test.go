//go:build !race

package blockz

const raceEnabled = false
