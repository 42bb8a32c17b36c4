package contend

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// Real is the shape of real text that nobody on the project wrote: the Go distribution's
// own .go files, concatenated in path order.
const Real = "real"

// Shapes are the corpora the suite reads: many short lines, few long ones that fit in a
// 64 KiB buffer, lines of 512 KiB and more that do not, a long tail of lengths with empty
// lines among them, and real source text.
var Shapes = []string{string(corpus.Tall), string(corpus.Wide), string(corpus.Verywide), string(corpus.Mixed), Real}

// File is one corpus file and what every contender must find in it.
type File struct {
	Shape string
	Path  string
	Size  int64
	Want  Reference
}

// Reference is what a contender must report of a file: with the records' "\n" kept
// (the engine), or as bufio.ScanLines yields them, without the "\n" and a "\r" before it.
type Reference struct {
	Keep, Chomp Result
}

// MakeFile writes the corpus of the given shape, about size bytes long (it ends at the
// first line end at or past size), into dir, and computes its reference. Writing it puts
// it in the page cache.
func MakeFile(dir, shape string, size int64) (*File, error) {
	path := filepath.Join(dir, shape+".txt")
	if shape == Real {
		if err := writeRealText(path, size); err != nil {
			return nil, err
		}
	} else if _, err := corpus.WriteFile(path, corpus.Spec{Shape: corpus.Shape(shape), Size: size, Seed: 1}); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &File{Shape: shape, Path: path, Size: int64(len(data)), Want: reference(data)}, nil
}

// writeRealText concatenates the .go files under GOROOT/src in path order, from the first
// again when they run out, up to the first line end at or past size.
func writeRealText(path string, size int64) error {
	root := filepath.Join(runtime.GOROOT(), "src")
	var names []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".go") {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("real text: %w", err)
	}
	if len(names) == 0 {
		return errors.New("real text: no .go files under " + root)
	}
	sort.Strings(names)
	var out bytes.Buffer
	for i := 0; int64(out.Len()) < size; i = (i + 1) % len(names) {
		b, err := os.ReadFile(names[i])
		if err != nil {
			return err
		}
		out.Write(b)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			out.WriteByte('\n')
		}
	}
	data := out.Bytes()
	if end := bytes.IndexByte(data[size-1:], '\n'); end >= 0 {
		data = data[:size+int64(end)]
	}
	return os.WriteFile(path, data, 0o644)
}

// reference computes what every contender must find in data, independently of all of
// them, with bytes.IndexByte.
func reference(data []byte) Reference {
	var ref Reference
	for rest := data; len(rest) > 0; {
		n := bytes.IndexByte(rest, '\n') + 1
		if n == 0 {
			n = len(rest)
		}
		rec := rest[:n]
		// bufio.ScanLines drops the "\n" and a "\r" before it, or before the end.
		chomped := bytes.TrimSuffix(bytes.TrimSuffix(rec, []byte{'\n'}), []byte{'\r'})
		ref.Keep.hash(rec)
		ref.Chomp.hash(chomped)
		ref.Keep.Last, ref.Chomp.Last = rec, chomped
		rest = rest[n:]
	}
	return ref
}

// Check reports whether got is what c must see in f: the same records, bytes, ends and
// last record, and the same hash for a hashing contender.
func (f *File) Check(c Contender, got Result) error {
	want := f.Want.Keep
	if c.Chomps {
		want = f.Want.Chomp
	}
	switch {
	case got.Records != want.Records || got.Bytes != want.Bytes || got.Ends != want.Ends:
		return fmt.Errorf("%s on %s: %d records, %d bytes, ends %d; want %d, %d, %d",
			c.Name, f.Shape, got.Records, got.Bytes, got.Ends, want.Records, want.Bytes, want.Ends)
	case c.Hashes && got.Hash != want.Hash:
		return fmt.Errorf("%s on %s: hash %x, want %x", c.Name, f.Shape, got.Hash, want.Hash)
	case got.Last != nil && !bytes.Equal(got.Last, want.Last):
		return fmt.Errorf("%s on %s: last record %.40q, want %.40q", c.Name, f.Shape, got.Last, want.Last)
	}
	return nil
}
