package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/build"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// bufferSizes are the --buffer values the byte-exactness tests go through:
// tiny ones put separators and CRLF pairs across every read boundary.
var bufferSizes = []int{1, 2, 3, 5, 7, 16, 100, 4096, 64 << 10}

// randomInput is n random bytes drawn mostly from a small alphabet rich in
// "\n", "\r" and NUL, so that lines are short and line ends varied.
func randomInput(rng *rand.Rand, n int) []byte {
	const alphabet = "ab\n\r\x00\xff\xe3\x81"
	b := make([]byte, n)
	for i := range b {
		if rng.IntN(8) == 0 {
			b[i] = byte(rng.IntN(256))
		} else {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
	}
	return b
}

// exactInputs is a named set of inputs: edge cases, random bytes and every corpus shape.
func exactInputs(t *testing.T) map[string][]byte {
	in := map[string][]byte{
		"empty":            {},
		"one newline":      []byte("\n"),
		"only newlines":    []byte("\n\n\n"),
		"no final newline": []byte("a\nbb\nccc"),
		"one byte":         []byte("x"),
		"crlf":             []byte("a\r\nb\r\n\r\n"),
		"lone cr":          []byte("a\rb\r"),
		"nul":              []byte("a\x00b\x00\n\x00"),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 6 {
		in["random "+strconv.Itoa(i)] = randomInput(rng, rng.IntN(5000))
	}
	for _, shape := range corpus.Shapes() {
		b, err := corpus.Bytes(corpus.Spec{Shape: shape, Size: 20 << 10, Seed: 7})
		require.NoError(t, err, shape)
		in["corpus "+string(shape)] = b
	}
	in["real text"] = realText(t, 256<<10)
	return in
}

// realText is real text: the Go distribution's own sources, the .go files of a few
// packages concatenated, cut to at most n bytes at a line end. Tabs, blank lines,
// comments and a spread of line lengths that no generator imitates.
func realText(t testing.TB, n int) []byte {
	t.Helper()
	var b []byte
	for _, pkg := range []string{"bufio", "bytes", "strings", "strconv", "fmt"} {
		names, err := filepath.Glob(filepath.Join(build.Default.GOROOT, "src", pkg, "*.go"))
		require.NoError(t, err)
		slices.Sort(names)
		for _, name := range names {
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			b = append(b, data...)
		}
	}
	if len(b) == 0 {
		t.Skip("no Go sources under GOROOT")
	}
	if len(b) > n {
		b = b[:bytes.LastIndexByte(b[:n], '\n')+1]
	}
	return b
}

// TestByteExact checks foreach FILE | cmp - FILE, and the same through standard
// input, for every input and read size.
func TestByteExact(t *testing.T) {
	dir := t.TempDir()
	for name, data := range exactInputs(t) {
		file := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		require.NoError(t, os.WriteFile(file, data, 0o666))
		for _, size := range bufferSizes {
			buf := "--buffer=" + strconv.Itoa(size)
			out, errs, status := runCmd(t, "", buf, file)
			if !assert.Equal(t, 0, status, "%s %s: %s", name, buf, errs) {
				continue
			}
			assert.True(t, bytes.Equal(data, []byte(out)), "%s %s: output differs from the input", name, buf)

			out, _, status = runCmd(t, string(data), buf)
			assert.Equal(t, 0, status, "%s %s (stdin)", name, buf)
			assert.True(t, bytes.Equal(data, []byte(out)), "%s %s (stdin): output differs from the input", name, buf)
		}
	}
}

// TestCountMatchesNewlines checks -c against a count of "\n" (wc -l), plus one
// for an unterminated last line, for every input and read size, and -j.
func TestCountMatchesNewlines(t *testing.T) {
	dir := t.TempDir()
	for name, data := range exactInputs(t) {
		file := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		require.NoError(t, os.WriteFile(file, data, 0o666))
		want := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want++
		}
		for _, args := range [][]string{{"--buffer=1"}, {"--buffer=7"}, {"-j1"}, {"-j2"}, {}} {
			out, errs, status := runCmd(t, "", append(append([]string{"-c"}, args...), file)...)
			assert.Equal(t, 0, status, "%s %q: %s", name, args, errs)
			assert.Equal(t, fmt.Sprintf("%d %s\n", want, file), out, "%s %q", name, args)
		}
		out, _, _ := runCmd(t, string(data), "-c")
		assert.Equal(t, fmt.Sprintf("%d\n", want), out, "%s (stdin)", name)
	}
}

// TestChompOrsRoundTrip checks that --chomp (whose --ors is "\n") gives the
// input back on newline-terminated LF inputs, and that -0 reads back what
// --chomp --ors '\0' wrote.
func TestChompOrsRoundTrip(t *testing.T) {
	b, err := corpus.Bytes(corpus.Spec{Shape: corpus.Tall, Size: 50 << 10, Seed: 3})
	require.NoError(t, err)
	dir := t.TempDir()
	file := filepath.Join(dir, "tall")
	require.NoError(t, os.WriteFile(file, b, 0o666))
	for _, size := range bufferSizes {
		buf := "--buffer=" + strconv.Itoa(size)
		out, _, status := runCmd(t, "", "-C", buf, file)
		assert.Equal(t, 0, status)
		assert.True(t, bytes.Equal(b, []byte(out)), "%s: --chomp round trip", buf)

		nul, _, status := runCmd(t, "", "-C", `--ors=\0`, buf, file)
		assert.Equal(t, 0, status)
		assert.Equal(t, bytes.Count(b, []byte("\n")), strings.Count(nul, "\x00"))
		back, _, status := runCmd(t, nul, "-0", "-C", buf)
		assert.Equal(t, 0, status)
		assert.True(t, bytes.Equal(b, []byte(back)), "%s: -0 round trip", buf)
	}
}

// exactFiles writes exactInputs to dir, in a fixed order, and returns their names.
func exactFiles(t *testing.T, dir string) []string {
	inputs := exactInputs(t)
	var names []string
	for name, data := range inputs {
		file := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		require.NoError(t, os.WriteFile(file, data, 0o666))
		names = append(names, file)
	}
	slices.Sort(names)
	return names
}

// toolOutput runs a tool of the system, or skips the test where it is missing.
func toolOutput(t *testing.T, name string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("no %s", name)
	}
	out, err := exec.Command(name, args...).Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 { // grep exits 1 when nothing matched
		require.NoError(t, err, "%s %q", name, args)
	}
	return string(out)
}

// -n against the system's cat -n, byte for byte, over all the inputs at once (files
// that end without a newline run on into the next) and over each file alone, at every
// read size: the small ones cut long lines into pieces.
func TestNumberMatchesCatN(t *testing.T) {
	names := exactFiles(t, t.TempDir())
	// All at once, and each with its neighbour and itself again (so that every file
	// follows both a terminated and an unterminated one somewhere).
	sets := [][]string{names}
	for i := 0; i+1 < len(names); i++ {
		sets = append(sets, []string{names[i], names[i+1], names[i]})
	}
	for i, files := range sets {
		want := toolOutput(t, "cat", append([]string{"-n"}, files...)...)
		sizes := []int{1, 2, 7, 100, 64 << 10}
		if i > 0 {
			sizes = []int{16, 64 << 10} // pieces of most lines, and whole lines
		}
		for _, size := range sizes {
			args := append([]string{"-n", "--buffer=" + strconv.Itoa(size)}, files...)
			out, errs, status := runCmd(t, "", args...)
			require.Equal(t, 0, status, errs)
			if out != want {
				t.Errorf("foreach %q differs from cat -n at byte %d", args[:2], firstDiff(out, want))
			}
		}
	}
}

// -H against the system's grep -aH with an empty pattern (every line, prefixed, each ending with a newline
// even at the end of a file), byte for byte, at every read size.
func TestWithFilenameMatchesGrepH(t *testing.T) {
	names := exactFiles(t, t.TempDir())
	want := toolOutput(t, "grep", append([]string{"-aH", ""}, names...)...)
	for _, size := range []int{1, 3, 16, 64 << 10} {
		args := append([]string{"-H", "--buffer=" + strconv.Itoa(size)}, names...)
		out, errs, status := runCmd(t, "", args...)
		require.Equal(t, 0, status, errs)
		if out != want {
			t.Errorf("foreach %q differs from grep -aH '' at byte %d", args[:2], firstDiff(out, want))
		}
	}
}

// -H -n against the system's grep -aHn with an empty pattern: FILE:N:record with N
// counted in each file, every record ended with a newline, byte for byte, over the
// exact inputs and over random files of short lines (empty lines, unterminated last
// lines, NUL, CR and bytes that are not UTF-8), several at once, at every read size;
// the random files with -0 against grep -z too. Before round 4, -H -n printed cat -n's numbers, counted
// across files, after the name.
func TestWithFilenameNumberMatchesGrepHn(t *testing.T) {
	dir := t.TempDir()
	sets := [][]string{exactFiles(t, dir)}
	rng := rand.New(rand.NewPCG(31, 2))
	for round := range 8 {
		var names []string
		for i := range 1 + rng.IntN(4) {
			data := make([]byte, rng.IntN(300))
			for j := range data {
				data[j] = "ab\n\n\x00\r\x80\xff"[rng.IntN(8)]
			}
			name := filepath.Join(dir, fmt.Sprintf("random-%d-%d", round, i))
			require.NoError(t, os.WriteFile(name, data, 0o666))
			names = append(names, name)
		}
		sets = append(sets, names)
	}
	for i, names := range sets {
		for _, null := range []bool{false, true} {
			if null && i == 0 {
				continue // the exact inputs are lines; the random files hold NULs
			}
			grepArgs, args := []string{"-aHn", ""}, []string{"-H", "-n"}
			if null {
				grepArgs, args = []string{"-zaHn", ""}, []string{"-H", "-n", "-0"}
			}
			want := toolOutput(t, "grep", append(grepArgs, names...)...)
			for _, size := range []int{1, 3, 16, 64 << 10} {
				a := append(append(args, "--buffer="+strconv.Itoa(size)), names...)
				out, errs, status := runCmd(t, "", a...)
				require.Equal(t, 0, status, errs)
				if out != want {
					t.Fatalf("foreach %q differs from grep %q at byte %d\ngot  %q\nwant %q",
						a, grepArgs, firstDiff(out, want), out, want)
				}
			}
		}
	}
}

// -c against the system's wc -l on newline-terminated inputs (wc -l counts newlines, so
// an unterminated last line is one more for foreach).
func TestCountMatchesWcL(t *testing.T) {
	for _, file := range exactFiles(t, t.TempDir()) {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		wc := strings.Fields(toolOutput(t, "wc", "-l", file))
		n, err := strconv.Atoi(wc[0])
		require.NoError(t, err)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		for _, args := range [][]string{{"-c"}, {"-c", "--buffer=3"}, {"-c", "--stats"}} {
			out, errs, status := runCmd(t, "", append(args, file)...)
			require.Equal(t, 0, status, errs)
			assert.Equal(t, fmt.Sprintf("%d %s\n", n, file), out, "%q", args)
		}
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
