package tools_test

import (
	"testing"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// A tool that is missing, fails, or writes nothing is reported as not having done its
// job; one that works gives its output.
func TestOutput(t *testing.T) {
	for _, tc := range []struct {
		command string
		input   string
		ok      bool
	}{
		{"no-such-tool-of-foreach", "x", false},
		{"false", "x", false},
		{"true", "x", false}, // nothing written from input
		{"cat", "x", true},
		{"true", "", true}, // nothing from nothing
	} {
		out, ok := tools.Output(t, tc.command, []byte(tc.input))
		if _, err := lookPath(tc.command); err != nil && tc.ok {
			continue
		}
		if ok != tc.ok || ok && string(out) != tc.input && tc.command == "cat" {
			t.Errorf("%s: %q, %v; want ok %v", tc.command, out, ok, tc.ok)
		}
	}
}
