package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b\tc\n", []string{"a", "b", "c"}},
		{`bash -c 'igzip -dc F | wc -l'`, []string{"bash", "-c", "igzip -dc F | wc -l"}},
		{`a "b c" d`, []string{"a", "b c", "d"}},
		{`"x\"y\\z\n"`, []string{`x"y\z\n`}},
		{`a\ b`, []string{"a b"}},
		{`'' ""`, []string{"", ""}},
		{`x'y'"z"w`, []string{"xyzw"}},
		{`'it'\''s'`, []string{"it's"}},
	} {
		got, err := splitWords(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`'open`, `"open`, `end\`} {
		if got, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q) = %q, want an error", bad, got)
		}
	}
}

// joinWords quotes what splitWords (and sh) splits back into the same words.
func TestJoinWordsRoundTrip(t *testing.T) {
	words := []string{"rm", "-f", "a b", "it's", `x"y`, `$HOME`, "", `back\slash`, "plain"}
	line := joinWords(words)
	got, err := splitWords(line)
	if err != nil || !slices.Equal(got, words) {
		t.Fatalf("splitWords(joinWords(%q)) = %q (%q), %v", words, got, line, err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		return
	}
	// hyperfine's --prepare under -N splits it as we do; a shell must agree too.
	out, err := exec.Command("sh", "-c", `f() { for w in "$@"; do printf '[%s]\n' "$w"; done; }; f `+line).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, w := range words {
		want.WriteString("[" + w + "]\n")
	}
	if string(out) != want.String() {
		t.Errorf("sh splits %q into\n%s\nwant\n%s", line, out, want.String())
	}
}

func TestRunMeasuresAndFails(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs sh")
	}
	r := runner{output: "null"}
	s, err := r.run([]string{"sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Wall <= 0 || s.cpu() <= 0 || s.cpu() > s.Wall*2+0.01 {
		t.Errorf("a loop in sh: wall %v, CPU %v", s.Wall, s.cpu())
	}
	if _, err := r.run([]string{"sh", "-c", "echo broken >&2; exit 3"}); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("a failing command: %v, want its status and its standard error", err)
	}
}

// -output FILE gets each run's output alone (truncated first), -output pipe reads it,
// and -prepare runs before every run.
func TestOutputAndPrepare(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs sh")
	}
	dir := t.TempDir()
	out, mark := filepath.Join(dir, "out"), filepath.Join(dir, "mark")
	r := runner{output: out, prepare: []string{"sh", "-c", "echo x >> " + mark}}
	for range 2 {
		if _, err := r.run([]string{"sh", "-c", "echo run; wc -l < " + mark}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(out); string(got) != "run\n2\n" {
		t.Errorf("the output file holds %q, want the second run's %q", got, "run\n2\n")
	}
	r = runner{output: "pipe"}
	if _, err := r.run([]string{"sh", "-c", "head -c 1000000 /dev/zero"}); err != nil {
		t.Errorf("-output pipe: %v", err)
	}
}

func TestRatiosAndAgreement(t *testing.T) {
	base := &measured{name: "tool", runs: []sample{{Wall: 2}, {Wall: 4}, {Wall: 1}}, hf: []sample{{Wall: 2.1}, {Wall: 3.9}, {Wall: 1}}}
	m := &measured{name: "ours", runs: []sample{{Wall: 1}, {Wall: 1}, {Wall: 1}}, hf: []sample{{Wall: 1.5}, {Wall: 1.4}, {Wall: 1.3}}}
	mid, lo, hi := ratios(m, base)
	if mid != 0.5 || lo != 0.25 || hi != 1 {
		t.Errorf("ratios = %v [%v, %v], want 0.5 [0.25, 1]", mid, lo, hi)
	}
	res := &result{cmds: []*measured{base, m}, agree: 0.10, checked: true}
	bad := res.disagreements()
	if len(bad) != 1 || !strings.HasPrefix(bad[0], "ours:") {
		t.Errorf("disagreements = %q, want ours only (1 ms against 1.4)", bad)
	}
	if tab := res.table(); !strings.Contains(tab, "| `ours` | 1000.0 | 1400.0 | 0.71 **disagree**") {
		t.Errorf("the table does not mark the disagreement:\n%s", tab)
	}
}
