package zindex_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/zindex"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// A structured fixture is a file of a block format whose structure gives
// every piece's size, made from the test text.
type structured struct {
	name   string
	format string
	file   []byte
	text   []byte
	pieces int // at least this many
}

// bgzfOf compresses text as bgzip does: members of at most block bytes of
// text, each with the BC subfield giving its size, and the empty member
// that ends a BGZF file.
func bgzfOf(text []byte, block int) []byte {
	var out bytes.Buffer
	member := func(p []byte) {
		var m bytes.Buffer
		w, _ := kgzip.NewWriterLevel(&m, 6)
		w.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		w.Write(p)
		if err := w.Close(); err != nil {
			panic(err) // writing to memory
		}
		b := m.Bytes()
		binary.LittleEndian.PutUint16(b[16:], uint16(len(b)-1))
		out.Write(b)
	}
	for len(text) > 0 {
		n := min(block, len(text))
		member(text[:n])
		text = text[n:]
	}
	member(nil)
	return out.Bytes()
}

// zstdOf compresses text as zstd frames of at most block bytes of text,
// each with its content size.
func zstdOf(t testing.TB, text []byte, block int) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	for len(text) > 0 {
		n := min(block, len(text))
		out = enc.EncodeAll(text[:n], out)
		text = text[n:]
	}
	return out
}

var (
	structuredOnce sync.Once
	structuredList []structured
)

// structuredFixtures makes the structured fixtures once for the tests that
// read them (not changing them).
func structuredFixtures(t testing.TB) []structured {
	t.Helper()
	structuredOnce.Do(func() { structuredList = makeStructured(t) })
	if structuredList == nil {
		t.Fatal("the structured fixtures could not be made")
	}
	return structuredList
}

func makeStructured(t testing.TB) []structured {
	t.Helper()
	text := testText(t)
	list := []structured{
		{name: "bgzf", format: "gzip", file: bgzfOf(text, 60<<10), pieces: 6},
		{name: "zstd frames", format: "zstd", file: zstdOf(t, text, 50<<10), pieces: 8},
	}
	if out, ok := tools.Output(t, "xz -c -T2 --block-size=40KiB", text); ok {
		list = append(list, structured{name: "xz -T2", format: "xz", file: out, pieces: 10})
		// Two streams, as cat a.xz b.xz makes them, with stream padding.
		two := append(append(bytes.Clone(out), 0, 0, 0, 0), out...)
		list = append(list, structured{name: "xz streams", format: "xz", file: two, pieces: 20})
	}
	if out, ok := tools.Output(t, "bgzip -c", text); ok {
		list = append(list, structured{name: "bgzip", format: "gzip", file: out, pieces: 6})
	}
	for i := range list {
		want, err := io.ReadAll(decompress.NewReader(bytes.NewReader(list[i].file)))
		if err != nil {
			t.Fatalf("%s: %v", list[i].name, err)
		}
		list[i].text = want
	}
	return list
}

// TestFromStructure indexes each block format from its structure: a point
// at every piece, and reads at random offsets and lengths through the
// index (and through the index written and read back) are the text.
func TestFromStructure(t *testing.T) {
	for _, f := range structuredFixtures(t) {
		ix, err := zindex.FromStructure(bytes.NewReader(f.file), int64(len(f.file)))
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if ix.Size() != int64(len(f.text)) || ix.Points() < f.pieces || ix.Format() != f.format {
			t.Fatalf("%s: size %d (want %d), %d points, format %s", f.name, ix.Size(), len(f.text), ix.Points(), ix.Format())
		}
		b := encode(t, ix)
		if b[8] != 3 {
			t.Errorf("%s: written as version %d", f.name, b[8])
		}
		if v2, err := zindex.Read(bytes.NewReader(version2(t, b))); err != nil || !bytes.Equal(encode(t, v2), b) {
			t.Fatalf("%s: the index as version 2 wrote it: %v", f.name, err)
		}
		back, err := zindex.Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: Read: %v", f.name, err)
		}
		if !bytes.Equal(encode(t, back), b) {
			t.Fatalf("%s: read back, another index", f.name)
		}
		rng := rand.New(rand.NewPCG(uint64(len(f.file)), 3))
		for _, x := range []*zindex.Index{ix, back} {
			ra := x.ReaderAt(bytes.NewReader(f.file))
			for _, off := range x.Offsets() {
				checkReadAt(t, f.name, ra, f.text, off, 3000)
			}
			for range 60 {
				checkReadAt(t, f.name, ra, f.text, rng.Int64N(int64(len(f.text))+10), rng.IntN(200<<10))
			}
			whole := make([]byte, len(f.text))
			if n, err := ra.ReadAt(whole, 0); n != len(whole) || (err != nil && err != io.EOF) || !bytes.Equal(whole, f.text) {
				t.Fatalf("%s: the whole text: %d bytes, %v", f.name, n, err)
			}
		}
	}
}

// TestFromStructureRefuses: what the structure does not index is
// ErrNoStructure (trailing data, a plain gzip member, zstd frames without
// sizes), and BuildAt then decodes a gzip file as Build does, and refuses
// other formats with ErrFormat.
func TestFromStructureRefuses(t *testing.T) {
	text := testText(t)
	bgzf := bgzfOf(text, 60<<10)
	cases := map[string][]byte{
		"trailing data": append(bytes.Clone(bgzf), "trailing\n"...),
		"plain gzip":    gzipOf(text),
		"plain text":    text,
	}
	for name, file := range cases {
		if _, err := zindex.FromStructure(bytes.NewReader(file), int64(len(file))); !errors.Is(err, zindex.ErrNoStructure) {
			t.Errorf("%s: %v, want ErrNoStructure", name, err)
		}
	}
	// A format whose pieces do not say their sizes is refused by its first bytes:
	// a bzip2 file is not searched for its blocks first.
	bz := append([]byte("BZh91AY&SY"), bytes.Repeat([]byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0}, 1<<20)...)
	counted := &countingAt{r: bytes.NewReader(bz)}
	if _, err := zindex.FromStructure(counted, int64(len(bz))); !errors.Is(err, zindex.ErrNoStructure) || counted.n > 64<<10 {
		t.Errorf("bzip2: %v, %d bytes read of %d", err, counted.n, len(bz))
	}
	plain := gzipOf(text)
	ix, err := zindex.BuildAt(bytes.NewReader(plain), int64(len(plain)), testSpan)
	if err != nil || ix.Size() != int64(len(text)) || ix.Points() < 2 {
		t.Fatalf("BuildAt of a plain gzip file: %v", err)
	}
	if b := encode(t, ix); b[8] != 3 {
		t.Errorf("a gzip index made by decoding is written as version %d, want 3", b[8])
	}
	one := zstdOf(t, text, 1<<30)
	if ix, err := zindex.BuildAt(bytes.NewReader(one), int64(len(one)), 0); err != nil || ix.Points() != 1 {
		t.Errorf("BuildAt of one zstd frame: %v", err)
	}
	if _, err := zindex.BuildAt(bytes.NewReader(text), int64(len(text)), 0); !errors.Is(err, zindex.ErrFormat) {
		t.Errorf("BuildAt of text: %v, want ErrFormat", err)
	}
}

// TestStructureDamage: a piece changed after its index was made is an
// error of the read that decodes it, in decompress's words, with the
// bytes before it given; pieces elsewhere still read.
func TestStructureDamage(t *testing.T) {
	for _, f := range structuredFixtures(t) {
		ix, err := zindex.FromStructure(bytes.NewReader(f.file), int64(len(f.file)))
		if err != nil {
			t.Fatal(err)
		}
		bad := bytes.Clone(f.file)
		bad[len(bad)*3/5] ^= 0x55
		ra := ix.ReaderAt(bytes.NewReader(bad))
		whole := make([]byte, len(f.text))
		n, err := ra.ReadAt(whole, 0)
		var de *decompress.Error
		if !errors.As(err, &de) || string(de.Format) != ix.Format() {
			t.Fatalf("%s: %d bytes, %v; want a *decompress.Error", f.name, n, err)
		}
		// The damaged piece's bytes may be wrong before its check fails,
		// as a sequential read's are; those of the pieces before it are not.
		before := int64(0)
		for _, off := range ix.Offsets() {
			if off < int64(n) {
				before = off
			}
		}
		if n >= len(whole) || before == 0 || !bytes.Equal(whole[:before], f.text[:before]) {
			t.Fatalf("%s: %d bytes before the damage, not the text's", f.name, n)
		}
		checkReadAt(t, f.name, ra, f.text, 0, 1000)
		t.Logf("%s: %v after %d bytes", f.name, err, n)
	}
}

// TestLoadAtStructure saves an index of pieces beside its file and loads
// it back against the file in hand.
func TestLoadAtStructure(t *testing.T) {
	f := structuredFixtures(t)[0]
	name := filepath.Join(t.TempDir(), "f.gz")
	if err := os.WriteFile(name, f.file, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := zindex.BuildAt(bytes.NewReader(f.file), int64(len(f.file)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Save(name); err != nil {
		t.Fatal(err)
	}
	got, err := zindex.LoadAt(name, bytes.NewReader(f.file), int64(len(f.file)))
	if err != nil || got.Points() != ix.Points() {
		t.Fatalf("LoadAt: %v", err)
	}
	other := bytes.Clone(f.file)
	other[len(other)-30] ^= 1
	if _, err := zindex.LoadAt(name, bytes.NewReader(other), int64(len(other))); !errors.Is(err, zindex.ErrStale) {
		t.Fatalf("LoadAt of another file: %v, want ErrStale", err)
	}
}

// countingAt counts the bytes read through it.
type countingAt struct {
	r io.ReaderAt
	n int64
}

func (c *countingAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// version2 returns the bytes of an index of pieces as version 2 wrote them
// (round 5): version 3's without the file's modification time (unknown,
// one byte 0, after the digests).
func version2(t testing.TB, b []byte) []byte {
	t.Helper()
	_, n := binary.Uvarint(b[11:]) // the file's size, after the magic, version, format and flags
	at := 11 + n + 64
	if b[8] != 3 || b[10] != 0 || b[at] != 0 {
		t.Fatalf("not an index of pieces of version 3 without trailing data or a modification time")
	}
	v2 := append(bytes.Clone(b[:at]), b[at+1:len(b)-4]...)
	v2[8] = 2
	return withSum(v2)
}
