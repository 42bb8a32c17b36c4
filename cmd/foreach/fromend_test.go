package main

// --last and --reverse against tail and tac, byte for byte, on the exactness inputs and
// random ones, from files and from a pipe, at read sizes down to one byte.

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolFiltering runs a tool of the system with input on its standard input, or skips
// the test where it is missing.
func toolFiltering(t *testing.T, input, name string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("no %s", name)
	}
	cmd := exec.Command(name, args...)
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.Output()
	require.NoError(t, err, "%s %q", name, args)
	return string(out)
}

// fromEndFiles is exactFiles and random files over the separators the tests use.
func fromEndFiles(t *testing.T) []string {
	dir := t.TempDir()
	names := exactFiles(t, dir)
	rng := rand.New(rand.NewPCG(30, 9))
	for i := range 6 {
		var b []byte
		for range rng.IntN(3000) {
			b = append(b, "ab\n\r\x00x"[rng.IntN(6)])
		}
		name := filepath.Join(dir, "sep-random-"+strconv.Itoa(i))
		require.NoError(t, os.WriteFile(name, b, 0o666))
		names = append(names, name)
	}
	return names
}

// runFromFileAndPipe runs foreach with args on file, then with the file's bytes on
// standard input (read as a stream), and requires both outputs to be want.
func runFromFileAndPipe(t *testing.T, file, want string, args ...string) {
	t.Helper()
	out, errs, status := runCmd(t, "", append(args, file)...)
	require.Equal(t, 0, status, errs)
	if out != want {
		t.Fatalf("foreach %q %s differs: %s", args, file, diffAround(out, want))
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	out, errs, status = runCmd(t, string(data), args...)
	require.Equal(t, 0, status, errs)
	if out != want {
		t.Fatalf("foreach %q < %s differs: %s", args, file, diffAround(out, want))
	}
}

// diffAround says where got and want differ, with a few bytes around.
func diffAround(got, want string) string {
	i := firstDiff(got, want)
	lo := max(0, i-20)
	return fmt.Sprintf("at byte %d of %d (want %d):\n got %q\nwant %q", i, len(got), len(want), got[lo:min(len(got), i+20)], want[lo:min(len(want), i+20)])
}

// readSizes are the --buffer values for an input of the file's size: down to one byte
// for small inputs (a larger one at one byte a read would only make the test slow).
func readSizes(t *testing.T, file string) []string {
	fi, err := os.Stat(file)
	require.NoError(t, err)
	if fi.Size() < 4096 {
		return []string{"1", "7", "64KiB"}
	}
	return []string{"7", "64KiB"}
}

func TestLastMatchesTail(t *testing.T) {
	for _, file := range fromEndFiles(t) {
		for _, n := range []string{"0", "1", "3", "100000"} {
			want := toolOutput(t, "tail", "-n", n, file)
			wantZ := toolOutput(t, "tail", "-z", "-n", n, file)
			for _, size := range readSizes(t, file) {
				runFromFileAndPipe(t, file, want, "--last", n, "--buffer", size)
				runFromFileAndPipe(t, file, wantZ, "--last", n, "-0", "--buffer", size)
			}
		}
	}
}

func TestReverseMatchesTac(t *testing.T) {
	for _, file := range fromEndFiles(t) {
		for _, sep := range []string{"", "\r\n", "ab", "x"} {
			args := []string{"--reverse"}
			tacArgs := []string{file}
			if sep != "" {
				args = append(args, "--sep", sep)
				tacArgs = append([]string{"-s", sep}, tacArgs...)
			}
			want := toolOutput(t, "tac", tacArgs...)
			for _, size := range readSizes(t, file) {
				runFromFileAndPipe(t, file, want, append(args, "--buffer", size)...)
			}
		}
	}
}

// Several files: tail's headers ("==> NAME <==", a blank line before all but the first;
// the line an unterminated file leaves open ends there), tac's none.
func TestSeveralFilesMatchTailAndTac(t *testing.T) {
	names := fromEndFiles(t)
	want := toolOutput(t, "tail", append([]string{"-n", "2"}, names...)...)
	out, errs, status := runCmd(t, "", append([]string{"--last", "2"}, names...)...)
	require.Equal(t, 0, status, errs)
	assert.Equal(t, want, out)
	want = toolOutput(t, "tac", names...)
	out, errs, status = runCmd(t, "", append([]string{"--reverse"}, names...)...)
	require.Equal(t, 0, status, errs)
	assert.Equal(t, want, out)
	// tail names standard input "standard input"; a missing file is reported and skipped.
	dir := t.TempDir()
	b := filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(b, []byte("1\n2\n"), 0o666))
	out, errs, status = runCmd(t, "x\ny", "--last", "1", filepath.Join(dir, "missing"), "-", b)
	assert.Equal(t, 1, status)
	assert.Contains(t, errs, "missing")
	assert.Equal(t, "==> standard input <==\ny\n==> "+b+" <==\n2\n", out)
}

// -n numbers what is printed from 1, as `tail -n N | cat -n` and `tac | cat -n` do: after
// an unterminated last record, which tac prints first, the record before it runs on
// on the same line and has no number of its own.
func TestNumberWhatIsPrinted(t *testing.T) {
	for _, file := range fromEndFiles(t) {
		want := toolFiltering(t, toolOutput(t, "tail", "-n", "5", file), "cat", "-n")
		runFromFileAndPipe(t, file, want, "--last", "5", "-n", "--buffer", "7")
		want = toolFiltering(t, toolOutput(t, "tac", file), "cat", "-n")
		runFromFileAndPipe(t, file, want, "--reverse", "-n", "--buffer", "7")
	}
}

// --last with --reverse: the last N records, last first.
func TestLastReverse(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, []byte("1\n2\n3\n4"), 0o666))
	runFromFileAndPipe(t, file, "43\n2\n", "--last", "3", "--reverse")
	runFromFileAndPipe(t, file, "4\n3\n2\n", "--last", "3", "--reverse", "-C")
	runFromFileAndPipe(t, file, "", "--last", "0", "--reverse")
}

// Input that cannot be read backwards: compressed input with -z, and options that are
// not splittable with --last, which then reads forward and keeps the last N.
func TestLastOfInputReadForward(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("a\nb\nc\n"))
	require.NoError(t, w.Close())
	file := filepath.Join(dir, "f.gz")
	require.NoError(t, os.WriteFile(file, gz.Bytes(), 0o666))
	runFromFileAndPipe(t, file, "b\nc\n", "--last", "2", "-z")
	runFromFileAndPipe(t, file, "c\nb\na\n", "--reverse", "-z")

	para := filepath.Join(dir, "p")
	require.NoError(t, os.WriteFile(para, []byte("a\n\n\n\nb\nb\n\n\nc"), 0o666))
	runFromFileAndPipe(t, para, "b\nb\n\nc", "--last", "2", "-p")
	runFromFileAndPipe(t, para, "b\nb|c|", "--last", "2", "-p", "-C", "--ors", "|")
	runFromFileAndPipe(t, para, "\n\nc", "--last", "3", "--limit", "1")
}

// A pipe read with --reverse is kept in a temporary file in $TMPDIR, gone afterwards.
func TestReverseLeavesNoTemporaryFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out, errs, status := runCmd(t, "a\nb\n", "--reverse")
	require.Equal(t, 0, status, errs)
	assert.Equal(t, "b\na\n", out)
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left)
}

func TestFromEndUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--reverse", "-c"}, "--reverse cannot be used with --count"},
		{[]string{"--reverse", "-f", "x"}, "--reverse cannot be used with --follow"},
		{[]string{"--reverse", "-p"}, "--reverse cannot be used with --paragraph"},
		{[]string{"--reverse", "--whole"}, "--reverse cannot be used with --whole"},
		{[]string{"--reverse", "-l", "3"}, "--reverse cannot be used with --limit"},
		{[]string{"--reverse", "--sep", "aa"}, "--reverse cannot be used with --sep 'aa'"},
		{[]string{"--last", "3", "-c"}, "--last cannot be used with --count"},
		{[]string{"--last", "-1"}, "invalid --last argument '-1': must be at least 0"},
		{[]string{"--last", "x"}, "invalid --last argument 'x': not a whole number"},
	} {
		out, errs, status := runCmd(t, "", tc.args...)
		assert.Equal(t, 2, status, "%q", tc.args)
		assert.Empty(t, out)
		assert.True(t, strings.HasPrefix(errs, "foreach: "+tc.want), "%q: %s", tc.args, errs)
		assert.Equal(t, 2, strings.Count(errs, "\n"), "one line, then the pointer to --help")
	}
}

// Which sizes --last and --reverse trust to read a file backwards from: a size that
// is where the data ends, or that a larger file has grown past since; not 0, not a
// size the data falls short of, not a page the data runs past.
func TestSizeIsEnd(t *testing.T) {
	data := bytes.Repeat([]byte("x\n"), 6000)
	for _, tc := range []struct {
		data []byte
		size int64
		want bool
	}{
		{data[:20], 20, true},
		{data[:1], 1, true},
		{nil, 0, false},
		{data[:20], 0, false},          // /proc
		{data[:20], kernelPage, false}, // /sys
		{data[:20], 19, false},         // a page that reads more
		{data, kernelPage, false},
		{data, kernelPage + 1, true}, // a file grown since it was opened
		{data, int64(len(data)) + 1, false},
	} {
		assert.Equal(t, tc.want, sizeIsEnd(bytes.NewReader(tc.data), tc.size), "%d bytes of size %d", len(tc.data), tc.size)
	}
}

// --last 0 over several files prints nothing, not even tail's headers, as tail -n 0
// (found by TestDiffAgainstTools: the headers were printed).
func TestLastZeroPrintsNoHeaders(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(a, []byte("a\n"), 0o666))
	require.NoError(t, os.WriteFile(b, []byte("b\n"), 0o666))
	for _, args := range [][]string{{"--last", "0"}, {"--last", "0", "--reverse"}} {
		out, errs, status := runCmd(t, "", append(args, a, b)...)
		assert.Equal(t, 0, status, errs)
		assert.Empty(t, out, "%q", args)
	}
	out, _, _ := runCmd(t, "", "--last", "1", a, b)
	assert.Equal(t, "==> "+a+" <==\na\n\n==> "+b+" <==\nb\n", out)
}
