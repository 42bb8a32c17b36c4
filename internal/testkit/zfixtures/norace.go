//go:build !race

package zfixtures

// Race is whether the race detector is on.
const Race = false
