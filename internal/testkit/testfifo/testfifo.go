// Package testfifo makes named pipes for tests, in one place for every package that
// tests how it reads from a FIFO. Where the platform has none, the test is skipped.
package testfifo

import (
	"path/filepath"
	"testing"
)

// Make creates a FIFO called name in a fresh temporary directory of t and returns its
// path; it skips t where FIFOs cannot be made.
func Make(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := mkfifo(path); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return path
}
