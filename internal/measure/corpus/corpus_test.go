package corpus_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// pinned holds the SHA-256 of every shape at its defaults for seeds 0 and 42,
// with the length. A failure here means the bytes changed: benchmark results
// recorded before the change are no longer comparable with those after it.
// Update the table only on purpose, and say so in the commit.
var pinned = []struct {
	shape corpus.Shape
	seed  uint64
	size  int
	sum   string
}{
	{corpus.Tall, 0, 578533, "669385dc8b61e202cfaeeffe84f0c49c5752ca786b0f8a870b63e639218510e5"},
	{corpus.Tall, 42, 578906, "bb00bd64d64a6b2e2d3ed5e52100d82e7a87f75067ce858db5b1332649e51bc6"},
	{corpus.Wide, 0, 578533, "9d86bde2ea46cb6323c8fa300c824f2ee7fdd744f19411b89df8cc62f8e5e035"},
	{corpus.Wide, 42, 578906, "5ac64be5800e0ddb18e51a963d9d3a0e0647a186cd4bc28230fd3b9f7d9c3f9f"},
	{corpus.Verywide, 0, 7005443, "351f9c1ccb64c853ccb89a19758e49e0db35ee55b5c97a38eea0e24e906a69ce"},
	{corpus.Verywide, 42, 6600014, "d038d4daaad2967cc953169f4eb73bdcb5ec8114ad20126fc470ba2cb8a07fa9"},
	{corpus.Mixed, 0, 5691941, "4e4eb54644bf37803242c0fb4a06ff48d98bb3887ae41ecba7987db7b1058d99"},
	{corpus.Mixed, 42, 7805033, "8e93a411496cc202a1e3b5158b5f6cdcf976486b10024daed18fff656828fb89"},
	{corpus.CRLF, 0, 588533, "2d88c42238aeff5986daaaf94b66862eb1c8ce992ba76d8057770c2d387d0e9f"},
	{corpus.CRLF, 42, 588906, "d89bd27e05b1f1eeb172dfc16402f65b3139f6eb57580dca4f627528bd4e5fe0"},
	{corpus.NoFinalNewline, 0, 578532, "d6e13ce41831f6a3b42829bffc94d81d3bf1a9c9d808e534f10d3c1cbf84bb3f"},
	{corpus.NoFinalNewline, 42, 578905, "05792344a8236fdb8b9c258b751774c5397dce7b302f2e161a21bf67869dc699"},
	{corpus.HugeLine, 0, 16777216, "c452d9c72ee22fc92a7ef5ba52569686294ffbd468eeea6871287d74e67130e7"},
	{corpus.HugeLine, 42, 16777216, "a4b2a7d436f7260aec8cecc595cd7720f7fcde1dafc4f086dbd895c7a5e9aec0"},
	{corpus.Binary, 0, 1048576, "bc9d1d01517351f3e2c02d32495b3bfbcba5ec54e5f1a44b06f51755d0086a01"},
	{corpus.Binary, 42, 1048576, "5b2605c7135a3f8c54d75039514f0bcb798cfe1a8d74f57380d45aaadea36dca"},
	{corpus.StackTrace, 0, 2680427, "289a1916ca8d2c63b6942f995b3c85ab1238d4cfbc140df27f62f030e77ad06e"},
	{corpus.StackTrace, 42, 2661520, "83c1699131089523c7c20b5e181abf19ae16ba880e33a0b359bc8f80001ad43e"},
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func mustBytes(t *testing.T, s corpus.Spec) []byte {
	t.Helper()
	b, err := corpus.Bytes(s)
	if err != nil {
		t.Fatalf("Bytes(%+v): %v", s, err)
	}
	return b
}

// lines splits b after each "\n"; a last line without one is kept as is.
func lines(b []byte) [][]byte {
	ls := bytes.SplitAfter(b, []byte("\n"))
	if len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	return ls
}

var inVocabulary = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range corpus.Vocabulary() {
		m[w] = true
	}
	return m
}()

// checkWords fails unless line (without terminator) is exactly n words of the
// vocabulary separated by single spaces.
func checkWords(t *testing.T, i int, line []byte, n int) {
	t.Helper()
	words := strings.Split(string(line), " ")
	if len(words) != n {
		t.Fatalf("line %d has %d words, want %d: %.80q", i+1, len(words), n, line)
	}
	for _, w := range words {
		if !inVocabulary[w] {
			t.Fatalf("line %d: %q is not in the vocabulary (double space?): %.80q", i+1, w, line)
		}
	}
}

func TestChecksumsPinned(t *testing.T) {
	if len(pinned) != 2*len(corpus.Shapes()) {
		t.Errorf("pinned has %d entries, want 2 per shape", len(pinned))
	}
	for _, p := range pinned {
		var buf bytes.Buffer
		n, err := corpus.Generate(&buf, corpus.Spec{Shape: p.shape, Seed: p.seed})
		if err != nil {
			t.Fatalf("%s seed %d: %v", p.shape, p.seed, err)
		}
		b := buf.Bytes()
		if n != int64(len(b)) {
			t.Errorf("%s seed %d: Generate returned %d, wrote %d", p.shape, p.seed, n, len(b))
		}
		if got := sum(b); len(b) != p.size || got != p.sum {
			t.Errorf("%s seed %d: got {corpus.%s, %d, %d, %q}, want size %d sum %s",
				p.shape, p.seed, shapeConst(p.shape), p.seed, len(b), got, p.size, p.sum)
		}
	}
}

func shapeConst(s corpus.Shape) string {
	return map[corpus.Shape]string{
		corpus.Tall: "Tall", corpus.Wide: "Wide", corpus.Verywide: "Verywide", corpus.Mixed: "Mixed", corpus.CRLF: "CRLF",
		corpus.NoFinalNewline: "NoFinalNewline", corpus.HugeLine: "HugeLine", corpus.Binary: "Binary",
		corpus.StackTrace: "StackTrace",
	}[s]
}

func TestShapesFixedOrder(t *testing.T) {
	want := []corpus.Shape{"tall", "wide", "verywide", "mixed", "crlf", "no-final-newline", "huge-line", "binary", "stacktrace"}
	got := corpus.Shapes()
	if !slices.Equal(got, want) {
		t.Fatalf("Shapes() = %q, want %q", got, want)
	}
	got[0] = "changed"
	if corpus.Shapes()[0] != corpus.Tall {
		t.Fatal("Shapes returned its internal slice")
	}
}

func TestVocabulary(t *testing.T) {
	v := corpus.Vocabulary()
	if len(v) != 64 {
		t.Fatalf("%d words, want 64", len(v))
	}
	seen := map[string]bool{}
	for _, w := range v {
		if w == "" || seen[w] || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("bad or repeated word %q", w)
		}
		seen[w] = true
	}
}

func TestTallDefaultsAre10000LinesOf10Words(t *testing.T) {
	ls := lines(mustBytes(t, corpus.Spec{Shape: corpus.Tall}))
	if len(ls) != 10_000 {
		t.Fatalf("%d lines, want 10000", len(ls))
	}
	for i, l := range ls {
		body, ok := bytes.CutSuffix(l, []byte("\n"))
		if !ok {
			t.Fatalf("line %d has no \\n", i+1)
		}
		checkWords(t, i, body, 10)
	}
}

func TestWideDefaultsAre10LinesOf10000Words(t *testing.T) {
	ls := lines(mustBytes(t, corpus.Spec{Shape: corpus.Wide, Seed: 3}))
	if len(ls) != 10 {
		t.Fatalf("%d lines, want 10", len(ls))
	}
	for i, l := range ls {
		body, ok := bytes.CutSuffix(l, []byte("\n"))
		if !ok {
			t.Fatalf("line %d has no \\n", i+1)
		}
		checkWords(t, i, body, 10_000)
	}
}

// Every verywide line is words (no double space) of at least VerywideMinLine
// bytes, "\n" included, and ends at the first word end past a length below
// VerywideMinLine+VerywideSpread: so shorter than that bound plus the longest
// word and its space.
func TestVerywideLinesAreAtLeast512KiB(t *testing.T) {
	longestWord := 0
	for _, w := range corpus.Vocabulary() {
		longestWord = max(longestWord, len(w))
	}
	if n := len(lines(mustBytes(t, corpus.Spec{Shape: corpus.Verywide}))); n != corpus.DefaultVerywideLines {
		t.Fatalf("default: %d lines, want %d", n, corpus.DefaultVerywideLines)
	}
	// Four lines per seed keep this quick under the race detector; the pinned checksums
	// cover the defaults byte for byte.
	for _, seed := range []uint64{0, 1, 42} {
		ls := lines(mustBytes(t, corpus.Spec{Shape: corpus.Verywide, Lines: 4, Seed: seed}))
		if len(ls) != 4 {
			t.Fatalf("seed %d: %d lines, want 4", seed, len(ls))
		}
		shortest, longest := len(ls[0]), 0
		for i, l := range ls {
			body, ok := bytes.CutSuffix(l, []byte("\n"))
			if !ok {
				t.Fatalf("seed %d line %d has no \\n", seed, i+1)
			}
			if len(l) < corpus.VerywideMinLine || len(body) >= corpus.VerywideMinLine+corpus.VerywideSpread+longestWord {
				t.Fatalf("seed %d line %d: %d bytes, outside [%d, %d)", seed, i+1, len(l),
					corpus.VerywideMinLine, corpus.VerywideMinLine+corpus.VerywideSpread+longestWord+1)
			}
			if i == 0 { // words of one line per seed: checking them all is slow under -race
				checkWords(t, i, body, strings.Count(string(body), " ")+1)
			}
			shortest, longest = min(shortest, len(l)), max(longest, len(l))
		}
		// The lengths are drawn, not fixed: a generator that made every line the
		// same length would not exercise buffers of different sizes.
		if longest-shortest < 16<<10 {
			t.Errorf("seed %d: lines from %d to %d bytes: lengths barely vary", seed, shortest, longest)
		}
	}
	// Lines sets the count; Phrases means nothing to verywide.
	a := mustBytes(t, corpus.Spec{Shape: corpus.Verywide, Lines: 2, Seed: 5})
	b := mustBytes(t, corpus.Spec{Shape: corpus.Verywide, Lines: 2, Phrases: 3, Seed: 5})
	if len(lines(a)) != 2 || !bytes.Equal(a, b) {
		t.Errorf("Lines 2: %d lines; Phrases changed the bytes: %v", len(lines(a)), !bytes.Equal(a, b))
	}
}

func TestLinesAndPhrasesOverrideDefaults(t *testing.T) {
	for _, sh := range []corpus.Shape{corpus.Tall, corpus.Wide, corpus.CRLF} {
		ls := lines(mustBytes(t, corpus.Spec{Shape: sh, Lines: 7, Phrases: 3, Seed: 9}))
		if len(ls) != 7 {
			t.Fatalf("%s: %d lines, want 7", sh, len(ls))
		}
		for i, l := range ls {
			checkWords(t, i, bytes.TrimRight(l, "\r\n"), 3)
		}
	}
	ls := lines(mustBytes(t, corpus.Spec{Shape: corpus.Mixed, Lines: 123}))
	if len(ls) != 123 {
		t.Fatalf("mixed: %d lines, want 123", len(ls))
	}
}

// The text shapes share one word stream per seed; the relations below pin
// "crlf is tall with \r\n" and "no-final-newline is tall without its last
// terminator" byte for byte, which is stronger than checking the endings.
func TestTextShapesAreTallRewritten(t *testing.T) {
	for _, seed := range []uint64{0, 5} {
		tall := mustBytes(t, corpus.Spec{Shape: corpus.Tall, Seed: seed})
		crlf := mustBytes(t, corpus.Spec{Shape: corpus.CRLF, Seed: seed})
		if !bytes.Equal(crlf, bytes.ReplaceAll(tall, []byte("\n"), []byte("\r\n"))) {
			t.Errorf("seed %d: crlf is not tall with \\r\\n endings", seed)
		}
		nfn := mustBytes(t, corpus.Spec{Shape: corpus.NoFinalNewline, Seed: seed})
		if !bytes.Equal(nfn, tall[:len(tall)-1]) {
			t.Errorf("seed %d: no-final-newline is not tall without its last byte", seed)
		}
		wide := mustBytes(t, corpus.Spec{Shape: corpus.Wide, Seed: seed})
		if !bytes.Equal(bytes.ReplaceAll(wide, []byte("\n"), []byte(" ")), bytes.ReplaceAll(tall, []byte("\n"), []byte(" "))) {
			t.Errorf("seed %d: wide does not hold tall's words", seed)
		}
	}
}

func TestCRLFEveryLineEndsInCRLF(t *testing.T) {
	b := mustBytes(t, corpus.Spec{Shape: corpus.CRLF, Seed: 11})
	ls := lines(b)
	if len(ls) != 10_000 {
		t.Fatalf("%d lines, want 10000", len(ls))
	}
	for i, l := range ls {
		body, ok := bytes.CutSuffix(l, []byte("\r\n"))
		if !ok {
			t.Fatalf("line %d does not end in \\r\\n: %q", i+1, l[max(0, len(l)-10):])
		}
		checkWords(t, i, body, 10)
	}
	if n := bytes.Count(b, []byte("\r")); n != 10_000 {
		t.Fatalf("%d \\r in the corpus, want one per line", n)
	}
}

func TestNoFinalNewline(t *testing.T) {
	b := mustBytes(t, corpus.Spec{Shape: corpus.NoFinalNewline, Seed: 11})
	if len(b) == 0 || b[len(b)-1] == '\n' {
		t.Fatalf("corpus ends in %q", b[max(0, len(b)-10):])
	}
	ls := lines(b)
	if len(ls) != 10_000 {
		t.Fatalf("%d lines, want 10000", len(ls))
	}
	for i, l := range ls {
		checkWords(t, i, bytes.TrimSuffix(l, []byte("\n")), 10)
	}
}

// TestMixedHasEmptyLinesAndALongTail pins what the mixed shape looks like at
// its defaults for seed 0 (measured, 10,000 lines, terminator included):
// median line 63 bytes, longest 432,564 bytes (422 KiB), 1,244 empty lines,
// 6 lines past 100 KiB; 5,691,941 bytes in all.
func TestMixedHasEmptyLinesAndALongTail(t *testing.T) {
	b := mustBytes(t, corpus.Spec{Shape: corpus.Mixed})
	ls := lines(b)
	if len(ls) != 10_000 {
		t.Fatalf("%d lines, want 10000", len(ls))
	}
	lens := make([]int, len(ls))
	empty, big := 0, 0
	for i, l := range ls {
		body, ok := bytes.CutSuffix(l, []byte("\n"))
		if !ok {
			t.Fatalf("line %d has no \\n", i+1)
		}
		if len(body) == 0 {
			empty++
		} else {
			checkWords(t, i, body, strings.Count(string(body), " ")+1)
		}
		if len(l) > 100<<10 {
			big++
		}
		lens[i] = len(l)
	}
	slices.Sort(lens)
	median, longest := lens[len(lens)/2], lens[len(lens)-1]
	got := fmt.Sprintf("median %d, longest %d, empty %d, past 100 KiB %d", median, longest, empty, big)
	if want := "median 63, longest 432564, empty 1244, past 100 KiB 6"; got != want {
		t.Errorf("got %s; want %s", got, want)
	}
	// What the shape promises, whatever the seed: most lines short, a few
	// hundreds of times longer than the median, some empty.
	if median > 200 || longest < 100<<10 || empty == 0 || big == 0 || big > 100 {
		t.Errorf("not long-tailed: %s", got)
	}
}

func TestBinaryHasNULsAndNewlines(t *testing.T) {
	b := mustBytes(t, corpus.Spec{Shape: corpus.Binary})
	if len(b) != corpus.DefaultBinarySize {
		t.Fatalf("%d bytes, want %d", len(b), corpus.DefaultBinarySize)
	}
	// Uniform bytes: 4096 expected of each value in 1 MiB; the bounds are
	// more than 10 standard deviations (64) wide, so only a broken generator
	// misses them.
	for _, c := range []byte{0, '\n', 'a', 0xff} {
		if n := bytes.Count(b, []byte{c}); n < 3000 || n > 5200 {
			t.Errorf("%d bytes %#x in 1 MiB, want about 4096", n, c)
		}
	}
}

func TestHugeLine(t *testing.T) {
	for _, size := range []int64{1, 2, 3, 4, 5, 10, 100, 4097, 1 << 20} {
		for seed := range uint64(4) {
			b := mustBytes(t, corpus.Spec{Shape: corpus.HugeLine, Size: size, Seed: seed})
			if int64(len(b)) != size {
				t.Fatalf("size %d seed %d: %d bytes", size, seed, len(b))
			}
			if bytes.IndexByte(b, '\n') != len(b)-1 {
				t.Fatalf("size %d seed %d: not one line ending in \\n: %.80q", size, seed, b)
			}
			body := string(b[:len(b)-1])
			if strings.HasPrefix(body, " ") || strings.HasSuffix(body, " ") || strings.Contains(body, "  ") {
				t.Fatalf("size %d seed %d: stray space: %q", size, seed, body)
			}
			if words := strings.Split(body, " "); len(words) > 1 {
				checkWords(t, 0, []byte(strings.Join(words[:len(words)-1], " ")), len(words)-1)
			}
		}
	}
	b := mustBytes(t, corpus.Spec{Shape: corpus.HugeLine, Lines: 5, Phrases: 5})
	if len(b) != corpus.DefaultHugeLineSize || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("default huge-line: %d bytes, %d lines", len(b), bytes.Count(b, []byte("\n")))
	}
}

// TestSizeLandsAtFirstLineEnd checks the documented meaning of Size: text
// shapes end at the first line end at or past it; huge-line and binary are
// exactly Size bytes.
func TestSizeLandsAtFirstLineEnd(t *testing.T) {
	for _, sh := range corpus.Shapes() {
		for _, size := range []int64{1, 59, 60, 1000, 65_537, 300_000} {
			s := corpus.Spec{Shape: sh, Size: size, Lines: 3, Seed: 2}
			b := mustBytes(t, s)
			got := int64(len(b))
			switch sh {
			case corpus.HugeLine, corpus.Binary:
				if got != size {
					t.Errorf("%s size %d: %d bytes, want exactly %d", sh, size, got, size)
				}
				continue
			}
			ls := lines(b)
			last := int64(len(ls[len(ls)-1]))
			if sh == corpus.NoFinalNewline && len(ls) > 1 {
				last++ // the "\n" before the last line belongs to the line before it
			}
			if got < size || got-last >= size {
				t.Errorf("%s size %d: %d bytes with a last line of %d: not the first line end at or past the target", sh, size, got, last)
			}
			if sh == corpus.NoFinalNewline {
				if b[len(b)-1] == '\n' {
					t.Errorf("%s size %d: ends in \\n", sh, size)
				}
			} else if b[len(b)-1] != '\n' {
				t.Errorf("%s size %d: does not end at a line end", sh, size)
			}
		}
	}
}

func TestSeedsGiveDifferentBytes(t *testing.T) {
	for _, sh := range corpus.Shapes() {
		a := mustBytes(t, corpus.Spec{Shape: sh, Size: 4096, Seed: 1})
		b := mustBytes(t, corpus.Spec{Shape: sh, Size: 4096, Seed: 2})
		again := mustBytes(t, corpus.Spec{Shape: sh, Size: 4096, Seed: 1})
		if bytes.Equal(a, b) {
			t.Errorf("%s: seeds 1 and 2 give the same bytes", sh)
		}
		if !bytes.Equal(a, again) {
			t.Errorf("%s: seed 1 twice gives different bytes", sh)
		}
	}
}

func TestInvalidSpecNamesTheProblem(t *testing.T) {
	for _, tc := range []struct {
		spec corpus.Spec
		is   error
		msg  string
	}{
		{corpus.Spec{Shape: "square"}, corpus.ErrUnknownShape, `corpus: unknown shape "square" (want one of tall, wide, verywide, mixed, crlf, no-final-newline, huge-line, binary, stacktrace)`},
		{corpus.Spec{}, corpus.ErrUnknownShape, `corpus: unknown shape ""`},
		{corpus.Spec{Shape: corpus.Tall, Lines: -1}, corpus.ErrNegativeField, "corpus: negative field: Lines is -1"},
		{corpus.Spec{Shape: corpus.Wide, Phrases: -2}, corpus.ErrNegativeField, "corpus: negative field: Phrases is -2"},
		{corpus.Spec{Shape: corpus.Binary, Size: -3}, corpus.ErrNegativeField, "corpus: negative field: Size is -3"},
	} {
		var buf bytes.Buffer
		n, err := corpus.Generate(&buf, tc.spec)
		if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), tc.msg) {
			t.Errorf("Generate(%+v) = %v, want %q", tc.spec, err, tc.msg)
		}
		if n != 0 || buf.Len() != 0 {
			t.Errorf("Generate(%+v) wrote %d bytes (returned %d)", tc.spec, buf.Len(), n)
		}
		if b, err := corpus.Bytes(tc.spec); b != nil || !errors.Is(err, tc.is) {
			t.Errorf("Bytes(%+v) = %d bytes, %v", tc.spec, len(b), err)
		}
		if err := tc.spec.Validate(); !errors.Is(err, tc.is) {
			t.Errorf("Validate(%+v) = %v", tc.spec, err)
		}
	}
}

// failingWriter accepts limit bytes, then fails every write.
type failingWriter struct {
	limit, got int
}

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.limit-w.got)
	w.got += n
	if n < len(p) {
		return n, errDiskFull
	}
	return n, nil
}

func TestGenerateStopsAtTheFirstWriteError(t *testing.T) {
	w := &failingWriter{limit: 300_000}
	n, err := corpus.Generate(w, corpus.Spec{Shape: corpus.Tall, Size: 10 << 20})
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("err = %v, want disk full", err)
	}
	if n != 300_000 {
		t.Fatalf("n = %d, want the 300000 bytes accepted", n)
	}
}

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

func TestGenerateReportsShortWrite(t *testing.T) {
	if _, err := corpus.Generate(shortWriter{}, corpus.Spec{Shape: corpus.Binary, Size: 10}); err != io.ErrShortWrite {
		t.Fatalf("err = %v, want io.ErrShortWrite", err)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "c.txt")
	if err := os.WriteFile(name, bytes.Repeat([]byte("old"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	s := corpus.Spec{Shape: corpus.Mixed, Size: 100_000, Seed: 4}
	n, err := corpus.WriteFile(name, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if want := mustBytes(t, s); !bytes.Equal(got, want) || n != int64(len(want)) {
		t.Fatalf("file has %d bytes (WriteFile said %d), want the %d of Bytes", len(got), n, len(want))
	}

	// An invalid spec leaves an existing file alone.
	if _, err := corpus.WriteFile(name, corpus.Spec{Shape: "nope"}); !errors.Is(err, corpus.ErrUnknownShape) {
		t.Fatalf("err = %v", err)
	}
	if again, _ := os.ReadFile(name); !bytes.Equal(again, got) {
		t.Fatal("WriteFile with an invalid spec changed the file")
	}

	if _, err := corpus.WriteFile(filepath.Join(dir, "missing", "c.txt"), s); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("WriteFile into a missing directory: err = %v", err)
	}
}

// TestStackTraceEntries checks the stacktrace shape's structure: Lines entries, each a
// header line that begins with its timestamp, then only trace lines (an exception, a
// frame, a cause, a "... N more"), none of which begins with a digit.
func TestStackTraceEntries(t *testing.T) {
	b := mustBytes(t, corpus.Spec{Shape: corpus.StackTrace, Lines: 500, Seed: 9})
	entries, traced := 0, 0
	for i, l := range lines(b) {
		s := string(l)
		switch {
		case strings.HasPrefix(s, "2026-05-"):
			entries++
			if !strings.Contains(s, " INFO [worker-") && !strings.Contains(s, " WARN [worker-") && !strings.Contains(s, " ERROR [worker-") {
				t.Fatalf("line %d: a header without a level and thread: %q", i+1, s)
			}
		case strings.HasPrefix(s, "\tat com.example.") && strings.HasSuffix(s, ")\n"):
		case strings.HasPrefix(s, "java.") && i > 0:
			traced++
		case strings.HasPrefix(s, "Caused by: java."), strings.HasPrefix(s, "\t... ") && strings.HasSuffix(s, " more\n"):
		default:
			t.Fatalf("line %d is none of the shape's kinds: %q", i+1, s)
		}
	}
	if entries != 500 || traced < 50 || traced > 150 {
		t.Fatalf("%d entries (want 500), %d with a trace (want about a fifth)", entries, traced)
	}
}
