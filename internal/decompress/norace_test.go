//go:build !race

package decompress_test

const raceEnabled = false
