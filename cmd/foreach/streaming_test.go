package main

// Streaming: when an input is a pipe, terminal, socket or FIFO, the command writes
// what it has before any read that may wait, so the reader of its output sees each
// record while the input is still open. These tests keep the input open, and wait for
// the expected output with a deadline: a command that holds its output until the input
// ends never delivers it, and the read fails at the deadline instead of hanging.

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/foreachio/foreach/internal/testkit/testfifo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outputDeadline bounds the wait for output that must come while the input is open. It
// is no measure of speed: the output is due at once, and the deadline only turns a
// command that would hold it forever into a failure instead of a hung test.
const outputDeadline = 20 * time.Second

// pipeRun is the command running in-process on pipes: the test writes to in and reads
// from out; the command's exit status arrives on done.
type pipeRun struct {
	in   *os.File // the write end of standard input
	out  *os.File // the read end of standard output
	done chan int
}

func startPipeRun(t *testing.T, args ...string) *pipeRun {
	t.Helper()
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	// A file for standard error: the progress bar writes to it from the command's
	// goroutine while the test reads nothing from it.
	errf, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	p := &pipeRun{in: inW, out: outR, done: make(chan int, 1)}
	go func() {
		status := run(args, inR, outW, errf)
		inR.Close()
		outW.Close()
		errf.Close()
		p.done <- status
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
	})
	return p
}

// expect reads from the command's output until it has exactly want, failing if the
// output differs or does not come before the deadline.
func (p *pipeRun) expect(t *testing.T, want string) {
	t.Helper()
	require.NoError(t, p.out.SetReadDeadline(time.Now().Add(outputDeadline)))
	got := make([]byte, 0, len(want))
	buf := make([]byte, len(want))
	for len(got) < len(want) {
		n, err := p.out.Read(buf[:len(want)-len(got)])
		got = append(got, buf[:n]...)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("output %q, then nothing while the input stays open; want %q", got, want)
		}
		require.NoError(t, err, "output %q, want %q", got, want)
	}
	require.Equal(t, want, string(got))
}

// finish closes standard input and checks the rest of the output and the exit status.
func (p *pipeRun) finish(t *testing.T, rest string, status int) {
	t.Helper()
	require.NoError(t, p.in.Close())
	require.NoError(t, p.out.SetReadDeadline(time.Now().Add(outputDeadline)))
	got, err := io.ReadAll(p.out)
	require.NoError(t, err)
	assert.Equal(t, rest, string(got))
	assert.Equal(t, status, <-p.done)
}

func (p *pipeRun) write(t *testing.T, s string) {
	t.Helper()
	_, err := p.in.Write([]byte(s))
	require.NoError(t, err)
}

// Each mode delivers every complete record while standard input stays open, pause after
// pause, and the rest when it ends.
func TestStreamingStdinPipe(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		first  string // written, then the input pauses
		want1  string // output due during the pause
		second string
		want2  string
		last   string // written before the input ends
		rest   string // output after the end
	}{
		{nil, "a\n", "a\n", "bb\nc", "bb\n", "\n", "c\n"},
		{[]string{"-n"}, "a\n", "     1\ta\n", "bb\nc", "     2\tbb\n", "", "     3\tc"},
		{[]string{"-H"}, "a\n", "(standard input):a\n", "b\n", "(standard input):b\n", "c", "(standard input):c\n"},
		{[]string{"-C", "--ors", ";"}, "a\n", "a;", "b\n", "b;", "", ""},
		{[]string{"--stats"}, "a\n", "a\n", "b\n", "b\n", "c\n", "c\n"},
		{[]string{"--buffer", "1"}, "a\n", "a\n", "b\n", "b\n", "", ""},
		{[]string{"-0", "-C"}, "a\x00", "a\n", "b\x00", "b\n", "", ""},
		{[]string{"--progress", "-n"}, "a\n", "     1\ta\n", "b\n", "     2\tb\n", "", ""},
		// The last paragraph has no blank line after it, so nothing to chomp.
		{[]string{"-p", "-C"}, "a\nb\n\n", "a\nb\n", "c\n\n\n", "c\n", "d\n", "d\n\n"},
	} {
		t.Run(flagsName(tc.args), func(t *testing.T) {
			p := startPipeRun(t, tc.args...)
			p.write(t, tc.first)
			p.expect(t, tc.want1)
			p.write(t, tc.second)
			p.expect(t, tc.want2)
			p.write(t, tc.last)
			p.finish(t, tc.rest, 0)
		})
	}
}

// With -c the records are counted, not printed: what must not wait is the count of an
// earlier file while standard input (or a FIFO) is still open, also with --progress
// and --stats.
func TestStreamingCountBeforeWaitingInput(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	require.NoError(t, os.WriteFile(a, []byte("1\n2\n"), 0o644))
	for _, extra := range [][]string{nil, {"--progress"}, {"--stats"}, {"--progress", "--stats", "-j1"}} {
		t.Run(flagsName(extra), func(t *testing.T) {
			args := append(append([]string{"-c"}, extra...), a, "-", a)
			p := startPipeRun(t, args...)
			p.expect(t, "2 "+a+"\n")
			p.write(t, "x\ny\nz\n")
			p.finish(t, "3 -\n2 "+a+"\n7 total\n", 0)
		})
	}
}

// A FIFO named on the command line: opening it waits for a writer, and reading it waits
// for data; the output of the files before it, and its own records, come before that.
func TestStreamingNamedFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := testfifo.Make(t, "fifo")
	a := filepath.Join(dir, "a.txt")
	require.NoError(t, os.WriteFile(a, []byte("from a\n"), 0o644))
	for _, args := range [][]string{{"-n"}, {"-c"}} {
		t.Run(flagsName(args), func(t *testing.T) {
			p := startPipeRun(t, append(args, a, fifo)...)
			if args[0] == "-n" {
				p.expect(t, "     1\tfrom a\n")
			} else {
				p.expect(t, "1 "+a+"\n")
			}
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = w.Write([]byte("x\n"))
			require.NoError(t, err)
			if args[0] == "-n" {
				p.expect(t, "     2\tx\n")
			}
			_, err = w.Write([]byte("y\n"))
			require.NoError(t, err)
			require.NoError(t, w.Close())
			if args[0] == "-n" {
				p.finish(t, "     3\ty\n", 0)
			} else {
				p.finish(t, "2 "+fifo+"\n3 total\n", 0)
			}
		})
	}
}

// A closed output pipe noticed when writing before a read ends the run quietly, while
// the input is still open: the command does not wait for the input to end.
func TestStreamingClosedOutputEndsTheRun(t *testing.T) {
	p := startPipeRun(t, "-n")
	p.write(t, "a\n")
	p.expect(t, "     1\ta\n")
	require.NoError(t, p.out.Close())
	// The next record cannot be written: before its next read the command finds the
	// pipe closed, stops reading and exits 0.
	p.write(t, "b\n")
	select {
	case status := <-p.done:
		assert.Equal(t, 0, status)
	case <-time.After(outputDeadline):
		t.Fatal("the command still runs after its output was closed")
	}
}

// Regular files never make a read wait, so their output is not flushed per read: a
// writer that counts calls sees one write for many small records.
func TestRegularFileOutputInLargeWrites(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	// 2,000 lines: with the -H or -n prefixes still well under the output buffer.
	data := bytes.Repeat([]byte("0123456789\n"), 2000)
	require.NoError(t, os.WriteFile(file, data, 0o644))
	for _, args := range [][]string{{"-n"}, {"-H"}, {"-C"}, {"--stats"}, {"--buffer", "1KiB", "-n"}} {
		w := &countingWriter{}
		status := run(append(args, file), nil, w, io.Discard)
		assert.Equal(t, 0, status, "%q", args)
		assert.Equal(t, 1, w.writes, "%q: writes to standard output", args)
	}
}

type countingWriter struct{ writes int }

func (w *countingWriter) Write(p []byte) (int, error) { w.writes++; return len(p), nil }

func flagsName(args []string) string {
	if len(args) == 0 {
		return "plain"
	}
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}
