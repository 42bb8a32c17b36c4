package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// textio cuts every file into 64 MiB blocks (and merges a last block of 16 MiB or less
// into the one before); foreachio's DefaultSectionSize is the same 64 MiB.
const split = 64 << 20

// A testCase is one file of the comparison, made from real text.
type testCase struct {
	name  string // the command line's and the table's name
	file  string // its file name in the data directory
	about string // what it holds, for the table
	// make returns the file's bytes, given the text (the Go distribution's .go files
	// concatenated, in path order).
	make func(text []byte) ([]byte, error)
}

var cases = []testCase{
	{"plain", "plain.txt", "the Go distribution's .go files concatenated, repeated to 200 MiB", func(t []byte) ([]byte, error) {
		return repeatLines(t, 200<<20), nil
	}},
	{"crlf", "crlf.txt", `100 MiB of that text with every "\n" made "\r\n"`, func(t []byte) ([]byte, error) {
		return bytes.ReplaceAll(repeatLines(t, 100<<20), []byte("\n"), []byte("\r\n")), nil
	}},
	{"long", "long.txt", "130 lines of 1,000,000 bytes (the text with its newlines made spaces)", func(t []byte) ([]byte, error) {
		return longLines(t, 130, 1_000_000), nil
	}},
	{"nofinal", "nofinal.txt", "100 MiB of the text, ending inside a line (no final newline)", func(t []byte) ([]byte, error) {
		b := repeatText(t, 100<<20)
		return bytes.TrimRight(b, "\n"), nil
	}},
	{"straddle", "straddle.txt", "216 MiB of the text with a record starting exactly at 64 MiB, a \"\\r\\n\" across 128 MiB and a 2 MiB line across 192 MiB", func(t []byte) ([]byte, error) {
		return straddle(t), nil
	}},
	{"gzip", "plain.txt.gz", "plain.txt compressed by compress/gzip (default level)", func(t []byte) ([]byte, error) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(repeatLines(t, 200<<20)); err != nil {
			return nil, err
		}
		err := zw.Close()
		return buf.Bytes(), err
	}},
}

func caseByName(name string) (testCase, bool) {
	for _, c := range cases {
		if c.name == name {
			return c, true
		}
	}
	return testCase{}, false
}

// goText is the real text of the comparison: every .go file under GOROOT/src,
// concatenated in path order.
func goText() ([]byte, error) {
	var buf bytes.Buffer
	root := filepath.Join(runtime.GOROOT(), "src")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		b, err := os.ReadFile(path)
		buf.Write(b)
		return err
	})
	if err == nil && buf.Len() == 0 {
		err = fmt.Errorf("no .go file under %s", root)
	}
	return buf.Bytes(), err
}

// repeatText is the first n bytes of text repeated.
func repeatText(text []byte, n int) []byte {
	out := make([]byte, 0, n)
	for len(out) < n {
		out = append(out, text[:min(len(text), n-len(out))]...)
	}
	return out
}

// repeatLines is text repeated to at least n bytes, up to the end of the line at byte n.
func repeatLines(text []byte, n int) []byte {
	out := repeatText(text, n+len(text))
	if i := bytes.IndexByte(out[n:], '\n'); i >= 0 {
		return out[:n+i+1]
	}
	return out
}

// longLines is count lines of size bytes each, "\n" included, cut from the text with its
// own newlines made spaces.
func longLines(text []byte, count, size int) []byte {
	flat := bytes.ReplaceAll(repeatText(text, count*size), []byte("\n"), []byte(" "))
	for i := size - 1; i < len(flat); i += size {
		flat[i] = '\n'
	}
	return flat
}

// straddle is 216 MiB of the text, so that textio cuts it at 64, 128 and 192 MiB as
// foreachio does (its last block, 24 MiB, is kept), with a chosen shape at each cut:
// a record that starts exactly at the first, a "\r\n" whose "\r" is the last byte before
// the second, and a line that runs from 1 MiB before the third to 1 MiB after it.
func straddle(text []byte) []byte {
	b := repeatText(text, 216<<20)
	b[split-1] = '\n'
	b[2*split-1], b[2*split] = '\r', '\n'
	for i := 3*split - 1<<20; i < 3*split+1<<20; i++ {
		if b[i] == '\n' {
			b[i] = ' '
		}
	}
	return b
}
