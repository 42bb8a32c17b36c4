// Package shape holds the repository's test of its own shape: no struct outside the tests
// has more than MaxFields fields, and no function more than MaxLines lines, in any module
// of the repository. State the reader can see at once is part of the design: a struct
// that outgrows it is split into parts with their invariants, as the engine's is.
package shape

// The limits the test holds every non-test file of the repository to.
const (
	MaxFields = 15
	MaxLines  = 60
)
