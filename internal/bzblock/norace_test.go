//go:build !race

package bzblock_test

const raceEnabled = false
