package main

// Hostile inputs and faults for the command: thousands of files (no descriptor leaked),
// /dev/zero with --max-record, a FIFO, standard input that fails or times out midway,
// and nothing written to standard output after it failed. Byte-exactness over many
// --buffer sizes is in exact_test.go; missing, unreadable and directory arguments in
// testdata/script/errors.txtar.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/testkit/testfifo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openFDs counts this process's open file descriptors (Linux), or -1.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// 2,000 tiny files: every one is printed (and counted), in order, and no file stays
// open afterwards. hostile_manyfiles.txtar runs 5,000 under ulimit -n 64.
func TestHostileManyFilesNoDescriptorLeak(t *testing.T) {
	dir := t.TempDir()
	const n = 2000
	names := make([]string, n)
	var want bytes.Buffer
	for i := range names {
		names[i] = filepath.Join(dir, fmt.Sprintf("f%04d", i))
		line := fmt.Sprintf("%d\n", i)
		if i%7 == 0 {
			line = line[:len(line)-1] // some without a final newline
		}
		require.NoError(t, os.WriteFile(names[i], []byte(line), 0o644))
		want.WriteString(line)
	}
	before := openFDs()
	out, errs, status := runCmd(t, "", append([]string{"--buffer=1KiB"}, names...)...)
	require.Equal(t, 0, status, errs)
	require.True(t, out == want.String(), "the output is not the files' concatenation")

	out, errs, status = runCmd(t, "", append([]string{"-c", "-j2"}, names...)...)
	require.Equal(t, 0, status, errs)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, n+1)
	require.Equal(t, names[n-1]+"", strings.TrimPrefix(lines[n-1], "1 "))
	require.Equal(t, fmt.Sprintf("%d total", n), lines[n])
	if before >= 0 {
		assert.LessOrEqual(t, openFDs(), before, "file descriptors leaked")
	}
}

// /dev/zero never ends a record: --max-record fails it after about SIZE bytes with the
// usual message, prints nothing of it, and goes on with the next file.
func TestHostileDevZeroMaxRecord(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	file := filepath.Join(t.TempDir(), "after")
	require.NoError(t, os.WriteFile(file, []byte("after\n"), 0o644))
	const msg = "foreach: /dev/zero: record at line 1 (offset 0) is longer than --max-record 1.0 MiB\n"
	for _, args := range [][]string{
		{"--max-record", "1MiB"},
		{"--max-record", "1MiB", "--buffer", "4KiB"},
		{"--max-record", "1MiB", "-p"},
		{"--max-record", "1MiB", "--whole"},
		{"--max-record", "1MiB", "-n", "-H", "-C"},
	} {
		out, errs, status := runCmd(t, "", append(args, "/dev/zero", file)...)
		assert.Equal(t, 1, status, "%q", args)
		assert.Equal(t, msg, errs, "%q", args)
		assert.NotContains(t, out, "\x00", "%q", args)
		assert.Contains(t, out, "after", "%q", args)

		if slices.Contains(args, "-n") {
			continue // -n, -H and -C have no effect with -c: a usage error (usage_test.go)
		}
		out, errs, status = runCmd(t, "", append(append([]string{"-c"}, args...), "/dev/zero", file)...)
		assert.Equal(t, 1, status, "-c %q", args)
		assert.Equal(t, msg, errs, "-c %q", args)
		assert.Equal(t, "1 "+file+"\n1 total\n", out, "-c %q", args)
	}
}

// A FIFO is read as a stream: printed byte for byte, and counted by -c (whose parallel
// sections need a regular file, so -j falls back to one sequential read).
func TestHostileFIFO(t *testing.T) {
	name := testfifo.Make(t, "fifo")
	var in bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&in, "line %d\x00\xff\r\n", i)
	}
	in.WriteString("last, unterminated")
	for _, args := range [][]string{{}, {"--buffer=7"}, {"-c"}, {"-c", "-j4"}, {"-c", "--stats"}} {
		done := make(chan error, 1)
		go func() {
			w, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				done <- err
				return
			}
			for p := in.Bytes(); len(p) > 0 && err == nil; p = p[min(len(p), 4093):] {
				_, err = w.Write(p[:min(len(p), 4093)])
			}
			w.Close()
			done <- err
		}()
		out, errs, status := runCmd(t, "", append(args, name)...)
		require.NoError(t, <-done)
		require.Equal(t, 0, status, "%q: %s", args, errs)
		if len(args) > 0 && args[0] == "-c" {
			assert.Equal(t, fmt.Sprintf("20001 %s\n", name), out, "%q", args)
		} else {
			assert.True(t, out == in.String(), "%q: output differs from what was written to the FIFO", args)
		}
	}
}

var errStdin = errors.New("input/output error")

// Standard input that fails midway: everything it delivered is printed (the last,
// unterminated line included), the error is reported under (standard input), the
// files after it are still processed, and the exit status is 1.
func TestHostileStdinFailsMidway(t *testing.T) {
	file := filepath.Join(t.TempDir(), "next")
	require.NoError(t, os.WriteFile(file, []byte("next\n"), 0o644))
	for _, tc := range []struct {
		name  string
		stdin func() io.Reader
		data  string // what standard input delivers before it fails
		data1 string // the same with --buffer=1, when it differs
		err   string
	}{
		{"error", func() io.Reader {
			return io.MultiReader(strings.NewReader("a\nbb\nccc"), iotest.ErrReader(errStdin))
		}, "a\nbb\nccc", "", "input/output error"},
		{"one byte then error", func() io.Reader {
			return io.MultiReader(iotest.OneByteReader(strings.NewReader("a\nbb\nccc")), iotest.ErrReader(errStdin))
		}, "a\nbb\nccc", "", "input/output error"},
		// The second read times out: with --buffer=1 the first delivered one byte.
		{"timeout", func() io.Reader { return iotest.TimeoutReader(strings.NewReader("a\nbb\nccc")) }, "a\nbb\nccc", "a", "timeout"},
		{"unexpected EOF", func() io.Reader {
			return io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(io.ErrUnexpectedEOF))
		}, "a\nb", "", "unexpected EOF"},
	} {
		for _, args := range [][]string{{}, {"--buffer=1"}, {"-n"}, {"-c"}} {
			var out, errb bytes.Buffer
			status := run(append(args, "-", file), tc.stdin(), &out, &errb)
			what := fmt.Sprintf("%s %q", tc.name, args)
			assert.Equal(t, 1, status, what)
			assert.Equal(t, "foreach: (standard input): "+tc.err+"\n", errb.String(), what)
			switch {
			case len(args) == 0:
				assert.Equal(t, tc.data+"next\n", out.String(), what)
			case args[0] == "--buffer=1":
				data := tc.data
				if tc.data1 != "" {
					data = tc.data1
				}
				assert.Equal(t, data+"next\n", out.String(), what)
			case args[0] == "-n":
				// As cat -n: the unterminated last line runs on into the next file.
				var want strings.Builder
				for i, line := range strings.SplitAfter(tc.data+"next\n", "\n") {
					if line != "" {
						fmt.Fprintf(&want, "%6d\t%s", i+1, line)
					}
				}
				assert.Equal(t, want.String(), out.String(), what)
			case args[0] == "-c":
				assert.Equal(t, "1 "+file+"\n1 total\n", out.String(), what)
			}
		}
	}
}

// closedPipe accepts limit bytes, then fails every write with EPIPE, as a pipe whose
// reader has gone; it counts the writes tried after the first failure.
type closedPipe struct {
	n, limit int
	failed   bool
	after    int
}

func (w *closedPipe) Write(p []byte) (int, error) {
	if w.failed {
		w.after++
		return 0, syscall.EPIPE
	}
	if w.n+len(p) > w.limit {
		w.failed = true
		k := w.limit - w.n
		w.n = w.limit
		return k, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
	}
	w.n += len(p)
	return len(p), nil
}

// After standard output fails, nothing more is written to it, whatever the flags; a
// closed pipe is quiet and a full disk is reported once.
func TestHostileNothingWrittenAfterOutputFails(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := range 5 {
		name := filepath.Join(dir, fmt.Sprintf("f%d", i))
		require.NoError(t, os.WriteFile(name, bytes.Repeat([]byte("0123456789abcdef\n"), 5000), 0o644))
		names = append(names, name)
	}
	for _, args := range [][]string{{}, {"-n", "-H"}, {"-C", "--ors=\\0"}, {"-c"}, {"--stats"}, {"-p", "--buffer=3"}} {
		for _, limit := range []int{0, 1, 1000, 300000} {
			w := &closedPipe{limit: limit}
			var errb bytes.Buffer
			status := run(append(args, names...), strings.NewReader(""), w, &errb)
			what := fmt.Sprintf("%q limit %d", args, limit)
			assert.Zero(t, w.after, "%s: writes after the pipe closed", what)
			if w.failed {
				assert.Equal(t, 0, status, what)
				if len(args) == 0 || args[0] != "--stats" {
					assert.Empty(t, errb.String(), what)
				}
			}
		}
	}
	var errb bytes.Buffer
	status := run(names, strings.NewReader(""), failWriter{}, &errb)
	assert.Equal(t, 1, status)
	assert.Equal(t, "foreach: write error: No space left on device\n", errb.String())
}

// Regression: --buffer 1EB panicked (makeslice: cap out of range) and --buffer 1TB died
// with "fatal error: runtime: out of memory", both with exit status 2 and a stack trace,
// since the buffer is allocated before the first read. A buffer over 1 GiB is now a
// usage error.
func TestHostileHugeBufferIsAUsageError(t *testing.T) {
	for _, size := range []string{"1EB", "9223372036854775807", "1TB", "2GiB"} {
		out, errs, status := runCmd(t, "a\n", "--buffer", size)
		assert.Equal(t, 2, status, size)
		assert.Empty(t, out, size)
		assert.Equal(t, "foreach: invalid --buffer argument '"+size+"': at most 1.0 GiB\n"+tryHelp, errs, size)
	}
	out, errs, status := runCmd(t, "a\n", "--buffer", "1MiB")
	assert.Equal(t, 0, status, errs)
	assert.Equal(t, "a\n", out)
}

// The same for foreach bench, which panicked on --buffer 1EB after printing its header.
func TestHostileBenchHugeBufferIsAUsageError(t *testing.T) {
	out, errs, status := runCmd(t, "", "bench", "--buffer", "1EB", os.DevNull)
	assert.Equal(t, 2, status)
	assert.Empty(t, out)
	assert.True(t, strings.HasPrefix(errs, "foreach bench: invalid --buffer argument '1EB': at most 1.0 GiB\n"), errs)
}
