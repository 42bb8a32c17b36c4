package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// The pipelines run on Prism, as in compare.sh: ptest.Main parses Beam's flags and starts
// the loopback workers in this process, which is what the counted filesystem relies on.
func TestMain(m *testing.M) {
	ptest.Main(m)
}

// naiveLines is the LF rule written the plainest way, for eachLine to be checked against.
func naiveLines(data string) (offsets []int64, lines []string) {
	var off int64
	for _, piece := range strings.SplitAfter(data, "\n") {
		if piece == "" {
			continue
		}
		offsets = append(offsets, off)
		lines = append(lines, strings.TrimSuffix(piece, "\n"))
		off += int64(len(piece))
	}
	return offsets, lines
}

func TestEachLine(t *testing.T) {
	inputs := []string{"", "\n", "\n\n\n", "a", "a\n", "a\nb", "a\r\n\r\nb\r", strings.Repeat("x", 3<<20) + "\ny\n" + strings.Repeat("z", 1<<20)}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		b := make([]byte, rng.IntN(200))
		for i := range b {
			b[i] = "ab\r\n"[rng.IntN(4)]
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		wantOff, want := naiveLines(in)
		var gotOff []int64
		var got []string
		n, err := eachLine(strings.NewReader(in), func(off int64, line []byte) {
			gotOff = append(gotOff, off)
			got = append(got, string(line))
		})
		if err != nil || n != int64(len(in)) {
			t.Fatalf("eachLine(%.40q) read %d bytes, err %v; want %d, nil", in, n, err, len(in))
		}
		if !slices.Equal(got, want) || !slices.Equal(gotOff, wantOff) {
			t.Fatalf("eachLine(%.40q) = %.80q at %v, want %.80q at %v", in, got, gotOff, want, wantOff)
		}
	}
}

func digestOf(recs ...string) Digest {
	var d Digest
	for _, r := range recs {
		d.AddString(r)
	}
	return d
}

// The digest ignores order and splitting, and sees a record lost, repeated, changed or
// moved from one record to the next.
func TestDigest(t *testing.T) {
	want := digestOf("a", "b", "b", "c\r")
	if got := digestOf("b", "c\r", "a", "b"); got != want {
		t.Errorf("reordered: %+v, want %+v", got, want)
	}
	if got := digestOf("b", "a").Merge(digestOf("c\r", "b")); got != want {
		t.Errorf("merged: %+v, want %+v", got, want)
	}
	for _, other := range [][]string{
		{"a", "b", "c\r"}, {"a", "b", "b", "b", "c\r"}, {"a", "b", "b", "c"}, {"a", "bb", "", "c\r"}, {"a", "b", "c\r", "b", "a"},
	} {
		if got := digestOf(other...); got == want {
			t.Errorf("%q has the digest of [a b b c\\r]", other)
		}
	}
}

// testFiles writes the small counterparts of compare.sh's cases: each shape a reader may
// get wrong, in files small enough for one 64 MiB split.
func testFiles(t *testing.T) map[string]string {
	dir := t.TempDir()
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, "line %d of some text\tto count\n", i)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text.String()))
	zw.Close()
	files := map[string]string{
		// CRLF lines among LF ones, an empty line, a lone "\r", no final newline.
		"crlf.txt": "one\r\ntwo\n\r\n\rthree\r\r\nfour\r",
		// A line over bufio.Scanner's 64 KiB among short ones.
		"long.txt": "short\n" + strings.Repeat("long ", 20000) + "\nshort again\n",
		"text.gz":  gz.String(),
	}
	paths := map[string]string{}
	for name, data := range files {
		paths[name] = filepath.Join(dir, name)
		if err := os.WriteFile(paths[name], []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// TestContenders runs every contender over each small file and checks the verdicts that
// compare.sh publishes: foreachio and textio exact on plain files, textio.Immediate
// failing on a line over 64 KiB and dropping the "\r" of "\r\n", textio keeping only the
// records that start before the compressed size of a .gz file, ReadSdf and Immediate
// reading its compressed bytes as text. It also checks the bytes the readers are counted
// as reading.
func TestContenders(t *testing.T) {
	paths := testFiles(t)
	want := map[string]map[string]string{
		"crlf.txt": {"textio-immediate": "differs"},
		"long.txt": {"textio-immediate": "failed"},
		"text.gz":  {"textio-read": "wrong", "textio-count": "wrong", "textio-readall": "wrong", "textio-readsdf": "wrong", "textio-immediate": "wrong"},
	}
	for _, name := range []string{"crlf.txt", "long.txt", "text.gz"} {
		path := paths[name]
		ref, err := reference(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range contenders {
			o, err := runContender(context.Background(), c, path, ref, t.TempDir())
			if err != nil {
				t.Fatalf("%s on %s: %v", c.id, name, err)
			}
			verdict := want[name][c.id]
			if verdict == "" {
				verdict = "exact"
			}
			if o.Verdict != verdict {
				t.Errorf("%s on %s: %s (%s), want %s", c.id, name, o.Verdict, o.Detail, verdict)
			}
			checkOutcome(t, c, name, o, ref)
		}
	}
}

// checkOutcome checks what each kind of reader must have delivered and read.
func checkOutcome(t *testing.T, c contender, name string, o Outcome, ref Reference) {
	t.Helper()
	switch {
	case c.id == "textio-read" && name == "text.gz":
		if o.Got != ref.Prefix || o.Detail == "" {
			t.Errorf("textio.Read on gzip: %+v (%s), want the records before the compressed size %+v", o.Got, o.Detail, ref.Prefix)
		}
	case c.id == "textio-immediate" && name == "long.txt":
		if !strings.Contains(o.Detail, "token too long") {
			t.Errorf("textio.Immediate on a long line: %q, want bufio.Scanner's error", o.Detail)
		}
	case c.immediate && name == "crlf.txt":
		if o.Got != ref.CRLF {
			t.Errorf("textio.Immediate on CRLF: %+v, want %+v", o.Got, ref.CRLF)
		}
	}
	// Every reader reads the file once, whole: one split each, except textio on gzip,
	// which stops early, and Immediate, which stops at the long line. foreachio also
	// looks at the file when it makes the restriction, which may read a little.
	lo, hi := ref.Size, ref.Size
	if strings.HasPrefix(c.id, "foreachio") {
		hi += 64 << 10
	}
	if name == "text.gz" && (c.id == "textio-read" || c.id == "textio-count" || c.id == "textio-readall") || o.Verdict == "failed" {
		lo = 1
	}
	if c.immediate {
		lo, hi = lo/2, hi+1<<20 // the process's count includes the reads of the Go runtime
	}
	if o.Bytes < lo || o.Bytes > hi {
		t.Errorf("%s on %s read %d bytes, want %d to %d", c.id, name, o.Bytes, lo, hi)
	}
}

func TestRawLine(t *testing.T) {
	l := rawLine{Case: "plain", Contender: "textio-read",
		Outcome: Outcome{Verdict: "wrong", Detail: "a\tdetail", Got: Digest{Records: 3}, Bytes: 411, Opens: 3, Elapsed: 1500e6},
		Ref:     Reference{Size: 210, Text: 220, LF: Digest{Records: 5}},
	}
	got, err := parseRawLine(l.String() + "\t5.6\t6.9\t0.4\t87648")
	if err != nil {
		t.Fatal(err)
	}
	l.Outcome.Detail = "a detail"
	l.Outcome.Got, l.Ref.LF = Digest{Records: 3}, Digest{Records: 5}
	l.Wall, l.User, l.Sys, l.RSSKiB = 5.6, 6.9, 0.4, 87648
	if got != l {
		t.Errorf("round trip: %+v, want %+v", got, l)
	}
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 3225904: "3,225,904"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
