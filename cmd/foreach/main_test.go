package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// TestMain makes the test binary double as the foreach command, and as gen,
// which writes a reference corpus for the scripts (gen SHAPE SIZE FILE [SEED]).
// With FOREACH_TEST_RUN_MAIN=1 in its environment it is the command, for tests
// that run it as a child process of their own (memory_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
	}
	testscript.Main(m, map[string]func(){
		"foreach": main,
		"gen":     genMain,
	})
}

func genMain() {
	args := os.Args[1:]
	if len(args) < 3 || len(args) > 4 {
		fmt.Fprintln(os.Stderr, "usage: gen SHAPE SIZE FILE [SEED]")
		os.Exit(2)
	}
	size, err := parseSize(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	seed := uint64(1)
	if len(args) == 4 {
		if seed, err = strconv.ParseUint(args[3], 10, 64); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(2)
		}
	}
	spec := corpus.Spec{Shape: corpus.Shape(args[0]), Size: int64(size), Seed: seed}
	if _, err := corpus.WriteFile(args[2], spec); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// TestScript runs testdata/script/*.txtar. Besides the standard commands they
// have:
//
//	status N PROG [ARGS...]   run PROG like exec and require exit status N
//	writefile FILE GOSTRING   write the bytes of a Go string literal's body ('a\r\nb') to FILE
//	[root]                    true when running as root (file modes do not stop reads)
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: false,
		Setup: func(e *testscript.Env) error {
			// A race-enabled binary sleeps a second before exiting by default;
			// every exec in the scripts would pay it.
			e.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":    cmdStatus,
			"writefile": cmdWritefile,
		},
	})
}

func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! status")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

func cmdWritefile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: writefile FILE GOSTRING")
	}
	s, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(s), 0o666))
}

// runCmd calls run with args and input on standard input.
func runCmd(t *testing.T, input string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(args, strings.NewReader(input), &out, &errb)
	return out.String(), errb.String(), status
}

// Usage errors: one line naming the problem, in GNU getopt's words where getopt has
// them, then the pointer to --help; exit status 2 and nothing on standard output.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--nope"}, "foreach: unrecognized option '--nope'\n"},
		{[]string{"--nope=3"}, "foreach: unrecognized option '--nope'\n"},
		{[]string{"-Z"}, "foreach: invalid option -- 'Z'\n"},
		{[]string{"-nZ"}, "foreach: invalid option -- 'Z'\n"},
		{[]string{"---x"}, "foreach: unrecognized option '---x'\n"},
		{[]string{"--limit"}, "foreach: option '--limit' requires an argument\n"},
		{[]string{"-l"}, "foreach: option requires an argument -- 'l'\n"},
		{[]string{"--paragraph", "--whole"}, "foreach: --paragraph and --whole cannot be used together\n"},
		{[]string{"--sep", ",", "-0"}, "foreach: --sep and --null cannot be used together\n"},
		{[]string{"-0", "-p"}, "foreach: --null and --paragraph cannot be used together\n"},
		{[]string{"--sep=;", "--whole"}, "foreach: --sep and --whole cannot be used together\n"},
		{[]string{"-p", "--whole", "-s", ";"}, "foreach: --paragraph and --whole cannot be used together\n"},
		{[]string{"--sep", `\q`}, "foreach: invalid --sep argument '\\q': unknown escape \\q (known: \\n \\r \\t \\0 \\\\ \\xHH)\n"},
		{[]string{"--sep", ""}, "foreach: invalid --sep argument '': empty separator (use --paragraph for blank-line records)\n"},
		{[]string{"--ors", `\x4`}, "foreach: invalid --ors argument '\\x4': \\x needs two hex digits\n"},
		{[]string{"--ors", "it's\\q"}, "foreach: invalid --ors argument \"it's\\\\q\": unknown escape \\q (known: \\n \\r \\t \\0 \\\\ \\xHH)\n"},
		{[]string{"--limit", "0"}, "foreach: invalid --limit argument '0': must be at least 1 byte\n"},
		{[]string{"-l", "-3"}, "foreach: invalid --limit argument '-3': negative size\n"},
		{[]string{"--limit=abc"}, "foreach: invalid --limit argument 'abc': not a size (examples: 4096, 64KiB, 1G)\n"},
		{[]string{"--max-record", "12 parsecs"}, "foreach: invalid --max-record argument '12 parsecs': not a size (examples: 4096, 64KiB, 1G)\n"},
		{[]string{"-l", "10", "--max-record", "10"}, "foreach: --max-record has no effect with a --limit no larger than it (records never exceed --limit)\n"},
		{[]string{"-l", "10", "--utf8", "--max-record", "13"}, "foreach: --max-record has no effect with a --limit no larger than it (records never exceed --limit)\n"},
		{[]string{"-\n"}, "foreach: invalid option -- \"\\n\"\n"},
		{[]string{"--a\nb"}, "foreach: unrecognized option \"--a\\nb\"\n"},
		{[]string{"--sep", "\\\n"}, "foreach: invalid --sep argument \"\\\\\\n\": unknown escape \\ then the byte 0x0a (known: \\n \\r \\t \\0 \\\\ \\xHH)\n"},
		{[]string{"--buffer", "0"}, "foreach: invalid --buffer argument '0': must be at least 1 byte\n"},
		{[]string{"--buffer", "2GiB"}, "foreach: invalid --buffer argument '2GiB': at most 1.0 GiB\n"},
		{[]string{"-j", "0", "-c"}, "foreach: invalid --jobs argument '0': must be at least 1\n"},
		{[]string{"-j", "x"}, "foreach: invalid --jobs argument 'x': not a whole number\n"},
		{[]string{"--chomp=maybe"}, "foreach: invalid --chomp argument 'maybe': not true or false\n"},
		{[]string{"--progress=maybe"}, "foreach: invalid --progress argument 'maybe': not true or false\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errs, status := runCmd(t, "", tc.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Equal(t, tc.msg+tryHelp, errs)
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	out, errs, status := runCmd(t, "", "--help")
	assert.Equal(t, 0, status)
	assert.Empty(t, errs)
	assert.Equal(t, usage(), out)
	assert.Contains(t, out, "-n, --number")

	out, _, status = runCmd(t, "", "-h", "--nope-is-not-reached")
	assert.NotEqual(t, usage(), out, "an unknown flag is an error even with -h")
	assert.Equal(t, 2, status)

	out, errs, status = runCmd(t, "", "--version")
	assert.Equal(t, 0, status)
	assert.Empty(t, errs)
	assert.Equal(t, versionText(debug.ReadBuildInfo()), out)
	assert.Regexp(t, `^foreach \S+\n`, out)
}

// --version says what the build information says: the module version, the revision
// and its time, whether the tree had uncommitted changes, and the Go version.
func TestVersionText(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/foreachio/foreach", Version: "v1.2.0"}}
	assert.Equal(t, "foreach v1.2.0\nbuilt with go1.26.8\n", versionText(bi, true))

	bi.Main.Version = "v0.0.0-20260509080000-0f4cc8a1b2c3+dirty"
	bi.Settings = []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0f4cc8a1b2c3d4e5f60718293a4b5c6d7e8f9012"},
		{Key: "vcs.time", Value: "2026-05-09T08:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	assert.Equal(t, "foreach v0.0.0-20260509080000-0f4cc8a1b2c3+dirty\n"+
		"revision 0f4cc8a1b2c3d4e5f60718293a4b5c6d7e8f9012 (2026-05-09T08:00:00Z), with uncommitted changes\n"+
		"built with go1.26.8\n", versionText(bi, true))

	bi.Main.Version, bi.Settings[3].Value = "", "false"
	assert.Equal(t, "foreach (devel)\n"+
		"revision 0f4cc8a1b2c3d4e5f60718293a4b5c6d7e8f9012 (2026-05-09T08:00:00Z)\n"+
		"built with go1.26.8\n", versionText(bi, true))

	assert.Equal(t, "foreach (version unknown: built without module information)\n", versionText(nil, false))
}

// epipeWriter accepts limit bytes, then fails as a closed pipe does.
type epipeWriter struct {
	n, limit int
}

func (w *epipeWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		k := w.limit - w.n
		w.n = w.limit
		return k, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
	}
	w.n += len(p)
	return len(p), nil
}

func TestClosedPipeIsQuiet(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("0123456789abcdef\n"), 100_000), 0o666))
	for _, args := range [][]string{{big}, {"-n", big, big}, {"-c", big}} {
		var errb bytes.Buffer
		status := run(args, strings.NewReader(""), &epipeWriter{limit: 1000}, &errb)
		assert.Equal(t, 0, status, "args %q", args)
		assert.Empty(t, errb.String(), "args %q", args)
	}
	// After an earlier failure the status is kept.
	var errb bytes.Buffer
	status := run([]string{filepath.Join(dir, "missing"), big}, strings.NewReader(""), &epipeWriter{limit: 1000}, &errb)
	assert.Equal(t, 1, status)
	assert.Equal(t, "foreach: "+filepath.Join(dir, "missing")+": No such file or directory\n", errb.String())
}

// failWriter fails every write with a disk error.
type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, syscall.ENOSPC }

func TestWriteErrorIsReported(t *testing.T) {
	var errb bytes.Buffer
	status := run(nil, strings.NewReader("a\n"), failWriter{}, &errb)
	assert.Equal(t, 1, status)
	assert.Equal(t, "foreach: write error: No space left on device\n", errb.String())
}

func TestAppendNumber(t *testing.T) {
	cat, grep := &lineNumber{}, &lineNumber{grep: true}
	assert.Equal(t, "     1\t", string(cat.append(nil, 1)))
	assert.Equal(t, "999999\t", string(cat.append(nil, 999999)))
	assert.Equal(t, "1234567\t", string(cat.append(nil, 1234567)))
	assert.Equal(t, "1:", string(grep.append(nil, 1)))
	assert.Equal(t, "1234567:", string(grep.append(nil, 1234567)))
}

// lineNumber counts up in place and must always agree with append, in cat's form and in
// grep's: across carries, across the padding (grep's has none), past six digits,
// repeated numbers and jumps.
func TestLineNumberCountsLikeAppend(t *testing.T) {
	steps := []int64{1, 1, 2}
	for n := int64(3); n <= 1_000_100; n++ {
		steps = append(steps, n)
		if n%99_991 == 0 {
			steps = append(steps, n, n+5, n+5, n+6) // same again, a jump, and on
			n += 6
		}
	}
	for _, grep := range []bool{false, true} {
		l := lineNumber{grep: grep}
		for _, n := range steps {
			if got, want := string(l.format(n)), string(l.append(nil, n)); got != want {
				t.Fatalf("grep %v: format(%d) = %q, want %q", grep, n, got, want)
			}
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{
		"4096": 4096, "64KiB": 64 << 10, "64MiB": 64 << 20, "1G": 1e9, "1GiB": 1 << 30, "2k": 2000, " 5 ": 5,
	} {
		got, err := parseSize(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, got, in)
		}
	}
	for _, in := range []string{"", "-1", "x", "1.5.5MB", "99999999999999999999999"} {
		_, err := parseSize(in)
		assert.Error(t, err, in)
	}
}

// --max-record below --limit plus 3 has an effect with --utf8, whose cut may end up to
// 3 bytes past the limit: it is taken, and refuses such a piece.
func TestMaxRecordWithUTF8Limit(t *testing.T) {
	in := "xxxxxxxxx\U0001F600\n" // the 4-byte character begins at the limit's last byte
	out, errs, status := runCmd(t, in, "-l", "10", "--utf8", "--ors=|")
	require.Equal(t, 0, status, errs)
	assert.Equal(t, "xxxxxxxxx\U0001F600|\n|", out)
	out, errs, status = runCmd(t, in, "-l", "10", "--utf8", "--max-record", "12")
	assert.Equal(t, 1, status)
	assert.Empty(t, out)
	assert.Contains(t, errs, "longer than --max-record 12 B")
}
