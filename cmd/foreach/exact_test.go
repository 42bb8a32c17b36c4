package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/testdata/gen/corpus"
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
	return in
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
