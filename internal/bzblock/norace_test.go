//go:build !race

package bzblock

const raceEnabled = false
