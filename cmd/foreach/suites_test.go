package main

// The formats' own conformance files (internal/testkit/suites) through the command, in
// every mode that reads a compressed file: what each prints and its exit status, against
// what the format's reference decoder yields from the file.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/testkit/suites"
)

// suiteModes are the command's ways of reading a compressed file: sequentially, on two
// workers, counting, the last records, last first; through an index where --index can
// make one.
var suiteModes = [][]string{
	{"-z"}, {"-z", "-j", "2"}, {"-z", "-c"}, {"-z", "-c", "-j", "2"}, {"-z", "--last", "3"},
	{"-z", "--last", "3", "-j", "2"}, {"-z", "--reverse"}, {"-z", "--reverse", "-j", "2"},
}

// suiteKnown are the cases the command does not yet read as their suite says, and why
// (internal/decompress's knownFailures, the same cases).
var suiteKnown = map[string]string{
	"zstd/off0.bin.zst": "klauspost/compress decodes offset 0 as 1, as zstd 1.5.5 did",
}

// TestSuitesEveryMode runs every case of the suites in every mode, and once more through
// its index when --index makes one: a good file (and a plain one, read as it is) gives
// the reference's bytes, count, last records and reverse order, with status 0; trailing
// data the same with the warning's status 3; a cut or bad file status 1, a message naming
// the file, the format and the compressed offset, and no byte the reference does not
// yield (a cut file all of them where the mode prints as it reads). It logs the passes
// per suite and mode.
func TestSuitesEveryMode(t *testing.T) {
	dir := t.TempDir()
	passed, total := map[string]int{}, map[string]int{}
	for i, c := range suites.Cases(t) {
		name := filepath.Join(dir, fmt.Sprintf("%03d-%s", i, filepath.Base(c.Name)))
		if err := os.WriteFile(name, c.Framed(), 0o644); err != nil {
			t.Fatal(err)
		}
		modes := suiteModes
		if raceEnabled {
			// Half the modes under the race detector, every kind among them: the
			// decoders are the same, and the run takes seconds, not minutes.
			modes = [][]string{suiteModes[0], suiteModes[3], suiteModes[4], suiteModes[7]}
		}
		if c.Outcome == suites.Good || c.Outcome == suites.Trailing {
			if _, _, status := runCmd(t, "", "--index", name); status == 0 {
				modes = append(modes, []string{"-z", "--index-used"}, []string{"-z", "-c", "--index-used"},
					[]string{"-z", "--last", "3", "--index-used"}, []string{"-z", "--reverse", "--index-used"})
			}
		}
		for _, mode := range modes {
			key := c.Suite + " " + strings.Join(mode[1:], " ")
			args := append(slicesWithout(mode, "--index-used"), name)
			out, errs, status := runCmd(t, "", args...)
			total[key]++
			msg := checkSuiteRun(&c, mode, name, out, errs, status)
			_, known := suiteKnown[c.Name]
			switch {
			case msg == "" && known:
				t.Errorf("%s %q: passes; take it off suiteKnown", c.Name, mode)
			case msg != "" && !known:
				t.Errorf("%s (%s) %q: %s", c.Name, c.Outcome, mode, msg)
			case msg == "":
				passed[key]++
			}
		}
	}
	var tally []string
	for key := range total {
		tally = append(tally, fmt.Sprintf("%s: %d/%d", key, passed[key], total[key]))
	}
	sort.Strings(tally)
	t.Logf("passed, by suite and mode:\n%s", strings.Join(tally, "\n"))
}

func slicesWithout(s []string, drop string) []string {
	var out []string
	for _, x := range s {
		if x != drop {
			out = append(out, x)
		}
	}
	return out
}

// errorLine is how the command reports a damaged file: its name, the format, the
// decoder's words and the compressed offset.
var errorLine = regexp.MustCompile(`^foreach: .*: (gzip|zstd|bzip2|xz|lzma|lz4): .* at compressed byte [0-9]+\n`)

// checkSuiteRun says how a run of the command on a case departs from what it must
// give, or "" when it does not.
func checkSuiteRun(c *suites.Case, mode []string, name, out, errs string, status int) string {
	ref := c.Ref
	if c.Outcome == suites.Plain {
		ref = c.Input
	}
	whole := ref != nil || c.Outcome == suites.Plain
	want := ""
	switch {
	case !whole:
	case slicesHas(mode, "-c"):
		want = fmt.Sprintf("%d %s\n", len(records(ref)), name)
	case slicesHas(mode, "--last"):
		r := records(ref)
		want = strings.Join(r[max(0, len(r)-3):], "")
	case slicesHas(mode, "--reverse"):
		r := records(ref)
		for i := len(r) - 1; i >= 0; i-- {
			want += r[i]
		}
	default:
		want = string(ref)
	}
	switch c.Outcome {
	case suites.Good, suites.Plain, suites.Trailing:
		wantStatus := map[bool]int{true: 3, false: 0}[c.Outcome == suites.Trailing]
		if status != wantStatus {
			return fmt.Sprintf("status %d, want %d: %s", status, wantStatus, errs)
		}
		if !whole {
			return sameHash(c, mode, out)
		}
		if out != want {
			return fmt.Sprintf("printed %d bytes, want %d", len(out), len(want))
		}
		return ""
	}
	if status != 1 || !errorLine.MatchString(errs) {
		return fmt.Sprintf("status %d, message %q: want 1 and the format and offset named", status, errs)
	}
	return noMoreThanRef(c, mode, out, want)
}

// noMoreThanRef: a damaged file's output holds no byte the reference does not yield;
// a file cut short gives all of it where the mode prints as it reads.
func noMoreThanRef(c *suites.Case, mode []string, out, want string) string {
	ref := string(c.Ref)
	switch {
	case c.Ref == nil:
		if len(out) > c.RefLen {
			return fmt.Sprintf("printed %d bytes, more than the reference's %d", len(out), c.RefLen)
		}
	case slicesHas(mode, "-c"):
		if out != "" {
			return fmt.Sprintf("printed %q for a damaged file", out)
		}
	case slicesHas(mode, "--last"), slicesHas(mode, "--reverse"):
		for _, r := range records([]byte(out)) {
			if !strings.Contains(ref, r) {
				return fmt.Sprintf("printed %q, which the reference does not yield", r)
			}
		}
	case c.Outcome == suites.Cut && out != want:
		return fmt.Sprintf("printed %d bytes of a file cut short, want the reference's %d", len(out), len(want))
	case !strings.HasPrefix(ref, out):
		return fmt.Sprintf("printed %d bytes, not a prefix of the reference's %d", len(out), len(ref))
	}
	return ""
}

// sameHash checks a good case whose reference output is known by its hash only: the
// printing modes must give it.
func sameHash(c *suites.Case, mode []string, out string) string {
	if slicesHas(mode, "-c") || slicesHas(mode, "--last") || slicesHas(mode, "--reverse") {
		return "" // the hash says nothing of these; the printing modes pin the bytes
	}
	if msg := c.Check([]byte(out), nil, nil); msg != "" {
		return msg
	}
	return ""
}

// records cuts b after each newline, an unterminated last record included.
func records(b []byte) []string {
	var r []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		r = append(r, string(b[:i]))
		b = b[i:]
	}
	return r
}

func slicesHas(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
