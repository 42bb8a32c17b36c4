package main

// Fuzz targets for the command's parsers of outside input: the command line, SIZE
// values and the --state file (the printer's is FuzzPrinter, printref_test.go; the
// escapes of --sep and --ors are internal/escape's FuzzParse). Each runs its seeds with
// go test, for a while in CI (.ci/run) and longer by benchmarks/fuzz.sh.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/cliflag"
)

// FuzzFlags: whatever the command line, parseArgs does not panic; what it refuses, run
// refuses with status 2, nothing on standard output, and two lines on standard error
// (the problem, then the pointer to --help). The fuzzer's bytes are the arguments, one
// per NUL-separated field.
func FuzzFlags(f *testing.F) {
	for _, s := range []string{
		"-n", "--nope", "-Z", "-l\x000", "--limit=4KiB\x00--utf8", "--sep=\\q", "--sep=", "-s\x00\\x4",
		"--max-record=1G\x00-l\x0010", "--buffer=2GiB", "-j\x000\x00-c", "--last\x00-1", "--reverse\x00-p",
		"-f\x00--from-end\x00--last\x003", "--state\x00s\x00x", "--progress=maybe", "--a\nb", "-\n",
		"--ors=\\x\x00-C", "-cnH", "--=x", "--last=\n", "-0\x00--sep=;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		_, err := parseArgs(args)
		var ue *usageError
		switch {
		case err == nil, errors.Is(err, cliflag.ErrHelp), errors.Is(err, errVersion):
			return
		case !errors.As(err, &ue):
			t.Fatalf("parseArgs(%q): %v (%T), not a usage error", args, err, err)
		}
		var out, errb bytes.Buffer
		status := run(args, strings.NewReader(""), &out, &errb)
		lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
		if status != 2 || out.Len() > 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "foreach: ") || lines[1]+"\n" != tryHelp {
			t.Fatalf("foreach %q: status %d, stdout %q, stderr %q: want 2, nothing, two lines", args, status, out.String(), errb.String())
		}
	})
}

// FuzzSize: parseSize does not panic, gives a size of at least 0 or an error, reads a
// plain number as that many bytes, and reads back the sizes formatSize writes (IEC,
// exact below 1 KiB) within the rounding of their one decimal.
func FuzzSize(f *testing.F) {
	for _, s := range []string{"4096", "64KiB", "64MiB", "1G", "1.5 KiB", " 7 ", "-1", "", "1e3", "0x10", "18446744073709551615", "9EiB", "1kB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("parseSize(%q) = %d", s, n)
		}
		if d, err := strconv.ParseUint(strings.TrimSpace(s), 10, 63); err == nil && int(d) != n {
			t.Fatalf("parseSize(%q) = %d, want %d", s, n, d)
		}
		back, err := parseSize(formatSize(n))
		if err != nil || float64(back) < float64(n)*0.94 || float64(back) > float64(n)*1.06+1 {
			t.Fatalf("parseSize(formatSize(%d) = %q) = %d, %v", n, formatSize(n), back, err)
		}
	})
}

// FuzzStateFile: loadState reads any --state file without a panic, refusing what is
// not its format with an error that says which line, and giving each checkpoint it
// takes under its absolute name, once.
func FuzzStateFile(f *testing.F) {
	f.Add([]byte("foreach-follow/1 off=12 dev=2049 ino=131 head=12:000102030405060708090a0b0c0d0e0f tail=12:000102030405060708090a0b0c0d0e0f name=\"app.log\"\n"))
	f.Add([]byte("foreach-follow/1 off=5 head=3:000102030405060708090a0b0c0d0e0f tail=64:000102030405060708090a0b0c0d0e0f name=\"app.log\"\n"))
	f.Add([]byte("\n\nnot a checkpoint\n"))
	f.Add([]byte(""))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "state")
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		_, resume, err := loadState(path)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("loadState(%q): %v: want the line named", data, err)
			}
			return
		}
		for _, cp := range resume.Checkpoints() {
			if got, ok := resume.Checkpoint(cp.Name); !ok || got != cp || !filepath.IsAbs(cp.Name) {
				t.Fatalf("loadState(%q): %q holds %+v", data, cp.Name, got)
			}
		}
	})
}
