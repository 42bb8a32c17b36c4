package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repo lays out a repository root with the default inputs in a temporary directory and
// makes it the working directory, as plot.sh does.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"benchmarks/results", "docs"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(dir, "benchmarks/results/run.tsv"), sampleSuite(3, 5))
	write(t, filepath.Join(dir, "benchmarks/results/cli.tsv"), sampleCLI)
	t.Chdir(dir)
	return dir
}

func write(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runPlot(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func isPNG(t *testing.T, name string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// Without flags: both pictures, from the default files, where the README says.
func TestRunDefaults(t *testing.T) {
	repo(t)
	code, stdout, stderr := runPlot()
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := "docs/performance.png: 7 contenders on 5 shapes, from benchmarks/results/run.tsv\n" +
		"docs/cli.png: 8 cases, from benchmarks/results/cli.tsv\n"
	if stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	isPNG(t, "docs/performance.png")
	isPNG(t, "docs/cli.png")
}

// A flag of one picture draws that picture alone.
func TestRunOnePicture(t *testing.T) {
	repo(t)
	if code, _, stderr := runPlot("-results", "benchmarks/results/run.tsv", "-out", "p.svg", "-cpu-out", "cpu.png", "-machine", "M"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !exists("p.svg") || !exists("cpu.png") || exists("docs/cli.png") || exists("docs/performance.png") {
		t.Error("want p.svg and cpu.png alone")
	}
	isPNG(t, "cpu.png")
	code, _, stderr := runPlot("-out", "two.png", "-contenders", "Lines,Bogus,Views")
	if want := "plot: benchmarks/results/run.tsv: contender Bogus: no runs on the shapes charted; left out\n"; code != 0 || stderr != want {
		t.Errorf("a contender without runs: exit %d, stderr %q, want 0 and %q", code, stderr, want)
	}
	if code, _, stderr := runPlot("-cli-out", "c.png"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !exists("c.png") || exists("docs/performance.png") {
		t.Error("want c.png alone")
	}
}

func TestRunErrors(t *testing.T) {
	repo(t)
	write(t, "bad.tsv", header+"tall\tLines\tScannerCopy\t0\tLines\t100\t10\n")
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-results", "missing.tsv"}, 1, "plot: open missing.tsv: no such file or directory\n"},
		{[]string{"-results", "bad.tsv"}, 1, "plot: bad.tsv:2: 7 fields, want 8 as in the header (fields are separated by tabs)\n"},
		{[]string{"-out", "p.jpg"}, 1, "plot: p.jpg: want a .png or .svg file name\n"},
		{[]string{"-cli-out", "nodir/c.png"}, 1, "plot: open nodir/c.png: no such file or directory\n"},
		{[]string{"-out", "p.png", "-contenders", "Bogus"}, 1, "plot: benchmarks/results/run.tsv: no runs of Bogus on tall, wide, verywide, mixed, real (the file has the shapes tall, wide, verywide, mixed, real)\n"},
		{[]string{"-contenders", " , "}, 2, "plot: -contenders: no contender named\n"},
	} {
		code, _, stderr := runPlot(tc.args...)
		if code != tc.code || stderr != tc.stderr {
			t.Errorf("%q: exit %d, stderr %q\nwant exit %d, stderr %q", tc.args, code, stderr, tc.code, tc.stderr)
		}
	}
	if code, _, stderr := runPlot("extra"); code != 2 || !strings.HasSuffix(stderr, "plot: unexpected argument \"extra\"\n") || !strings.HasPrefix(stderr, "usage: plot") {
		t.Errorf("an argument: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runPlot("-h"); code != 0 || !strings.Contains(stderr, "-cli-out") {
		t.Errorf("-h: exit %d, stderr %q", code, stderr)
	}
	if exists("docs/performance.png") || exists("docs/cli.png") {
		t.Error("a failed run wrote a picture")
	}
}
