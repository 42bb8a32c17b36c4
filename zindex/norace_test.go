//go:build !race

package zindex_test

const raceEnabled = false
