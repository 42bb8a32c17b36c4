package zindex_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/foreachio/foreach/zindex"
)

func encode(t testing.TB, ix *zindex.Index) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := ix.WriteTo(&b)
	if err != nil || n != int64(b.Len()) {
		t.Fatalf("WriteTo: %d, %v (%d bytes written)", n, err, b.Len())
	}
	return b.Bytes()
}

// TestWriteRead writes every fixture's index and reads it back: the same
// bytes again, and the same reads through it.
func TestWriteRead(t *testing.T) {
	for _, f := range fixtures(t) {
		ix := build(t, f, testSpan)
		b := encode(t, ix)
		got, err := zindex.Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: Read: %v", f.name, err)
		}
		if again := encode(t, got); !bytes.Equal(again, b) {
			t.Fatalf("%s: an index read back writes other bytes", f.name)
		}
		if got.Size() != ix.Size() || got.Points() != ix.Points() || got.CompressedSize() != ix.CompressedSize() {
			t.Fatalf("%s: read back: size %d, %d points, compressed %d", f.name, got.Size(), got.Points(), got.CompressedSize())
		}
		if off, ok := got.TrailingData(); ok != f.trailing || (ok && off != ixTrailing(ix)) {
			t.Fatalf("%s: TrailingData read back: %d, %v", f.name, off, ok)
		}
		ra := got.ReaderAt(bytes.NewReader(f.gz))
		for _, off := range got.Offsets() {
			checkReadAt(t, f.name, ra, f.text, off, 1000)
		}
	}
}

func ixTrailing(ix *zindex.Index) int64 {
	off, _ := ix.TrailingData()
	return off
}

// TestIndexSize checks what an index of text costs: a point's window is
// kept compressed, well under half of its 32 KiB. (At the default span the
// index of 128 MiB of text is about 1% of its .gz: benchmarks/zindex.sh.)
func TestIndexSize(t *testing.T) {
	f := fixtures(t)[0]
	ix := build(t, f, 256<<10)
	if n := len(encode(t, ix)); n > 200+ix.Points()*14<<10 {
		t.Fatalf("the index of %d points is %d bytes", ix.Points(), n)
	}
}

// TestReadRefusesDamage changes every byte of an index, cuts it at every
// length, and changes its version: Read refuses each with ErrCorrupt or
// ErrVersion, never panics.
func TestReadRefusesDamage(t *testing.T) {
	var f fixture
	for _, x := range fixtures(t) {
		if x.name == "members" {
			f = x
		}
	}
	b := encode(t, build(t, f, 64<<10))
	// Every byte of the fields and the checksum, and bytes of the windows.
	for i := range b {
		if i > 200 && i < len(b)-8 && i%61 != 0 {
			continue
		}
		for _, x := range []byte{1, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] ^= x
			if _, err := zindex.Read(bytes.NewReader(c)); !errors.Is(err, zindex.ErrCorrupt) && !errors.Is(err, zindex.ErrVersion) {
				t.Fatalf("byte %d changed (^%#x): %v", i, x, err)
			}
		}
	}
	for n := 0; n < len(b); n += 1 + n/100 {
		if _, err := zindex.Read(bytes.NewReader(b[:n])); !errors.Is(err, zindex.ErrCorrupt) && !errors.Is(err, zindex.ErrVersion) {
			t.Fatalf("cut at %d of %d: %v", n, len(b), err)
		}
	}
	c := bytes.Clone(b)
	c[8] = 4 // the version, after the 8-byte magic number
	if _, err := zindex.Read(bytes.NewReader(c)); !errors.Is(err, zindex.ErrVersion) || err.Error() != "zindex: unsupported index version 4 (this package reads versions 2 and 3)" {
		t.Fatalf("version 4: %v", err)
	}
}

// withSum returns b, an index's bytes without their checksum, with it.
func withSum(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// TestReadVersion1 refuses an index of version 1 (round 5's gzip indexes,
// whose points carry no CRC-32 of the text), saying to build it again:
// reads through it could not check what they decode.
func TestReadVersion1(t *testing.T) {
	b := []byte("\x89ZIDX\r\n\x1a")
	b = append(b, 1, 1, 0, 100) // version 1, gzip, no flags, a file of 100 bytes
	b = append(b, make([]byte, 64)...)
	b = append(b, 200, 1, 0, 1, 1, 0, 0) // 200 bytes of text, span 0, one point: a member at 0
	_, err := zindex.Read(bytes.NewReader(withSum(b)))
	want := "zindex: unsupported index version 1, whose reads could not check the text they decode: build the index again"
	if !errors.Is(err, zindex.ErrVersion) || err.Error() != want {
		t.Fatalf("version 1: %v", err)
	}
}

// TestLoad saves an index beside its file and loads it back; a file
// changed in its size, its first bytes or its last bytes makes the index
// stale; no index is fs.ErrNotExist.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	f := fixtures(t)[0]
	name := writeFixture(t, dir, f)
	if _, err := zindex.Load(name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no index: %v, want fs.ErrNotExist", err)
	}
	ix := build(t, f, testSpan)
	if err := ix.Save(name); err != nil {
		t.Fatal(err)
	}
	if got, err := zindex.Load(name); err != nil || got.Size() != ix.Size() {
		t.Fatalf("Load: %v", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, "*.zidx.*")); len(leftovers) > 0 {
		t.Fatalf("Save left %v", leftovers)
	}
	if runtime.GOOS != "windows" {
		// The index may be read by whoever may read its file.
		if err := os.Chmod(name, 0o640); err != nil {
			t.Fatal(err)
		}
		if err := ix.Save(name); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(name + ".zidx"); err != nil || fi.Mode().Perm() != 0o640 {
			t.Fatalf("the index's mode: %v, %v; want the file's, -rw-r-----", fi.Mode(), err)
		}
	}
	changes := map[string]func([]byte) []byte{
		"appended":   func(b []byte) []byte { return append(b, 0) },
		"first byte": func(b []byte) []byte { b[4] ^= 1; return b }, // the mtime: gzip -d does not mind
		"last byte":  func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
		"shorter":    func(b []byte) []byte { return b[:len(b)-1] },
	}
	for what, change := range changes {
		if err := os.WriteFile(name, change(bytes.Clone(f.gz)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := zindex.Load(name); !errors.Is(err, zindex.ErrStale) {
			t.Fatalf("%s: %v, want ErrStale", what, err)
		}
	}
	if err := os.WriteFile(name+".zidx", []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := zindex.Load(name); !errors.Is(err, zindex.ErrCorrupt) {
		t.Fatalf("a damaged index: %v, want ErrCorrupt", err)
	}
}

// FuzzRead reads any bytes as an index: never a panic; bytes that Read
// takes write themselves again and make a ReaderAt that never panics.
//
//	go test -fuzz FuzzRead ./zindex
func FuzzRead(f *testing.F) {
	// Small seeds (the fuzzer minimizes what it finds by running it again
	// and again): indexes of text whose windows compress to little.
	text := bytes.Repeat([]byte("a line of text, and another\n"), 20000)
	for _, gz := range [][]byte{gzipOf(text), concat(gzipOf(text[:1000]), gzipOf(text[:70000])), concat(gzipOf(text), []byte("x"))} {
		f.Add(encode(f, build(f, fixture{name: "seed", gz: gz}, 100<<10)))
	}
	ix, err := zindex.FromStructure(bytes.NewReader(fuzzBGZF), int64(len(fuzzBGZF)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(encode(f, ix))
	f.Add([]byte("\x89ZIDX\r\n\x1a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzIndex(t, b)
		if len(b) >= 4 {
			// The same fields with a checksum that matches them, so that
			// the fuzzer reaches past the checksum.
			body := b[:len(b)-4]
			fuzzIndex(t, binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, castagnoli)))
		}
	})
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fuzzIndex is FuzzRead's check of one input.
func fuzzIndex(t *testing.T, b []byte) {
	ix, err := zindex.Read(bytes.NewReader(b))
	if err != nil {
		if !errors.Is(err, zindex.ErrCorrupt) && !errors.Is(err, zindex.ErrVersion) {
			t.Fatalf("an error that is neither ErrCorrupt nor ErrVersion: %v", err)
		}
		return
	}
	if again := encode(t, ix); !bytes.Equal(again, b) {
		t.Fatalf("read and written again: other bytes")
	}
	// Over bytes that may not be its file, a read fails or gives wrong
	// bytes, but returns.
	p := make([]byte, 100)
	for _, file := range [][]byte{fuzzFile, fuzzBGZF} {
		ra := ix.ReaderAt(bytes.NewReader(file))
		for _, off := range ix.Offsets() {
			ra.ReadAt(p, off)
		}
	}
}

// fuzzFile is the compressed file FuzzRead's indexes are read over: the
// first seed's.
var fuzzFile = gzipOf(bytes.Repeat([]byte("a line of text, and another\n"), 20000))

// fuzzBGZF is the file the indexes of pieces are read over: the same text
// as BGZF members, whose structure indexes it.
var fuzzBGZF = bgzfOf(bytes.Repeat([]byte("a line of text, and another\n"), 20000), 64<<10)
