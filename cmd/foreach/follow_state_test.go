package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Several FILEs at once, as tail -F a b: each record whole, -H naming its file; a FILE
// that does not exist yet is waited for with one message, and read from its start when
// it appears.
func TestFollowCommandSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	fa := openLog(t, a)
	appendFile(t, fa, "a1\n")
	p := startFollow(t, "-f", "-H", a, b)
	p.expect(t, a+":a1\n")
	waitStderr(t, p, "foreach: "+b+": No such file or directory; waiting for it to appear\n")
	fb := openLog(t, b)
	appendFile(t, fb, "b1\nb")
	p.expect(t, b+":b1\n")
	appendFile(t, fa, "a2\n")
	p.expect(t, a+":a2\n")
	appendFile(t, fb, "2\n")
	p.expect(t, b+":b2\n")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, p.cmd.Wait())
	require.Equal(t, "foreach: "+b+": No such file or directory; waiting for it to appear\n", p.stderr(), "one message")
}

// waitStderr waits until the command has written want on standard error.
func waitStderr(t *testing.T, p *followProc, want string) {
	t.Helper()
	deadline := time.Now().Add(outputDeadline)
	for p.stderr() != want {
		if time.Now().After(deadline) {
			t.Fatalf("stderr %q, want %q", p.stderr(), want)
		}
		time.Sleep(time.Millisecond)
	}
}

// -f --last N: the last N records, then what is appended, as tail -n N -F.
func TestFollowCommandLast(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := openLog(t, name)
	appendFile(t, f, "1\n2\n3\n4\n")
	p := startFollow(t, "-f", "--last", "2", name)
	p.expect(t, "3\n4\n")
	appendFile(t, f, "5\n")
	p.expect(t, "5\n")
	p.terminate(t, "")
}

// --state, with the command killed with SIGKILL at moments the test does not choose,
// while the log is written and rotated: started again, it prints nothing partial and
// loses nothing; what it prints twice is at most what came after the last save.
func TestFollowCommandStateSurvivesSIGKILL(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.log")
	state := filepath.Join(dir, "state")
	var printed []string
	seq := 0
	f := openLog(t, name)
	for round := range 4 {
		p := startFollow(t, "-f", "--state", state, name)
		for range 50 {
			appendFile(t, f, fmt.Sprintf("seq=%d\n", seq))
			seq++
		}
		if round%2 == 1 {
			require.NoError(t, os.Rename(name, fmt.Sprintf("%s.%d", name, round)))
			f = openLog(t, name)
		}
		appendFile(t, f, fmt.Sprintf("seq=%d\n", seq))
		seq++
		waitStateOrOutput(t, p, state)
		require.NoError(t, p.cmd.Process.Kill())
		p.cmd.Wait()
		out := readAvailable(t, p)
		printed = append(printed, out...)
	}
	p := startFollow(t, "-f", "--state", state, name)
	want := fmt.Sprintf("seq=%d\n", seq-1)
	var last string
	deadline := time.Now().Add(outputDeadline)
	for last != want && time.Now().Before(deadline) {
		lines := readLines(t, p)
		printed = append(printed, lines...)
		if len(lines) > 0 {
			last = lines[len(lines)-1] + "\n"
		}
	}
	checkAtLeastOnce(t, printed, seq)
}

// waitStateOrOutput waits until the command has saved its state once: the kill then
// comes at a moment the command's timing, not the test, chooses.
func waitStateOrOutput(t *testing.T, p *followProc, state string) {
	t.Helper()
	deadline := time.Now().Add(outputDeadline)
	for {
		if _, err := os.Stat(state); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no state file within %v (stderr %q)", outputDeadline, p.stderr())
		}
		time.Sleep(time.Millisecond)
	}
}

// readAvailable reads what the command wrote before it was killed.
func readAvailable(t *testing.T, p *followProc) []string {
	t.Helper()
	require.NoError(t, p.out.SetReadDeadline(time.Now().Add(outputDeadline)))
	var b strings.Builder
	buf := make([]byte, 1<<16)
	for {
		n, err := p.out.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return splitLines(t, b.String())
}

// readLines reads what comes within a short while.
func readLines(t *testing.T, p *followProc) []string {
	t.Helper()
	require.NoError(t, p.out.SetReadDeadline(time.Now().Add(100*time.Millisecond)))
	buf := make([]byte, 1<<16)
	n, _ := p.out.Read(buf)
	return splitLines(t, string(buf[:n]))
}

// splitLines splits output into its lines, failing on a partial one.
func splitLines(t *testing.T, s string) []string {
	t.Helper()
	if s == "" {
		return nil
	}
	require.True(t, strings.HasSuffix(s, "\n"), "partial output: %q", s)
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// checkAtLeastOnce checks that printed holds seq=0..n-1, each at least once, in order
// but for repeats that go back.
func checkAtLeastOnce(t *testing.T, printed []string, n int) {
	t.Helper()
	seen := make([]int, n)
	for _, line := range printed {
		var k int
		_, err := fmt.Sscanf(line, "seq=%d", &k)
		require.NoError(t, err, "garbled record %q", line)
		require.Less(t, k, n, "record %q", line)
		seen[k]++
	}
	for k, c := range seen {
		require.NotZero(t, c, "seq=%d lost", k)
	}
}

// Issue 37: a crafted --state file whose checkpoint names more bytes before its offset
// than the offset (tail=64 at off=5), with the file at the name changed and a rotated
// gzip copy beside it whose first bytes match the checkpoint's, made the resume slice
// before the start of those bytes and panic. It is refused, with a message naming the
// state file, before anything is followed.
func TestFollowCommandRefusesCraftedState(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.log")
	require.NoError(t, os.WriteFile(name, []byte("other\n"), 0o666))
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("hello\nworld\n"))
	require.NoError(t, w.Close())
	require.NoError(t, os.WriteFile(name+".1.gz", gz.Bytes(), 0o666))
	head := sha256.Sum256([]byte("hel"))
	line := fmt.Sprintf("foreach-follow/1 off=5 head=3:%x tail=64:%x name=%q\n", head[:16], head[:16], name)
	state := filepath.Join(dir, "state")
	require.NoError(t, os.WriteFile(state, []byte(line), 0o666))
	out, errs, status := runCmd(t, "", "-f", "--state", state, name)
	require.Equal(t, 1, status, errs)
	require.Empty(t, out)
	require.True(t, strings.HasPrefix(errs, "foreach: "+state+": line 1: follow: not a checkpoint"), errs)
}
