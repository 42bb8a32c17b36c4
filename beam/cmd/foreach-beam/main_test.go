package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/foreachio/foreach/beam/internal/fakestore"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/linereader"
)

// The job runs in this process on Prism, as the command does by default.

// expected computes the two reports of the job with one sequential read per file.
func expected(t *testing.T, paths []string, opt linereader.Options, top int) (records, words string, nrec, nwords int64) {
	t.Helper()
	var lines []string
	counts := map[string]int64{}
	for _, path := range paths {
		r, err := linereader.Open(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for rec := range r.Views() {
			n++
			for _, w := range strings.Fields(string(rec)) {
				counts[w]++
				nwords++
			}
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		lines = append(lines, fmt.Sprintf("%s\t%d", path, n))
		nrec += n
	}
	slices.Sort(lines)
	type wc struct {
		w string
		n int64
	}
	var all []wc
	for w, n := range counts {
		all = append(all, wc{w, n})
	}
	slices.SortFunc(all, func(a, b wc) int {
		return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.w, b.w))
	})
	var tops []string
	for _, x := range all[:min(top, len(all))] {
		tops = append(tops, fmt.Sprintf("%s\t%d", x.w, x.n))
	}
	return strings.Join(lines, "\n") + "\n", strings.Join(tops, "\n") + "\n", nrec, nwords
}

func runJob(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func corpusDir(t *testing.T) (dir string, paths []string) {
	dir = t.TempDir()
	specs := []struct {
		name string
		spec corpus.Spec
	}{
		{"tall.txt", corpus.Spec{Shape: corpus.Tall, Lines: 3000, Seed: 1}},
		{"mixed.txt", corpus.Spec{Shape: corpus.Mixed, Lines: 500, Seed: 2}},
		{"crlf.txt", corpus.Spec{Shape: corpus.CRLF, Lines: 700, Seed: 3}},
		{"nofinal.txt", corpus.Spec{Shape: corpus.NoFinalNewline, Lines: 90, Seed: 4}},
	}
	for _, s := range specs {
		path := filepath.Join(dir, s.name)
		if _, err := corpus.WriteFile(path, s.spec); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, append(paths, empty)
}

func TestJobReports(t *testing.T) {
	dir, paths := corpusDir(t)
	cases := []struct {
		name  string
		flags []string
		opt   linereader.Options
		top   int
	}{
		{"lines in 4 KiB sections", []string{"--section-size", "4KiB"}, linereader.Options{}, 10},
		{"sep in 1000-byte sections, top 3", []string{"--sep", `e\x20`, "--section-size", "1000", "--top", "3"}, linereader.Options{Sep: []byte("e ")}, 3},
		{"paragraphs", []string{"--paragraph", "--section-size", "100"}, linereader.Options{Paragraph: true}, 10},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prefix := filepath.Join(t.TempDir(), "out", fmt.Sprintf("run%d", i))
			args := append([]string{"--input", filepath.Join(dir, "*.txt"), "--output", prefix}, c.flags...)
			code, stdout, stderr := runJob(t, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			records, words, nrec, _ := expected(t, paths, c.opt, c.top)
			if got := readFile(t, prefix+"-records.tsv"); got != records {
				t.Errorf("records report:\n%s\nwant:\n%s", got, records)
			}
			if got := readFile(t, prefix+"-words.tsv"); got != words {
				t.Errorf("words report:\n%s\nwant:\n%s", got, words)
			}
			summary := regexp.MustCompile(fmt.Sprintf(`^foreach-beam: 5 files, %d records in \d+\.\ds; wrote %s-records.tsv and %s-words.tsv\n$`,
				nrec, regexp.QuoteMeta(prefix), regexp.QuoteMeta(prefix)))
			if !summary.MatchString(stdout) {
				t.Errorf("summary %q does not match %s", stdout, summary)
			}
		})
	}
}

func TestJobErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt.gz")
	if err := os.WriteFile(bad, []byte("not gzip at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no match", []string{"--input", dir + "/*.log", "--output", out}, 1,
			"foreach-beam: no file matches " + dir + "/*.log\n"},
		{"unreadable file", []string{"--input", bad, "--output", out}, 1,
			"foreach-beam: the job failed: foreachio: " + bad + ": gzip: invalid header\n"},
		{"no input", []string{"--output", out}, 2,
			"foreach-beam: --input GLOB is required\nRun 'foreach-beam --help' for the flags.\n"},
		{"no output", []string{"--input", bad}, 2,
			"foreach-beam: --output PREFIX is required\nRun 'foreach-beam --help' for the flags.\n"},
		{"argument", []string{"--input", bad, "--output", out, "extra.txt"}, 2,
			"foreach-beam: unexpected argument \"extra.txt\": the files are given by --input\nRun 'foreach-beam --help' for the flags.\n"},
		{"bad escape", []string{"--input", bad, "--output", out, "--sep", `\q`}, 2,
			"foreach-beam: --sep \"\\\\q\": unknown escape \\q (known: \\n \\r \\t \\0 \\\\ \\xHH)\nRun 'foreach-beam --help' for the flags.\n"},
		{"short hex escape", []string{"--input", bad, "--output", out, "--sep", `\x4`}, 2,
			"foreach-beam: --sep \"\\\\x4\": \\x needs two hex digits\nRun 'foreach-beam --help' for the flags.\n"},
		{"sep and paragraph", []string{"--input", bad, "--output", out, "--sep", `;`, "--paragraph"}, 2,
			"foreach-beam: --sep and --paragraph cannot be used together\nRun 'foreach-beam --help' for the flags.\n"},
		{"section size", []string{"--input", bad, "--output", out, "--section-size", "0"}, 2,
			"foreach-beam: --section-size \"0\": want a positive number of bytes, such as 1048576 or 64MiB\nRun 'foreach-beam --help' for the flags.\n"},
		{"top", []string{"--input", bad, "--output", out, "--top", "0"}, 2,
			"foreach-beam: --top 0: it must be at least 1\nRun 'foreach-beam --help' for the flags.\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runJob(t, c.args...)
			if code != c.code || stdout != "" || stderr != c.stderr {
				t.Fatalf("exit %d, stdout %q, stderr:\n%q\nwant exit %d and stderr:\n%q", code, stdout, stderr, c.code, c.stderr)
			}
		})
	}
}

func TestUnknownFlagPrintsUsage(t *testing.T) {
	code, stdout, stderr := runJob(t, "--no-such-flag")
	if code != 2 || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	if !strings.HasPrefix(stderr, "flag provided but not defined: -no-such-flag\nUsage: foreach-beam --input GLOB --output PREFIX") ||
		!strings.Contains(stderr, "  --section-size SIZE\n") || !strings.Contains(stderr, "Beam flags pass through") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

// The escapes themselves are the core's (internal/escape, tested there); the job adds
// that an empty separator is an error.
func TestEmptySeparatorIsAnError(t *testing.T) {
	if _, err := newJob(config{input: "x", output: "y", top: 10, sep: ""}, nil); err == nil ||
		!strings.Contains(err.Error(), "the separator is empty") {
		t.Fatalf("empty --sep: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "4096": 4096, "4KiB": 4096, "64MiB": 64 << 20, "1GiB": 1 << 30} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5MiB", "MiB", "1MB", "9999999999GiB"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

// The job over s3:// and gs:// objects: the corpus of TestJobReports, a gzipped copy of
// one file and a 1 MB record across several sections, uploaded to a fake store; the
// reports are those of a local read, with the objects' URIs for the paths.
func TestJobReadsObjects(t *testing.T) {
	dir, paths := corpusDir(t)
	huge := filepath.Join(dir, "huge.txt")
	if err := os.WriteFile(huge, []byte("before\n"+strings.Repeat("w ", 1<<19)+"\nafter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, huge)
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		s := start(t)
		s.Bucket(t, "b")
		var local, uris []string
		for _, p := range paths {
			data := []byte(readFile(t, p))
			uris = append(uris, s.Put(t, "b", "logs/"+filepath.Base(p), data))
			local = append(local, p)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(readFile(t, paths[0])))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		uris = append(uris, s.Put(t, "b", "logs/tall.txt.gz", gz.Bytes()))
		local = append(local, paths[0])
		// BGZF, cut in sections of its text at its members by the job.
		uris = append(uris, s.Put(t, "b", "logs/tall.bgzf.gz", bgzf(t, []byte(readFile(t, paths[0])), 4<<10)))
		local = append(local, paths[0])

		prefix := filepath.Join(t.TempDir(), "run")
		code, stdout, stderr := runJob(t, "--input", s.Scheme+"://b/logs/*", "--output", prefix, "--section-size", "64KiB")
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d, stderr:\n%s", s.Scheme, code, stderr)
		}
		records, _, nrec, _ := expected(t, local, linereader.Options{}, 10)
		lines := strings.Split(strings.TrimSuffix(records, "\n"), "\n")
		// expected names the local paths; the job names the objects.
		want := map[string]bool{}
		for i, p := range local {
			for _, line := range lines {
				if strings.HasPrefix(line, p+"\t") {
					want[uris[i]+line[len(p):]] = true
				}
			}
		}
		got := strings.Split(strings.TrimSuffix(readFile(t, prefix+"-records.tsv"), "\n"), "\n")
		if len(got) != len(uris) {
			t.Fatalf("%s: records report:\n%s\nwant one line for each of %q", s.Scheme, strings.Join(got, "\n"), uris)
		}
		for _, line := range got {
			if !want[line] {
				t.Errorf("%s: records report line %q is not one of %q", s.Scheme, line, slices.Sorted(maps.Keys(want)))
			}
		}
		if !slices.IsSorted(got) {
			t.Errorf("%s: records report not sorted:\n%s", s.Scheme, strings.Join(got, "\n"))
		}
		if !strings.Contains(stdout, fmt.Sprintf("foreach-beam: %d files, %d records in", len(uris), nrec)) {
			t.Errorf("%s: summary %q, want %d files and %d records", s.Scheme, stdout, len(uris), nrec)
		}
		if s.Ranged.Load() == 0 {
			t.Errorf("%s: no ranged GET", s.Scheme)
		}
	}
}

func TestJobObjectErrors(t *testing.T) {
	s := fakestore.S3(t)
	s.Bucket(t, "b")
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runJob(t, "--input", "s3://nobucket/*.log", "--output", out)
	if code != 1 || stderr != "foreach-beam: objstore: s3://nobucket/*.log: objstore: not found: no such bucket\n" {
		t.Errorf("missing bucket: exit %d, stderr %q", code, stderr)
	}
	uri := s.Put(t, "b", "x.log", []byte(strings.Repeat("line\n", 100000)))
	s.IgnoreRange.Store(true)
	code, _, stderr = runJob(t, "--input", uri, "--output", out, "--section-size", "64KiB")
	if code != 1 || !strings.HasPrefix(stderr, "foreach-beam: the job failed: foreachio: objstore: "+uri+": objstore: the server ignored the Range header") {
		t.Errorf("range ignored: exit %d, stderr %q", code, stderr)
	}
	s.IgnoreRange.Store(false)

	s.Deny.Store(true)
	code, _, stderr = runJob(t, "--input", uri, "--output", out, "--section-size", "64KiB")
	if code != 1 || !strings.Contains(stderr, uri) || !strings.Contains(stderr, "access denied") {
		t.Errorf("access denied: exit %d, stderr %q", code, stderr)
	}
	s.Deny.Store(false)

	// Every response cut after 64 KiB, once the job has listed the object: the S3 SDK
	// retries a request that fails, not a body that breaks, so the read fails, and the
	// failure reaches the job, naming the object.
	s.BreakAfter.Store(64 << 10)
	code, _, stderr = runJob(t, "--input", uri, "--output", out, "--section-size", "256KiB")
	if code != 1 || !strings.Contains(stderr, "the job failed") || !strings.Contains(stderr, uri) || !strings.Contains(stderr, "unexpected EOF") {
		t.Errorf("responses cut: exit %d, stderr %q", code, stderr)
	}
	s.BreakAfter.Store(0)
}

// A GCS read broken in the middle is reopened by the client library where it stopped
// (its retry policy): the job's counts stay exact, in more requests than without cuts.
func TestJobObjectCutResponsesGCS(t *testing.T) {
	s := fakestore.GCS(t)
	s.Bucket(t, "b")
	uri := s.Put(t, "b", "x.log", []byte(strings.Repeat("line\n", 100000)))
	prefix := filepath.Join(t.TempDir(), "run")
	var requests [2]int64
	for i, cut := range []int64{0, 64 << 10} {
		s.BreakAfter.Store(cut)
		before := s.Requests.Load()
		code, stdout, stderr := runJob(t, "--input", uri, "--output", prefix, "--section-size", "256KiB")
		requests[i] = s.Requests.Load() - before
		if code != 0 || stderr != "" {
			t.Fatalf("cut after %d: exit %d, stderr %q", cut, code, stderr)
		}
		if got, want := readFile(t, prefix+"-records.tsv"), uri+"\t100000\n"; got != want {
			t.Errorf("cut after %d: records report %q, want %q", cut, got, want)
		}
		if !strings.Contains(stdout, "1 file, 100000 records in") {
			t.Errorf("cut after %d: summary %q, want 1 file and 100000 records", cut, stdout)
		}
	}
	// Two sections of 256 KiB windows, each cut every 64 KiB: 3 more requests a section.
	if requests[1] < requests[0]+5 {
		t.Errorf("%d requests with cuts, %d without: the responses were not cut", requests[1], requests[0])
	}
}

// bgzf compresses text as bgzip does: gzip members of at most block bytes of text, each
// with the BC subfield giving its size, and the empty member that ends the file.
func bgzf(t *testing.T, text []byte, block int) []byte {
	var out bytes.Buffer
	for rest := text; ; rest = rest[min(block, len(rest)):] {
		var m bytes.Buffer
		w, err := gzip.NewWriterLevel(&m, 6)
		if err != nil {
			t.Fatal(err)
		}
		w.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		w.Write(rest[:min(block, len(rest))])
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b := m.Bytes()
		binary.LittleEndian.PutUint16(b[16:], uint16(len(b)-1))
		out.Write(b)
		if len(rest) == 0 {
			return out.Bytes()
		}
	}
}
