package testfifo

import (
	"io/fs"
	"os"
	"testing"
)

func TestMakeMakesAFIFO(t *testing.T) {
	path := Make(t, "pipe")
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("%s is %v, want a named pipe", path, fi.Mode().Type())
	}
}
