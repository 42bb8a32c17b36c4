package zindex_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/corpus"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// A fixture is a gzip file made by a tool or by hand from the test text,
// and its decompressed bytes as a sequential read gives them
// (internal/decompress's Reader, which gzip -d agrees with: see
// TestFixturesAgainstGzip).
type fixture struct {
	name string
	gz   []byte
	text []byte
	// trailing: bytes that are not a member follow the last one.
	trailing bool
}

var (
	fixturesOnce sync.Once
	fixtureList  []fixture
	fixtureErr   error
)

// testText is about 400 KiB of lines (tall, then mixed: long lines and
// empty ones), with 16 KiB of random bytes in the middle that compressors
// store rather than compress.
func testText(t testing.TB) []byte {
	t.Helper()
	tall, err := corpus.Bytes(corpus.Spec{Shape: corpus.Tall, Size: 200 << 10, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	mixed, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: 200 << 10, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	random := make([]byte, 16<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	return append(append(append(tall, random...), '\n'), mixed...)
}

// toolCommands make the fixtures: each tool's default and extremes, and the
// tools that write many blocks or members (pigz's sync-flushed blocks, its
// independent ones, BGZF).
var toolCommands = []string{
	"gzip -c -n", "gzip -c -n -1", "gzip -c -n -9",
	"pigz -c -n -p 2 -b 32", "pigz -c -n -i -p 2 -b 32",
	"bgzip -c", "igzip -c -1", "igzip -c -3", "libdeflate-gzip -c -9",
}

func fixtures(t testing.TB) []fixture {
	t.Helper()
	fixturesOnce.Do(func() { fixtureList, fixtureErr = makeFixtures(t, testText(t)) })
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtureList
}

func makeFixtures(t testing.TB, text []byte) ([]fixture, error) {
	var list []fixture
	add := func(name string, gz []byte, trailing bool) error {
		r := decompress.NewReader(bytes.NewReader(gz))
		want, err := io.ReadAll(r)
		if trailing && err != nil && strings.Contains(err.Error(), "trailing data") {
			err = nil
		}
		if err != nil {
			return err
		}
		list = append(list, fixture{name: name, gz: gz, text: want, trailing: trailing})
		return nil
	}
	// compress/gzip, flushed every 10 KiB: a block boundary there, where a
	// tool's blocks hold 100 KiB of text or more.
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for rest := text; len(rest) > 0; {
		n := min(len(rest), 10<<10)
		zw.Write(rest[:n])
		zw.Flush()
		rest = rest[n:]
	}
	zw.Close()
	goGzip := b.Bytes()
	if err := add("compress/gzip", goGzip, false); err != nil {
		return nil, err
	}
	for _, command := range toolCommands {
		out, ok := tools.Output(t, command, text)
		if !ok {
			continue
		}
		if err := add(command, out, false); err != nil {
			return nil, err
		}
	}
	// Several members, one of them empty, as cat a.gz b.gz makes them.
	var empty bytes.Buffer
	gzip.NewWriter(&empty).Close()
	small := gzipOf([]byte("a short member\n"))
	multi := concat(goGzip[:len(goGzip):len(goGzip)], empty.Bytes(), small, goGzip)
	if err := add("members", multi, false); err != nil {
		return nil, err
	}
	if err := add("zero padding", concat(goGzip, make([]byte, 1000)), false); err != nil {
		return nil, err
	}
	if err := add("trailing data", concat(goGzip, []byte("trailing garbage\n")), true); err != nil {
		return nil, err
	}
	if err := add("empty", empty.Bytes(), false); err != nil {
		return nil, err
	}
	return list, nil
}

func gzipOf(text []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(text)
	zw.Close()
	return b.Bytes()
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// writeFixture writes f's compressed bytes into dir and returns the path.
func writeFixture(t testing.TB, dir string, f fixture) string {
	t.Helper()
	name := filepath.Join(dir, strings.NewReplacer(" ", "_", "/", "_").Replace(f.name)+".gz")
	if err := os.WriteFile(name, f.gz, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestFixturesAgainstGzip checks the reference itself: gzip -d gives the
// same bytes as internal/decompress for every fixture.
func TestFixturesAgainstGzip(t *testing.T) {
	if _, err := exec.LookPath("gzip"); err != nil {
		t.Skip("gzip is not installed")
	}
	for _, f := range fixtures(t) {
		cmd := exec.Command("gzip", "-dc")
		cmd.Stdin = bytes.NewReader(f.gz)
		out, _ := cmd.Output() // trailing data: a warning and status 2
		if !bytes.Equal(out, f.text) {
			t.Errorf("%s: gzip -dc gives %d bytes, decompress %d", f.name, len(out), len(f.text))
		}
	}
}
