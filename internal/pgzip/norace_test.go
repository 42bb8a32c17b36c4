//go:build !race

package pgzip_test

const underRace = false
