package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/follow"
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

// Several FILEs without -H: tail -F's header before the records of a FILE whenever the
// FILE printed changes, a blank line before each but the first; with -n, each FILE
// numbered on its own; with -H, no headers.
func TestFollowCommandHeaders(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		want  []string // the output after each step
	}{
		{nil, []string{"==> A <==\na1\n", "\n==> B <==\nb1\n", "\n==> A <==\na2\n", "a3\n", "\n==> B <==\nb2\n"}},
		{[]string{"-n"}, []string{"==> A <==\n     1\ta1\n", "\n==> B <==\n     1\tb1\n", "\n==> A <==\n     2\ta2\n", "     3\ta3\n", "\n==> B <==\n     2\tb2\n"}},
		{[]string{"-H"}, []string{"A:a1\n", "B:b1\n", "A:a2\n", "A:a3\n", "B:b2\n"}},
	} {
		t.Run(strings.Join(append([]string{"-f"}, tc.flags...), " "), func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
			fa, fb := openLog(t, a), openLog(t, b)
			appendFile(t, fa, "a1\n")
			p := startFollow(t, append(append([]string{"-f"}, tc.flags...), a, b)...)
			named := func(s string) string { return strings.NewReplacer("A", a, "B", b).Replace(s) }
			p.expect(t, named(tc.want[0]))
			appendFile(t, fb, "b1\n")
			p.expect(t, named(tc.want[1]))
			appendFile(t, fa, "a2\n")
			p.expect(t, named(tc.want[2]))
			appendFile(t, fa, "a3\n")
			p.expect(t, named(tc.want[3]))
			appendFile(t, fb, "b2\n")
			p.expect(t, named(tc.want[4]))
			p.terminate(t, "")
		})
	}
}

// readState waits for the state file and returns its lines' checkpoints, by name.
func readState(t *testing.T, state string) map[string]follow.Checkpoint {
	t.Helper()
	deadline := time.Now().Add(outputDeadline)
	for {
		data, err := os.ReadFile(state)
		if err == nil && len(data) > 0 {
			cps := map[string]follow.Checkpoint{}
			for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				var cp follow.Checkpoint
				require.NoError(t, cp.UnmarshalText([]byte(line)))
				cps[cp.Name] = cp
			}
			return cps
		}
		if time.Now().After(deadline) {
			t.Fatalf("no state file within %v", outputDeadline)
		}
		time.Sleep(time.Millisecond)
	}
}

// Regression test for the records lost when the command was killed before its first
// save (issue 38: the state was written a second after the start, and not at all
// before): the state names the file from the first moment, before any record is
// printed, so that a kill then and a rotation while the command is down lose nothing,
// whether the log is renamed away or copied and truncated.
func TestFollowCommandStateFromTheFirstMoment(t *testing.T) {
	for _, mode := range []string{"rename", "copytruncate"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			name, state := filepath.Join(dir, "app.log"), filepath.Join(dir, "state")
			f := openLog(t, name)
			appendFile(t, f, "zero\n")
			p := startFollow(t, "-f", "--state", state, name)
			p.expect(t, "zero\n")
			_, err := os.Stat(state)
			require.NoError(t, err, "no state when the first record is printed")
			require.NoError(t, p.cmd.Process.Kill())
			p.cmd.Wait()
			appendFile(t, f, "one\ntwo\n")
			time.Sleep(20 * time.Millisecond) // the next file's times in a later tick
			if mode == "rename" {
				require.NoError(t, os.Rename(name, name+".1"))
				f = openLog(t, name)
			} else {
				data, err := os.ReadFile(name)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(name+".1", data, 0o644))
				require.NoError(t, os.Truncate(name, 0))
			}
			appendFile(t, f, "three\n")
			p = startFollow(t, "-f", "--state", state, name)
			var out []string
			for deadline := time.Now().Add(outputDeadline); !slices.Contains(out, "three") && time.Now().Before(deadline); {
				out = append(out, readLines(t, p)...)
			}
			// zero again if the kill came before the state's next save
			if out[0] == "zero" {
				out = out[1:]
			}
			require.Equal(t, []string{"one", "two", "three"}, out)
			p.terminate(t, "")
		})
	}
}

// Checkpoints are kept under the FILE's cleaned absolute path: followed as ./app.log from
// its directory, then by its absolute path, the second run goes on where the first
// stopped; a state file written by round 4 (names as typed, no mod=) still loads.
func TestFollowCommandStateKeys(t *testing.T) {
	dir := t.TempDir()
	name, state := filepath.Join(dir, "app.log"), filepath.Join(dir, "state")
	f := openLog(t, name)
	appendFile(t, f, "one\ntwo\n")
	p := startFollowIn(t, dir, "-f", "--state", state, "./app.log")
	p.expect(t, "one\ntwo\n")
	p.terminate(t, "")
	require.Contains(t, readState(t, state), name, "the state's key")
	appendFile(t, f, "three\n")
	p = startFollow(t, "-f", "--state", state, name)
	p.expect(t, "three\n")
	p.terminate(t, "")

	// Round 4's form: the name as typed, relative to where the command ran.
	cp := readState(t, state)[name]
	text, err := cp.MarshalText()
	require.NoError(t, err)
	old := strings.Replace(string(text), strconv.Quote(name), strconv.Quote("app.log"), 1)
	old = regexp.MustCompile(` mod=-?\d+`).ReplaceAllString(old, "")
	require.NoError(t, os.WriteFile(state, []byte(old+"\n"), 0o644))
	appendFile(t, f, "four\n")
	p = startFollowIn(t, dir, "-f", "--state", state, "app.log")
	p.expect(t, "four\n")
	p.terminate(t, "")
}

// The state never goes back: a save whose text was taken before the last save's is not
// written (a timer's save that lost the race with the final one).
func TestSaverNeverGoesBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	s, _, err := loadState(path)
	require.NoError(t, err)
	require.NoError(t, s.write([]byte("new\n"), 2))
	require.NoError(t, s.write([]byte("old\n"), 1))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new\n", string(data))
}
