package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --too-long: what a record longer than --max-record gets, in every mode that prints or
// counts records, with the report and the status each choice has.
func TestTooLong(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	in := "a\nbbbbbbbbbbbb\nc\nddddddddd\neeeeeeeee\nf"
	require.NoError(t, os.WriteFile(file, []byte(in), 0o644))
	for _, tc := range []struct {
		args   []string
		out    string
		errs   string
		status int
	}{
		{[]string{"--too-long", "stop"}, "a\n", "foreach: " + file + ": record at line 2 (offset 2) is longer than --max-record 4 B\n", 1},
		{nil, "a\n", "foreach: " + file + ": record at line 2 (offset 2) is longer than --max-record 4 B\n", 1},
		{[]string{"--too-long", "skip"}, "a\nc\nf", "foreach: " + file + ": 3 records longer than --max-record 4 B skipped\n", 0},
		{[]string{"--too-long=skip", "-n"}, "     1\ta\n     3\tc\n     6\tf", "foreach: " + file + ": 3 records longer than --max-record 4 B skipped\n", 0},
		{[]string{"--too-long", "skip", "-H", "-n"}, file + ":1:a\n" + file + ":3:c\n" + file + ":6:f\n", "foreach: " + file + ": 3 records longer than --max-record 4 B skipped\n", 0},
		{[]string{"--too-long", "cut"}, "a\nbbbb\nc\ndddd\neeee\nf", "foreach: " + file + ": 3 records longer than --max-record 4 B cut\n", 0},
		{[]string{"--too-long", "cut", "-C", "--ors", ";"}, "a;bbbb;c;dddd;eeee;f;", "foreach: " + file + ": 3 records longer than --max-record 4 B cut\n", 0},
		{[]string{"--too-long", "skip", "-c"}, "3 " + file + "\n", "foreach: " + file + ": 3 records longer than --max-record 4 B skipped\n", 0},
		{[]string{"--too-long", "cut", "-c"}, "6 " + file + "\n", "foreach: " + file + ": 3 records longer than --max-record 4 B cut\n", 0},
		{[]string{"--too-long", "cut", "--reverse"} /* as tac: the unterminated last record runs on */, "feeee\ndddd\nc\nbbbb\na\n", "foreach: " + file + ": 3 records longer than --max-record 4 B cut\n", 0},
		{[]string{"--too-long", "skip", "--last", "2"}, "f", "foreach: " + file + ": 1 record longer than --max-record 4 B skipped\n", 0},
	} {
		args := append(append([]string{"--max-record", "4"}, tc.args...), file)
		out, errs, status := runCmd(t, "", args...)
		assert.Equal(t, tc.out, out, "%q", args)
		assert.Equal(t, tc.errs, errs, "%q", args)
		assert.Equal(t, tc.status, status, "%q", args)
	}
}

// A record of 64 MiB is skipped or cut in memory bounded by about --max-record, from
// standard input too (the streaming path): what is printed is exactly the rest.
func TestTooLongLongRecordFromStdin(t *testing.T) {
	long := strings.Repeat("x", 64<<20)
	for _, how := range []string{"skip", "cut"} {
		out, errs, status := runCmd(t, "first\n"+long+"\nlast\n", "--max-record", "1KiB", "--too-long", how)
		want := "first\nlast\n"
		if how == "cut" {
			want = "first\n" + long[:1024] + "\nlast\n"
		}
		assert.Equal(t, len(want), len(out), how)
		assert.True(t, out == want, how)
		assert.Contains(t, errs, "1 record longer than --max-record 1.0 KiB", how)
		assert.Equal(t, 0, status, how)
	}
}

func TestTooLongUsage(t *testing.T) {
	_, errs, status := runCmd(t, "", "--too-long", "skip", "f")
	assert.Equal(t, "foreach: --too-long has no effect without --max-record\nTry 'foreach --help' for more information.\n", errs)
	assert.Equal(t, 2, status)
	_, errs, status = runCmd(t, "", "--max-record", "4", "--too-long", "drop", "f")
	assert.Equal(t, "foreach: invalid --too-long argument 'drop': not one of stop, skip, cut\nTry 'foreach --help' for more information.\n", errs)
	assert.Equal(t, 2, status)
}
