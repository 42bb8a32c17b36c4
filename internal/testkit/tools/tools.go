// Package tools runs the outside tools tests compare with (gzip, xz, zstd, bzip2,
// lz4, bgzip, ...), and answers the one question every such test shares: did the tool
// do its job? A tool that is not installed, exits with an error, or writes nothing for
// input that is not empty did not, and the test is skipped, saying so, rather than
// failed: the suite passes wherever the README's test command runs, whatever is
// installed (issue 43: zopfli -c reads no standard input and writes nothing). Only
// tests import it.
//
//	out := tools.Run(t, "xz -c -T2", input) // skips the test when xz did not make it
package tools

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// Output runs command (split at spaces) with input on its standard input and returns
// what it wrote, and false, logged, when the tool did not do its job: it is not
// installed, it failed, or it wrote nothing from input that is not empty.
func Output(t testing.TB, command string, input []byte) ([]byte, bool) {
	t.Helper()
	args := strings.Fields(command)
	path, err := exec.LookPath(args[0])
	if err != nil {
		t.Logf("%s is not installed", args[0])
		return nil, false
	}
	cmd := exec.Command(path, args[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Logf("%s: %v: %s", command, err, stderr.Bytes())
		return nil, false
	}
	if out.Len() == 0 && len(input) > 0 {
		t.Logf("%s wrote nothing from %d bytes", command, len(input))
		return nil, false
	}
	return out.Bytes(), true
}

// Run is Output that skips the test when the tool did not do its job.
func Run(t testing.TB, command string, input []byte) []byte {
	t.Helper()
	out, ok := Output(t, command, input)
	if !ok {
		t.Skipf("%s did not run (see the log)", command)
	}
	return out
}
