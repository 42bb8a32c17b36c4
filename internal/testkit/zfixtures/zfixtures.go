// Package zfixtures makes, for tests, the compressed files that internal/ztext tells apart:
// a .gz with its index beside it, one without, one with trailing data, BGZF, xz with
// several blocks, pzstd's frames, bzip2's blocks, each holding the same text. The tests of
// Count, parallel and the command read each one and compare with a sequential read. Only
// tests import it.
package zfixtures

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/ztext"
	"github.com/foreachio/foreach/zindex"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// File is one compressed file of the text.
type File struct {
	Kind string // what it is: "indexed.gz", "bgzf.gz", "blocks.xz", ...
	Path string
	// How is how ztext reads it; Parallel whether on several cores (through an index,
	// or its pieces); false for a file read sequentially (a single-member .gz without an
	// index, a zstd file of one frame).
	How      ztext.How
	Parallel bool
}

// TextSize is the size of text the tests compress: enough for several pieces of each
// format and several sections, less under the race detector.
func TextSize() int {
	if Race {
		return 256 << 10
	}
	return 1 << 20
}

// Write writes the compressed files of text into dir, and returns them. A tool that is
// not installed leaves its file out (logged); gzip, its index and BGZF are made here.
// Indexes have an access point about every span bytes of text.
func Write(t testing.TB, dir string, text []byte, span int64) []File {
	t.Helper()
	gz := Gzip(text)
	files := []File{
		{"indexed.gz", write(t, dir, "indexed.gz", gz), ztext.Indexed, true},
		{"trailing.gz", write(t, dir, "trailing.gz", append(bytes.Clone(gz), "trailing data\n"...)), ztext.Indexed, true},
		{"noindex.gz", write(t, dir, "noindex.gz", gz), ztext.Streamed, false},
		{"bgzf.gz", write(t, dir, "bgzf.gz", BGZF(text, 16<<10)), ztext.Structured, true},
		{"sized.zst", write(t, dir, "sized.zst", Zstd(t, text, 32<<10, true)), ztext.Structured, true},
		{"unsized.zst", write(t, dir, "unsized.zst", Zstd(t, text, 32<<10, false)), ztext.Streamed, true},
	}
	for _, f := range files[:2] {
		Index(t, f.Path, span)
	}
	for _, c := range []struct {
		kind, command string
		how           ztext.How
		parallel      bool
	}{
		{"blocks.xz", "xz -c -0 -T2 --block-size=64KiB", ztext.Structured, true},
		{"blocks.bz2", "bzip2 -c -1", ztext.Streamed, true},
	} {
		if out, ok := tool(t, c.command, text); ok {
			files = append(files, File{c.kind, write(t, dir, c.kind, out), c.how, c.parallel})
		}
	}
	// pzstd writes a frame per 2 MiB or so of text at level 1 (without content sizes, each
	// after a skippable frame saying its compressed size): the text, this small, in four
	// runs compressed one after the other makes the frames it would write of a larger one.
	var pz []byte
	for i := range 4 {
		out, ok := tool(t, "pzstd -c -q -p 2 -1", text[len(text)*i/4:len(text)*(i+1)/4])
		if !ok {
			return files
		}
		pz = append(pz, out...)
	}
	return append(files, File{"pzstd.zst", write(t, dir, "pzstd.zst", pz), ztext.Streamed, true})
}

// Zstd is b in zstd frames of at most block bytes of text each, with or without their
// content sizes in their headers.
func Zstd(t testing.TB, b []byte, block int, sized bool) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out []byte
	for len(b) > 0 {
		n := min(block, len(b))
		frame := enc.EncodeAll(b[:n], nil)
		if !sized {
			// The frame header descriptor's top two bits say the size field's length.
			fcs := [4]int{0, 2, 4, 8}[frame[4]>>6]
			frame = append(append([]byte(nil), frame[:6]...), frame[6+fcs:]...)
			frame[4] &^= 0xc0
		}
		out = append(out, frame...)
		b = b[n:]
	}
	return out
}

// Index builds the index of the named gzip file and saves it beside it.
func Index(t testing.TB, name string, span int64) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := zindex.Build(bytes.NewReader(b), span)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Save(name); err != nil {
		t.Fatal(err)
	}
}

// Gzip is b compressed as one gzip member.
func Gzip(b []byte) []byte {
	var out bytes.Buffer
	w := kgzip.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// BGZF is b in BGZF members of at most block bytes of text, and the empty one at the end.
func BGZF(b []byte, block int) []byte {
	var out bytes.Buffer
	for {
		n := min(block, len(b))
		var m bytes.Buffer
		w := kgzip.NewWriter(&m)
		w.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		w.Write(b[:n])
		w.Close()
		mb := m.Bytes()
		binary.LittleEndian.PutUint16(mb[16:], uint16(len(mb)-1))
		out.Write(mb)
		if n == 0 {
			return out.Bytes()
		}
		b = b[n:]
	}
}

func write(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tool runs command on input; false (logged) when the tool did not do its job
// (internal/testkit/tools): then there is no file of it.
func tool(t testing.TB, command string, input []byte) ([]byte, bool) {
	t.Helper()
	return tools.Output(t, command, input)
}
