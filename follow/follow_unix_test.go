//go:build unix

package follow

import (
	"errors"
	"github.com/foreachio/foreach/linereader"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO is refused at once, not opened (which would wait for a writer).
func TestFollowRefusesFIFO(t *testing.T) {
	name := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(name, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if r, err := Open(t.Context(), name, linereader.Options{}, Options{}); r != nil || !errors.Is(err, errNotRegular) {
		t.Fatalf("Follow of a FIFO = %v, %v; want errNotRegular", r, err)
	}
}
