package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runFiles calls run with real files for standard input and output, as the process has
// them: the plain copy may then let the kernel copy.
func runFiles(t *testing.T, stdin io.Reader, stdout *os.File, args ...string) (stderr string, status int) {
	t.Helper()
	var errb bytes.Buffer
	status = run(args, stdin, stdout, &errb)
	return errb.String(), status
}

// The plain copy into a regular file, whatever is already in it: a fresh file, one
// written to before by the same descriptor (the copy goes on at its offset), and one
// opened for appending (which the kernel will not copy into: the engine does).
func TestCopyIntoFileIsExact(t *testing.T) {
	dir := t.TempDir()
	names := exactFiles(t, dir)
	var all []byte
	for _, name := range names {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		all = append(all, b...)
	}
	for _, how := range []struct {
		name   string
		flags  int
		before string
	}{
		{"fresh", os.O_WRONLY | os.O_CREATE | os.O_TRUNC, ""},
		{"after a header", os.O_WRONLY | os.O_CREATE | os.O_TRUNC, "header\n"},
		{"appended", os.O_WRONLY | os.O_CREATE | os.O_APPEND, "earlier\n"},
	} {
		out := filepath.Join(dir, "out")
		require.NoError(t, os.WriteFile(out, nil, 0o644))
		f, err := os.OpenFile(out, how.flags, 0o644)
		require.NoError(t, err)
		_, err = f.WriteString(how.before)
		require.NoError(t, err)
		for _, args := range [][]string{names, {names[len(names)-1]}} {
			_, err := f.Seek(0, io.SeekEnd) // past what the previous round wrote
			require.NoError(t, err)
			start, err := os.Stat(out)
			require.NoError(t, err)
			errs, status := runFiles(t, strings.NewReader(""), f, args...)
			require.Equal(t, 0, status, errs)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			want := all
			if len(args) == 1 {
				want, err = os.ReadFile(args[0])
				require.NoError(t, err)
			}
			assert.True(t, bytes.Equal(got[start.Size():], want), "%s, %d files: the file's tail differs from the input", how.name, len(args))
			assert.Equal(t, how.before, string(got[:len(how.before)]), how.name)
		}
		require.NoError(t, f.Close())
	}
}

// The plain copy into a pipe, and into /dev/null, from regular files, from standard
// input that is a regular file read partly before (the copy starts where it stands),
// and with a pipe on standard input between two files (order kept).
func TestCopyIntoPipeIsExact(t *testing.T) {
	dir := t.TempDir()
	text := realText(t, 1<<20)
	a := filepath.Join(dir, "a")
	require.NoError(t, os.WriteFile(a, text, 0o644))
	b := filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(b, []byte("no newline at the end"), 0o644))

	copyTo := func(stdin io.Reader, args ...string) []byte {
		pr, pw, err := os.Pipe()
		require.NoError(t, err)
		got := make(chan []byte)
		go func() {
			b, _ := io.ReadAll(pr)
			got <- b
		}()
		errs, status := runFiles(t, stdin, pw, args...)
		require.NoError(t, pw.Close())
		require.Equal(t, 0, status, errs)
		return <-got
	}
	assert.True(t, bytes.Equal(copyTo(strings.NewReader(""), a), text), "a file into a pipe")

	in, err := os.Open(a)
	require.NoError(t, err)
	defer in.Close()
	_, err = in.Seek(1000, io.SeekStart)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(copyTo(in), text[1000:]), "standard input at an offset into a pipe")

	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	go func() {
		pw.WriteString("from the pipe\n")
		pw.Close()
	}()
	want := append(append(append([]byte{}, text...), "from the pipe\n"...), "no newline at the end"...)
	assert.True(t, bytes.Equal(copyTo(pr, a, "-", b), want), "a file, a pipe and a file into a pipe")

	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	errs, status := runFiles(t, strings.NewReader(""), null, a, b)
	assert.Equal(t, 0, status, errs)
	assert.Empty(t, errs)
}

// A reader that goes away midway ends the copy quietly, as with the engine's writes.
func TestCopyIntoClosedPipeIsQuiet(t *testing.T) {
	a := filepath.Join(t.TempDir(), "a")
	require.NoError(t, os.WriteFile(a, bytes.Repeat([]byte("0123456789abcdef\n"), 1<<16), 0o644))
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	go func() {
		io.CopyN(io.Discard, pr, 100_000)
		pr.Close()
	}()
	errs, status := runFiles(t, strings.NewReader(""), pw, a, a)
	pw.Close()
	assert.Equal(t, 0, status)
	assert.Empty(t, errs)
}

// A full device: the error is the output's, reported once, exit status 1, and the
// files after it are not read.
func TestCopyIntoFullDevice(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	a := filepath.Join(t.TempDir(), "a")
	require.NoError(t, os.WriteFile(a, []byte("a\nb\n"), 0o644))
	errs, status := runFiles(t, strings.NewReader(""), full, a, a, filepath.Join(t.TempDir(), "missing"))
	assert.Equal(t, 1, status)
	assert.Equal(t, "foreach: write error: No space left on device\n", errs)
}

// A file that standard output writes to is not copied into itself (which would not end
// while the copy reads what it has just written), as cat refuses; the other files are.
// An empty one, as a shell's > leaves it, is no error.
func TestCopyInputIsOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	require.NoError(t, os.WriteFile(out, []byte("kept\n"), 0o644))
	other := filepath.Join(dir, "other")
	require.NoError(t, os.WriteFile(other, []byte("other\n"), 0o644))
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	defer f.Close()
	for _, args := range [][]string{{out, other}, {"-n", out, other}} {
		errs, status := runFiles(t, strings.NewReader(""), f, args...)
		assert.Equal(t, 1, status, "%q", args)
		assert.Equal(t, "foreach: "+out+": input file is output file\n", errs, "%q", args)
	}
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "kept\nother\n     1\tother\n", string(got))

	empty := filepath.Join(dir, "empty")
	g, err := os.Create(empty)
	require.NoError(t, err)
	defer g.Close()
	errs, status := runFiles(t, strings.NewReader(""), g, empty, other)
	assert.Equal(t, 0, status, errs)
	got, err = os.ReadFile(empty)
	require.NoError(t, err)
	assert.Equal(t, "other\n", string(got))
}

// The progress bar moves with the kernel's copy too, and the copy is still exact.
func TestCopyWithProgressIsExact(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	text := realText(t, 1<<20)
	require.NoError(t, os.WriteFile(a, text, 0o644))
	out, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	defer out.Close()
	var errb bytes.Buffer
	status := run([]string{"--progress", a}, strings.NewReader(""), out, &errb)
	require.Equal(t, 0, status, errb.String())
	assert.Contains(t, errb.String(), "KiB")
	got, err := os.ReadFile(out.Name())
	require.NoError(t, err)
	assert.True(t, bytes.Equal(got, text))
}
