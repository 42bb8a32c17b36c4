package main

// foreach -f over many files (issue 44): patterns matched by the command itself and again
// as files appear, mixed with plain names; the files' starting contents in the order
// named; --state holding every file's checkpoint in one file; --max-open; a FIFO read as
// tail -f reads a pipe; the descriptor limit reached.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/testkit/testfifo"
)

// Issue 44: `foreach -f a b c` printed the files' starting contents in another order
// each run (c, a, b 7 times out of 10). They come in the order named, each whole, as
// tail -F prints them.
func TestFollowManyStartingOrder(t *testing.T) {
	dir := t.TempDir()
	var names []string
	var want strings.Builder
	for i, n := range []string{"c", "a", "b"} {
		name := filepath.Join(dir, n)
		require.NoError(t, os.WriteFile(name, []byte(strings.Repeat(n+"\n", 1000*(i+1))), 0o644))
		names = append(names, name)
		if i > 0 {
			want.WriteString("\n")
		}
		fmt.Fprintf(&want, "==> %s <==\n%s", name, strings.Repeat(n+"\n", 1000*(i+1)))
	}
	for range 5 {
		p := startFollow(t, append([]string{"-f"}, names...)...)
		p.expect(t, want.String())
		p.terminate(t, "")
	}
}

// A quoted pattern: the command matches it itself, and again as files appear; several
// patterns and plain names mix; headers name the file whenever the file printed
// changes, or -H labels every record.
func TestFollowManyPattern(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	require.NoError(t, os.Mkdir(logs, 0o755))
	a, b, plain := filepath.Join(logs, "a.log"), filepath.Join(logs, "b.log"), filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(b, []byte("b1\n"), 0o644))
	require.NoError(t, os.WriteFile(a, []byte("a1\n"), 0o644))
	require.NoError(t, os.WriteFile(plain, []byte("p1\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(logs, "x.txt"), []byte("not matched\n"), 0o644))
	p := startFollowIn(t, dir, "-f", "plain", "logs/*.log")
	p.expect(t, "==> plain <==\np1\n\n==> logs/a.log <==\na1\n\n==> logs/b.log <==\nb1\n")
	c := filepath.Join(logs, "c.log")
	appendFile(t, openLog(t, c), "c1\n")
	p.expect(t, "\n==> logs/c.log <==\nc1\n")
	appendFile(t, openLog(t, c), "c2\n")
	p.expect(t, "c2\n")
	appendFile(t, openLog(t, plain), "p2\n")
	p.expect(t, "\n==> plain <==\np2\n")
	p.terminate(t, "")

	p = startFollowIn(t, dir, "-f", "-H", "--from-end", "logs/*.log")
	waitFollowing(t, p.cmd.Process.Pid, a)
	appendFile(t, openLog(t, a), "a2\n")
	p.expect(t, "logs/a.log:a2\n")
	p.terminate(t, "")
}

// --state keeps every file's checkpoint in one file, one line each; started again the
// command goes on where it stopped in each file, and reads a file that appeared while
// it was down from its start.
func TestFollowManyState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	pattern := filepath.Join(dir, "*.log")
	var files []*os.File
	for i := range 3 {
		f := openLog(t, filepath.Join(dir, fmt.Sprintf("%d.log", i)))
		appendFile(t, f, fmt.Sprintf("%d-a\n", i))
		files = append(files, f)
	}
	p := startFollow(t, "-f", "-H", "--state", state, pattern)
	var want strings.Builder
	for i := range 3 {
		fmt.Fprintf(&want, "%s:%d-a\n", filepath.Join(dir, fmt.Sprintf("%d.log", i)), i)
	}
	p.expect(t, want.String())
	p.terminate(t, "")
	cps := readState(t, state)
	require.Len(t, cps, 3, "one checkpoint per file")
	for i := range 3 {
		name := filepath.Join(dir, fmt.Sprintf("%d.log", i))
		require.Equal(t, int64(4), cps[name].Offset, name)
	}
	appendFile(t, files[1], "1-b\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "3.log"), []byte("3-a\n"), 0o644))
	p = startFollow(t, "-f", "-H", "--state", state, pattern)
	p.expect(t, filepath.Join(dir, "1.log")+":1-b\n"+filepath.Join(dir, "3.log")+":3-a\n")
	p.terminate(t, "")
}

// --max-open N: at most N files open at once (and a few more for a moment), every record
// of many files printed all the same.
func TestFollowManyMaxOpen(t *testing.T) {
	dir := t.TempDir()
	const files = 30
	var want strings.Builder
	for i := range files {
		name := filepath.Join(dir, fmt.Sprintf("%02d.log", i))
		require.NoError(t, os.WriteFile(name, []byte(fmt.Sprintf("%d\n", i)), 0o644))
		fmt.Fprintf(&want, "%s:%d\n", name, i)
	}
	p := startFollow(t, "-f", "-H", "--max-open", "4", filepath.Join(dir, "*.log"))
	p.expect(t, want.String())
	worst := openIn(t, p.cmd.Process.Pid, dir)
	for round := range 3 {
		want.Reset()
		for i := files - 1; i >= 0; i -= 2 {
			name := filepath.Join(dir, fmt.Sprintf("%02d.log", i))
			appendFile(t, openLog(t, name), fmt.Sprintf("%d-%d\n", i, round))
			fmt.Fprintf(&want, "%s:%d-%d\n", name, i, round)
			p.expect(t, fmt.Sprintf("%s:%d-%d\n", name, i, round))
			worst = max(worst, openIn(t, p.cmd.Process.Pid, dir))
		}
	}
	p.terminate(t, "")
	assert.LessOrEqual(t, worst, 4+2, "files of the directory open at once, --max-open 4")
}

// openIn counts the files under dir that the process pid has open (0 where there is no
// /proc to tell).
func openIn(t *testing.T, pid int, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, e.Name()))
		if strings.HasPrefix(target, dir+string(filepath.Separator)) {
			n++
		}
	}
	return n
}

// Issue 44 item 7: the descriptor limit (ulimit -n) below --max-open closes idle files
// instead of failing: every record of more files than the limit is printed.
func TestFollowManyDescriptorLimit(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to set ulimit -n with")
	}
	dir := t.TempDir()
	const files = 60
	var want strings.Builder
	for i := range files {
		name := filepath.Join(dir, fmt.Sprintf("%02d.log", i))
		require.NoError(t, os.WriteFile(name, []byte(fmt.Sprintf("%d\n", i)), 0o644))
		fmt.Fprintf(&want, "%s:%d\n", name, i)
	}
	p := startFollowWith(t, exec.Command(sh, "-c", `ulimit -n 40 && exec "$0" "$@"`, os.Args[0], "-f", "-H", "--max-open", "1000", filepath.Join(dir, "*.log")))
	p.expect(t, want.String())
	for i := files - 1; i >= 0; i -= 7 {
		name := filepath.Join(dir, fmt.Sprintf("%02d.log", i))
		appendFile(t, openLog(t, name), "more\n")
		p.expect(t, name+":more\n")
	}
	p.terminate(t, "")
}

// A FIFO named by itself is read as tail -f reads a pipe: its records as they come, from
// one writer after another, until SIGTERM; beside a file followed by name.
func TestFollowManyFIFO(t *testing.T) {
	fifo := testfifo.Make(t, "pipe")
	file := filepath.Join(filepath.Dir(fifo), "file")
	require.NoError(t, os.WriteFile(file, []byte("f1\n"), 0o644))
	p := startFollow(t, "-f", "-H", file, fifo)
	p.expect(t, file+":f1\n")
	for _, s := range []string{"one\ntw", "o\n"} {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = w.WriteString(s)
		require.NoError(t, err)
		require.NoError(t, w.Close()) // the writer goes: no end of the FIFO's data
		time.Sleep(20 * time.Millisecond)
	}
	p.expect(t, fifo+":one\n"+fifo+":two\n")
	appendFile(t, openLog(t, file), "f2\n")
	p.expect(t, file+":f2\n")
	p.terminate(t, "")
}

// The usage of --max-open and --state, and what --help says of them.
func TestFollowManyFlags(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	require.NoError(t, os.WriteFile(log, []byte("a\n"), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-open", "3", log}, "--max-open has no effect without --follow"},
		{[]string{"-f", "--max-open", "0", log}, "invalid --max-open argument '0': must be at least 1"},
		{[]string{"-f", "--max-open", "x", log}, "invalid --max-open argument 'x': not a whole number"},
	} {
		stdout, stderr, status := runCmd(t, "", tc.args...)
		assert.Equal(t, 2, status, "%v", tc.args)
		assert.Empty(t, stdout, "%v", tc.args)
		assert.Equal(t, "foreach: "+tc.want+"\n"+tryHelp, stderr, "%v", tc.args)
	}
	help, _, status := runCmd(t, "", "--help")
	require.Equal(t, 0, status)
	assert.Contains(t, help, "--state FILE")
	assert.Contains(t, help, "--max-open N")
}
