package main

// Bounded memory: the modes that do not need a record whole pass a record of any length
// through in pieces. Each case runs the command as a child process (this test binary,
// see TestMain) over a 1 GiB file with no separator, checks the output byte for byte as
// it streams past, and reads the child's peak resident set size from the kernel.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runMainEnv makes the test binary run the command itself (TestMain).
const runMainEnv = "FOREACH_TEST_RUN_MAIN"

const (
	hugeRecord = 1 << 30  // one record of this many bytes
	maxRSS     = 64 << 20 // the most a piecewise mode may hold
)

// hugeRecordFile is a sparse file of hugeRecord zero bytes: one record without a
// separator, which costs no disk space and reads at the speed of memory.
func hugeRecordFile(t *testing.T) string {
	name := filepath.Join(t.TempDir(), "zeros")
	f, err := os.Create(name)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(hugeRecord))
	require.NoError(t, f.Close())
	return name
}

func TestBoundedMemoryHugeRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 1 GiB per case")
	}
	name := hugeRecordFile(t)
	command := commandProcess(t)
	for _, tc := range []struct {
		args           []string
		prefix, suffix string
	}{
		{nil, "", ""},
		{[]string{"-n"}, "     1\t", ""},
		{[]string{"-H"}, name + ":", "\n"},
		{[]string{"-n", "-H"}, name + ":1:", "\n"},
		{[]string{"-C"}, "", "\n"},
		{[]string{"--ors", `\r\n`}, "", "\r\n"},
		{[]string{"-C", "--sep", `\r\n`, "--ors", ";"}, "", ";"},
		{[]string{"-p"}, "", ""},
		{[]string{"--whole", "-n"}, "     1\t", ""},
		{[]string{"--stats"}, "", ""},
		{[]string{"-c"}, "", ""}, // checked below: the count, not the record
		{[]string{"-c", "--stats"}, "", ""},
		{[]string{"-c", "-p"}, "", ""},
	} {
		t.Run(flagsName(tc.args), func(t *testing.T) {
			cmd := command(append(tc.args, name)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			peak := watchRSS(cmd.Process.Pid)
			var checkErr error
			if len(tc.args) > 0 && tc.args[0] == "-c" {
				var got []byte
				got, checkErr = io.ReadAll(out)
				if checkErr == nil && string(got) != "1 "+name+"\n" {
					checkErr = fmt.Errorf("output %q, want %q", got, "1 "+name+"\n")
				}
			} else {
				checkErr = checkZeros(out, tc.prefix, hugeRecord, tc.suffix)
			}
			io.Copy(io.Discard, out)
			rss := peak()
			require.NoError(t, cmd.Wait(), "stderr: %s", stderr.String())
			require.NoError(t, checkErr)
			t.Logf("peak RSS %d MiB", rss>>20)
			assert.Positive(t, rss, "no reading of the child's memory")
			assert.Less(t, rss, int64(maxRSS), "peak RSS")
		})
	}
}

// With --max-record a record is refused before any of it is written, so it is held
// whole, but only up to the limit: the file is reported with the usual message, nothing
// of the record is printed, and memory stays bounded by the limit.
func TestBoundedMemoryMaxRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("reads up to 1 GiB per case")
	}
	name := hugeRecordFile(t)
	command := commandProcess(t)
	for _, args := range [][]string{{"--buffer", "64KiB"}, {"-n"}, {"-p"}, {"--whole"}, {"-p", "-C"}, {"-c"}, {"--stats", "-H"}} {
		t.Run(flagsName(args), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			var err error
			var rss int64
			// The refusal comes within milliseconds: a child that ends before its
			// memory is first read is run again, a few times at most.
			for attempt := 0; attempt < 5 && rss == 0; attempt++ {
				cmd := command(append(args, "--max-record", "4MiB", name)...)
				stdout.Reset()
				stderr.Reset()
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				require.NoError(t, cmd.Start())
				peak := watchRSS(cmd.Process.Pid)
				err = cmd.Wait()
				rss = peak()
			}
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, 1, ee.ExitCode())
			assert.Empty(t, stdout.String())
			msg := "foreach: " + name + ": record at line 1 (offset 0) is longer than --max-record 4.0 MiB\n"
			if args[0] == "--stats" {
				assert.True(t, strings.HasPrefix(stderr.String(), msg), stderr.String())
			} else {
				assert.Equal(t, msg, stderr.String())
			}
			t.Logf("peak RSS %d MiB", rss>>20)
			assert.Positive(t, rss, "no reading of the child's memory")
			assert.Less(t, rss, int64(maxRSS), "peak RSS")
		})
	}
}

// watchRSS follows the peak resident set size of process pid (VmHWM in /proc/PID/status)
// until the returned function is called, which returns it. Not the rusage of wait: the
// command starts by vfork from this test process, and Linux keeps the test process's own
// high-water mark in the child's ru_maxrss through the exec (measured: 110 MiB under the
// race detector for a command that holds 7 MiB). VmHWM belongs to the new program alone.
// The readings stop when the process has exited; its peak comes early (the buffers), so
// the last reading is its peak.
func watchRSS(pid int) func() int64 {
	done := make(chan struct{})
	result := make(chan int64, 1)
	go func() {
		var peak int64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
				for _, line := range strings.Split(string(b), "\n") {
					if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
						var n int64
						fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), &n)
						peak = max(peak, n<<10)
					}
				}
			}
			select {
			case <-done:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		return <-result
	}
}

// commandProcess returns a maker of the command as a child process: this test binary
// (see TestMain), or under the race detector, whose shadow memory would make the child's
// resident size meaningless (and 1 GiB slow to pass), the command built without it.
func commandProcess(t *testing.T) func(args ...string) *exec.Cmd {
	t.Helper()
	if !raceEnabled {
		return func(args ...string) *exec.Cmd {
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), runMainEnv+"=1")
			return cmd
		}
	}
	path := filepath.Join(t.TempDir(), "foreach")
	if out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput(); err != nil {
		t.Skipf("no command built without the race detector: go build: %v\n%s", err, out)
	}
	return func(args ...string) *exec.Cmd { return exec.Command(path, args...) }
}

// checkZeros reads r to its end and checks that it is prefix, n zero bytes, then suffix.
func checkZeros(r io.Reader, prefix string, n int64, suffix string) error {
	br := bufio.NewReaderSize(r, 1<<20)
	head := make([]byte, len(prefix))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != prefix {
		return fmt.Errorf("output starts %q (%v), want %q", head, err, prefix)
	}
	zeros := make([]byte, 1<<20)
	buf := make([]byte, 1<<20)
	for done := int64(0); done < n; {
		k, err := br.Read(buf[:min(int64(len(buf)), n-done)])
		if !bytes.Equal(buf[:k], zeros[:k]) {
			return fmt.Errorf("a byte other than 0 in the record's bytes %d to %d", done, done+int64(k))
		}
		done += int64(k)
		if err != nil {
			return fmt.Errorf("output ends after %d of the record's %d bytes: %v", done, n, err)
		}
	}
	rest, err := io.ReadAll(br)
	if err != nil || string(rest) != suffix {
		return fmt.Errorf("output ends %q (%v), want %q", rest, err, strings.ToValidUTF8(suffix, "?"))
	}
	return nil
}
