package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// A usage error of foreach bench is one line and a pointer to its help, not the whole
// usage, and exits 2.
func TestBenchUsageErrorIsOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--runs", "0"}, "foreach bench: invalid --runs argument '0': must be at least 1\n"},
		{[]string{"--no-such-flag"}, "foreach bench: unrecognized option '--no-such-flag'\n"},
	} {
		var out, errs bytes.Buffer
		code := runBench(tc.args, &out, &errs)
		require.Equal(t, 2, code, "%v", tc.args)
		require.Empty(t, out.String(), "%v", tc.args)
		require.Equal(t, tc.msg+benchTryHelp, errs.String(), "%v", tc.args)
	}
}
