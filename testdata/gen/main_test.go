package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// runGen runs the command in-process and returns its exit status and output.
func runGen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func want(t *testing.T, s corpus.Spec) string {
	t.Helper()
	b, err := corpus.Bytes(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFlagsMapOntoSpec(t *testing.T) {
	for _, tc := range []struct {
		args []string
		spec corpus.Spec
	}{
		{nil, corpus.Spec{Shape: corpus.Tall}},
		{[]string{"--shape", "wide", "--lines", "3", "--phrases", "5", "--seed", "9"}, corpus.Spec{Shape: corpus.Wide, Lines: 3, Phrases: 5, Seed: 9}},
		{[]string{"--shape=crlf", "--lines=4", "--phrases=2", "--seed=18446744073709551615"}, corpus.Spec{Shape: corpus.CRLF, Lines: 4, Phrases: 2, Seed: 1<<64 - 1}},
		{[]string{"--shape", "mixed", "--size", "64KiB", "--lines", "5"}, corpus.Spec{Shape: corpus.Mixed, Size: 64 << 10}},
		{[]string{"--shape", "binary", "--size", "1MB", "-o", "-"}, corpus.Spec{Shape: corpus.Binary, Size: 1_000_000}},
		{[]string{"--shape", "verywide", "--lines", "2"}, corpus.Spec{Shape: corpus.Verywide, Lines: 2}},
		{[]string{"--shape", "huge-line", "--size", "4096"}, corpus.Spec{Shape: corpus.HugeLine, Size: 4096}},
		{[]string{"--shape", "no-final-newline", "--size", "1k", "--seed", "3"}, corpus.Spec{Shape: corpus.NoFinalNewline, Size: 1000, Seed: 3}},
	} {
		code, stdout, stderr := runGen(t, tc.args...)
		if code != 0 || stderr != "" {
			t.Fatalf("%q: exit %d, stderr %q", tc.args, code, stderr)
		}
		if w := want(t, tc.spec); stdout != w {
			t.Errorf("%q: %d bytes on stdout, want the %d of %+v", tc.args, len(stdout), len(w), tc.spec)
		}
	}
}

func TestSizeLandsWhereDocumented(t *testing.T) {
	for _, tc := range []struct {
		shape string
		exact bool
	}{{"tall", false}, {"wide", false}, {"verywide", false}, {"mixed", false}, {"crlf", false}, {"no-final-newline", false}, {"huge-line", true}, {"binary", true}, {"stacktrace", false}} {
		_, stdout, _ := runGen(t, "--shape", tc.shape, "--size", "100KiB")
		switch n := len(stdout); {
		case tc.exact && n != 100<<10:
			t.Errorf("%s: %d bytes, want exactly 102400", tc.shape, n)
		case !tc.exact && (n < 100<<10 || strings.LastIndexByte(stdout[:n-1], '\n')+1 >= 100<<10):
			t.Errorf("%s: %d bytes, not the first line end at or past 102400", tc.shape, n)
		}
	}
}

func TestOutputFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "mixed.txt")
	code, stdout, stderr := runGen(t, "--shape", "mixed", "--size", "256KiB", "--seed", "5", "-o", name)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %d bytes, stderr %q", code, len(stdout), stderr)
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want(t, corpus.Spec{Shape: corpus.Mixed, Size: 256 << 10, Seed: 5}) {
		t.Fatalf("-o file holds %d bytes that differ from the corpus", len(got))
	}
}

func TestOutputFileErrorExits1(t *testing.T) {
	name := filepath.Join(t.TempDir(), "no", "such", "dir", "x")
	code, _, stderr := runGen(t, "-o", name)
	if code != 1 || !strings.HasPrefix(stderr, "gen: open ") || !strings.Contains(stderr, "no such file") {
		t.Fatalf("exit %d, stderr %q; want 1 and gen: open ...", code, stderr)
	}
	if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stat: %v", err)
	}
}

type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestStdoutWriteErrorExits1(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"--shape", "wide"}, brokenPipe{}, &stderr); code != 1 || stderr.String() != "gen: broken pipe\n" {
		t.Fatalf("exit %d, stderr %q; want 1 and gen: broken pipe", code, stderr.String())
	}
}

// TestOutputDeviceFull writes to a device that accepts nothing: the error is
// reported (exit 1), and the device, not being a regular file, is left alone.
func TestOutputDeviceFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full:", err)
	}
	code, _, stderr := runGen(t, "-o", "/dev/full")
	if code != 1 || !strings.Contains(stderr, "no space left on device") {
		t.Fatalf("exit %d, stderr %q; want 1 and ENOSPC", code, stderr)
	}
}

func TestBadFlagsExit2WithUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--bogus"}, "gen: unknown flag: --bogus"},
		{[]string{"-x"}, "gen: unknown shorthand flag: 'x' in -x"},
		{[]string{"--shape", "square"}, `gen: corpus: unknown shape "square" (want one of tall, wide, verywide, mixed, crlf, no-final-newline, huge-line, binary, stacktrace)`},
		{[]string{"--shape"}, "gen: flag needs an argument: --shape"},
		{[]string{"--lines", "many"}, `gen: invalid argument "many" for "--lines" flag`},
		{[]string{"--lines", "-1"}, "gen: --lines must not be negative: -1"},
		{[]string{"--phrases=-4"}, "gen: --phrases must not be negative: -4"},
		{[]string{"--seed", "-1"}, `gen: invalid argument "-1" for "--seed" flag`},
		{[]string{"--size", "12furlongs"}, `gen: invalid --size "12furlongs": want a size such as 128MiB, 64MB, 1G or 4096`},
		{[]string{"--size", "0"}, `gen: invalid --size "0": want more than 0`},
		{[]string{"--size", "9EiB"}, `gen: invalid --size "9EiB": want more than 0`},
		{[]string{"tall"}, `gen: unexpected argument "tall"`},
	} {
		code, stdout, stderr := runGen(t, tc.args...)
		if code != 2 {
			t.Errorf("%q: exit %d, want 2", tc.args, code)
		}
		if stdout != "" {
			t.Errorf("%q: %d bytes on stdout, want none", tc.args, len(stdout))
		}
		if !strings.HasPrefix(stderr, tc.msg) || !strings.Contains(stderr, "\nUsage: go run ./testdata/gen --shape NAME") {
			t.Errorf("%q: stderr %q, want %q and the usage", tc.args, stderr, tc.msg)
		}
	}
}

func TestHelpGoesToStdoutAndExits0(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		code, stdout, stderr := runGen(t, arg)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", arg, code, stderr)
		}
		for _, s := range append([]string{"Usage:", "--size SIZE", "-o, --output FILE"}, "tall, wide, verywide, mixed, crlf, no-final-newline, huge-line, binary") {
			if !strings.Contains(stdout, s) {
				t.Errorf("%s: usage lacks %q:\n%s", arg, s, stdout)
			}
		}
	}
}

// TestBuiltCommand runs the real binary once, to check what run cannot:
// that main turns its result into the process's exit status.
func TestBuiltCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	bin := filepath.Join(t.TempDir(), "gen")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	out, err := exec.Command(bin, "--shape", "crlf", "--lines", "2", "--phrases", "3", "--seed", "7").Output()
	if err != nil || string(out) != "text garden paragraph\r\nare buffer read\r\n" {
		t.Fatalf("crlf: %v, %q", err, out)
	}

	var stderr bytes.Buffer
	cmd := exec.Command(bin, "--shape", "square")
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.HasPrefix(stderr.String(), "gen: corpus: unknown shape") {
		t.Fatalf("--shape square: %v, stderr %q; want exit status 2", err, stderr.String())
	}
}
