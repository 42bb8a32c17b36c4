package blockz_test

import (
	"bytes"
	"encoding/binary"
	"os/exec"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/foreachio/foreach/internal/corpus"
)

// text is the test's text: a mixed corpus (long-tailed line lengths) of
// about size bytes.
func text(t testing.TB, size int64, seed uint64) []byte {
	t.Helper()
	b, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: size, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tool runs a compression tool on input and returns its output, skipping
// the test when the tool is not installed.
func tool(t testing.TB, command string, input []byte) []byte {
	t.Helper()
	args := strings.Fields(command)
	if _, err := exec.LookPath(args[0]); err != nil {
		t.Skipf("%s is not installed", args[0])
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v: %s", command, err, stderr.Bytes())
	}
	return out.Bytes()
}

// bgzf compresses data as BGZF does: members of at most block bytes of
// input, each with the "BC" subfield giving its size, and the empty member
// that ends a BGZF file when eof is set.
func bgzf(t testing.TB, data []byte, block int, eof bool) []byte {
	t.Helper()
	var out bytes.Buffer
	member := func(p []byte) {
		var m bytes.Buffer
		w, err := gzip.NewWriterLevel(&m, 6)
		if err != nil {
			t.Fatal(err)
		}
		w.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		w.Header.OS = 255
		if _, err := w.Write(p); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b := m.Bytes()
		binary.LittleEndian.PutUint16(b[16:], uint16(len(b)-1))
		out.Write(b)
	}
	for len(data) > 0 {
		n := min(block, len(data))
		member(data[:n])
		data = data[n:]
	}
	if eof {
		member(nil)
	}
	return out.Bytes()
}

// gz compresses data as one plain gzip member.
func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var m bytes.Buffer
	w := gzip.NewWriter(&m)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return m.Bytes()
}
