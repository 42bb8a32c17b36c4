package main

// foreach -f as a `tail -F` user drives it: the command runs as a process of its own
// with its output on a pipe, the test appends to the file, rotates it (by hand and with
// the real logrotate) and reads each record from the pipe as it comes, with a deadline
// (outputDeadline) that only turns a command that holds its output into a failure. It
// ends the command with SIGTERM, as a service manager does.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFollowUsageErrors(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	require.NoError(t, os.WriteFile(log, []byte("a\n"), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-f", "-c", log}, "--count cannot be used with --follow (a followed file never ends)"},
		{[]string{"-f", "-z", log}, "--decompress cannot be used with --follow (a compressed stream is not read as it grows)"},
		{[]string{"-f"}, "--follow needs a FILE"},
		{[]string{"-f", log, "-"}, "--follow takes a FILE, not standard input"},
		{[]string{"--state", log, log}, "--state has no effect without --follow"},
		{[]string{"--from-end", log}, "--from-end has no effect without --follow"},
		{[]string{"-f", "--whole", log}, "--whole cannot be used with --follow without --limit (its one record would never end)"},
		{[]string{"-f", "--progress", log}, "--progress cannot be used with --follow (a followed file has no end to show)"},
	} {
		stdout, stderr, status := runCmd(t, "", tc.args...)
		assert.Equal(t, 2, status, "%v", tc.args)
		assert.Empty(t, stdout, "%v", tc.args)
		assert.Equal(t, "foreach: "+tc.want+"\n"+tryHelp, stderr, "%v", tc.args)
	}
	// A name that cannot be followed is reported as any unreadable file is.
	_, stderr, status := runCmd(t, "", "-f", dir)
	assert.Equal(t, 1, status)
	assert.Equal(t, "foreach: "+dir+": Is a directory\n", stderr)
	// A state file that is not one is refused before anything is read.
	bad := filepath.Join(dir, "state")
	require.NoError(t, os.WriteFile(bad, []byte("not a checkpoint\n"), 0o644))
	stdout, stderr, status := runCmd(t, "", "-f", "--state", bad, log)
	assert.Equal(t, 1, status)
	assert.Empty(t, stdout)
	assert.Equal(t, "foreach: "+bad+": line 1: follow: not a checkpoint: \"not a checkpoint\"\n", stderr)
}

// followProc is `foreach ARGS` running as a child process, its output on a pipe.
type followProc struct {
	cmd  *exec.Cmd
	out  *os.File // the read end of its standard output
	errf string   // the file of its standard error
}

// stderr returns what the command has written on standard error so far.
func (p *followProc) stderr() string {
	b, _ := os.ReadFile(p.errf)
	return string(b)
}

func startFollow(t *testing.T, args ...string) *followProc {
	t.Helper()
	return startFollowIn(t, "", args...)
}

// startFollowIn starts `foreach ARGS` in the directory dir ("": the test's).
func startFollowIn(t *testing.T, dir string, args ...string) *followProc {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the test ends the command with SIGTERM")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	return startFollowWith(t, cmd)
}

// startFollowWith starts cmd, a command that runs `foreach` (the test binary) in the end.
func startFollowWith(t *testing.T, cmd *exec.Cmd) *followProc {
	t.Helper()
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	p := &followProc{out: outR, errf: filepath.Join(t.TempDir(), "stderr")}
	errf, err := os.Create(p.errf)
	require.NoError(t, err)
	defer errf.Close()
	p.cmd = cmd
	p.cmd.Env = append(os.Environ(), runMainEnv+"=1", "GORACE=atexit_sleep_ms=0")
	p.cmd.Stdout = outW
	p.cmd.Stderr = errf
	require.NoError(t, p.cmd.Start())
	outW.Close()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		p.cmd.Wait()
		outR.Close()
	})
	return p
}

// expect reads the command's output until it has want, failing if it differs or does
// not come before the deadline while the command runs on.
func (p *followProc) expect(t *testing.T, want string) {
	t.Helper()
	require.NoError(t, p.out.SetReadDeadline(time.Now().Add(outputDeadline)))
	buf := make([]byte, len(want))
	var got []byte
	for len(got) < len(want) {
		n, err := p.out.Read(buf[:len(want)-len(got)])
		got = append(got, buf[:n]...)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("output %q, then nothing; want %q (stderr %q)", got, want, p.stderr())
		}
		require.NoError(t, err, "output %q, want %q (stderr %q)", got, want, p.stderr())
	}
	require.Equal(t, want, string(got))
}

// terminate sends SIGTERM and checks the rest of the output and the exit status 0.
func (p *followProc) terminate(t *testing.T, rest string) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, p.out.SetReadDeadline(time.Now().Add(outputDeadline)))
	var got bytes.Buffer
	_, err := got.ReadFrom(p.out)
	require.NoError(t, err, "output after SIGTERM %q", got.String())
	assert.Equal(t, rest, got.String(), "output after SIGTERM")
	require.NoError(t, p.cmd.Wait(), "exit status after SIGTERM (stderr %q)", p.stderr())
	assert.Empty(t, p.stderr())
}

func appendFile(t *testing.T, f *os.File, s string) {
	t.Helper()
	_, err := f.WriteString(s)
	require.NoError(t, err)
}

func openLog(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// The command follows a log through rotation by rename, deletion and truncation, each
// record on the pipe as soon as it is complete, numbered across the files; SIGTERM ends
// it with status 0, and the record being written then is not printed.
func TestFollowCommandThroughRotation(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.log")
	f := openLog(t, name)
	appendFile(t, f, "one\ntwo\n")
	p := startFollow(t, "-f", "-n", name)
	p.expect(t, "     1\tone\n     2\ttwo\n")
	appendFile(t, f, "thr")
	appendFile(t, f, "ee\n")
	p.expect(t, "     3\tthree\n")

	require.NoError(t, os.Rename(name, name+".1"))
	g := openLog(t, name)
	appendFile(t, f, "four, late in the old file\nfive without newline")
	appendFile(t, g, "six\n")
	p.expect(t, "     4\tfour, late in the old file\n     5\tfive without newline\n     6\tsix\n")

	require.NoError(t, os.Remove(name))
	h := openLog(t, name)
	appendFile(t, h, "seven\n")
	p.expect(t, "     7\tseven\n")

	require.NoError(t, os.Truncate(name, 0))
	appendFile(t, h, "8\n")
	p.expect(t, "     8\t8\n")

	appendFile(t, h, "a record still being writ")
	waitRead(t, p.cmd.Process.Pid, name, 2+int64(len("a record still being writ")))
	p.terminate(t, "") // read, and not printed: it is not a record yet
}

// --from-end: only what is appended after the start, and the flags that shape records
// and output (-H, -C, --ors, --sep, -0, -p) apply.
func TestFollowCommandFlags(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		before, after string
		want          string
	}{
		{[]string{"--from-end"}, "old\npart", "ial\nnew\n", "partial\nnew\n"},
		{[]string{"-H", "--from-end"}, "old\n", "new\n", "LOG:new\n"},
		{[]string{"-C", "--ors", ";"}, "a\r\nb\n", "c\n", "a;b;c;"},
		{[]string{"--sep", "--"}, "a--b", "--c--", "a--b--c--"},
		{[]string{"-0", "-n"}, "a\x00b", "\x00", "     1\ta\x00     2\tb\x00"},
		{[]string{"-p", "-C"}, "p1\n\n\n\np2\n", "\n", "p1\np2\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "log")
			f := openLog(t, name)
			appendFile(t, f, tc.before)
			args := append(append([]string{"-f"}, tc.args...), name)
			p := startFollow(t, args...)
			want := strings.ReplaceAll(tc.want, "LOG", name)
			if slices.Contains(tc.args, "--from-end") {
				waitFollowing(t, p.cmd.Process.Pid, name)
			}
			appendFile(t, f, tc.after)
			p.expect(t, want)
			p.terminate(t, "")
		})
	}
}

// waitFollowing waits until the process pid has name open and its notifications set up,
// which Follow does after it has taken the file's end: what is appended after that is
// after the end.
func waitFollowing(t *testing.T, pid int, name string) {
	t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	if _, err := os.Stat(fds); err != nil {
		t.Skipf("no %s to see when the command has started following: %v", fds, err)
	}
	deadline := time.Now().Add(outputDeadline)
	for {
		entries, _ := os.ReadDir(fds)
		var file, watch bool
		for _, e := range entries {
			target, _ := os.Readlink(filepath.Join(fds, e.Name()))
			file = file || target == name
			watch = watch || target == "anon_inode:inotify"
		}
		if file && watch {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not open %s within %v", name, outputDeadline)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitRead waits until the process pid has read its open file name up to off (its
// offset in /proc's fdinfo), skipping the test where there is no /proc.
func waitRead(t *testing.T, pid int, name string, off int64) {
	t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	if _, err := os.Stat(fds); err != nil {
		t.Skipf("no %s to see what the command has read: %v", fds, err)
	}
	deadline := time.Now().Add(outputDeadline)
	for {
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if target, _ := os.Readlink(filepath.Join(fds, e.Name())); target != name {
				continue
			}
			info, _ := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", pid, e.Name()))
			var pos int64
			if _, err := fmt.Sscanf(string(info), "pos: %d", &pos); err == nil && pos >= off {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not read %s to %d within %v", name, off, outputDeadline)
		}
		time.Sleep(time.Millisecond)
	}
}

// The real logrotate, in its create and copytruncate modes, rotating the file while the
// command follows it and a writer appends to it.
func TestFollowCommandLogrotate(t *testing.T) {
	logrotate, err := exec.LookPath("logrotate")
	if err != nil {
		t.Skip("logrotate is not installed (Debian: apt-get install logrotate); the rotation it does is tested by hand in TestFollowCommandThroughRotation")
	}
	for _, mode := range []string{"create", "copytruncate"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "app.log")
			conf := filepath.Join(dir, "logrotate.conf")
			require.NoError(t, os.WriteFile(conf, []byte(fmt.Sprintf("%s {\n\trotate 5\n\t%s\n\tmissingok\n}\n", name, mode)), 0o644))
			rotate := func() {
				t.Helper()
				cmd := exec.Command(logrotate, "--force", "--state", filepath.Join(dir, "state"), conf)
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "logrotate: %s", out)
			}
			f := openLog(t, name)
			p := startFollow(t, "-f", "-n", name)
			line := 0
			writeLines := func(f *os.File, n int) string {
				var want strings.Builder
				for range n {
					line++
					appendFile(t, f, fmt.Sprintf("line %d\n", line))
					fmt.Fprintf(&want, "%6d\tline %d\n", line, line)
				}
				return want.String()
			}
			for range 3 {
				p.expect(t, writeLines(f, 100))
				rotate()
				if mode == "create" {
					// The writer goes on with the old file until it reopens the name,
					// as a daemon does on the signal logrotate's postrotate sends.
					want := writeLines(f, 10)
					f = openLog(t, name)
					want += writeLines(f, 10)
					p.expect(t, want)
				}
			}
			p.expect(t, writeLines(f, 5))
			p.terminate(t, "")
			rotated, err := filepath.Glob(name + ".*")
			require.NoError(t, err)
			assert.Len(t, rotated, 3, "files logrotate made")
		})
	}
}
