package zindex_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/zindex"
)

// testSpan puts an access point at most block or member boundaries.
const testSpan = 16 << 10

func build(t testing.TB, f fixture, span int64) *zindex.Index {
	t.Helper()
	ix, err := zindex.Build(bytes.NewReader(f.gz), span)
	if err != nil {
		t.Fatalf("%s: Build: %v", f.name, err)
	}
	return ix
}

func TestBuild(t *testing.T) {
	for _, f := range fixtures(t) {
		ix := build(t, f, testSpan)
		if ix.Size() != int64(len(f.text)) {
			t.Errorf("%s: Size %d, want %d", f.name, ix.Size(), len(f.text))
		}
		if ix.CompressedSize() != int64(len(f.gz)) || ix.Format() != "gzip" {
			t.Errorf("%s: CompressedSize %d (want %d), Format %q", f.name, ix.CompressedSize(), len(f.gz), ix.Format())
		}
		if _, ok := ix.TrailingData(); ok != f.trailing {
			t.Errorf("%s: TrailingData says %v", f.name, ok)
		}
		// A point a span at least past the one before: at the first block
		// or member boundary there.
		offs := ix.Offsets()
		if len(offs) != ix.Points() || offs[0] != 0 {
			t.Errorf("%s: points at %v", f.name, offs)
		}
		for i := 1; i < len(offs); i++ {
			if offs[i]-offs[i-1] < testSpan {
				t.Errorf("%s: points %d and %d at %d and %d, closer than the span", f.name, i-1, i, offs[i-1], offs[i])
			}
		}
		t.Logf("%s: %d points", f.name, ix.Points())
	}
}

func TestBuildRefusesOtherInput(t *testing.T) {
	for _, input := range []string{"", "plain text\n", "\x28\xb5\x2f\xfd\x00\x00\x01\x00\x00"} {
		if _, err := zindex.Build(bytes.NewReader([]byte(input)), 0); !errors.Is(err, zindex.ErrFormat) {
			t.Errorf("%q: %v, want ErrFormat", input, err)
		}
	}
	f := fixtures(t)[0]
	for _, cut := range []int{20, len(f.gz) / 2, len(f.gz) - 1} {
		if _, err := zindex.Build(bytes.NewReader(f.gz[:cut]), 0); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("cut at %d: %v, want io.ErrUnexpectedEOF", cut, err)
		}
	}
	bad := append([]byte{}, f.gz...)
	bad[len(bad)-5] ^= 1 // the size in the trailer
	if _, err := zindex.Build(bytes.NewReader(bad), 0); err == nil || err.Error() != fmt.Sprintf("zindex: gzip: invalid checksum at compressed byte %d", len(bad)) {
		t.Errorf("a wrong trailer: %v", err)
	}
}

// checkReadAt reads ra at off for n bytes and compares with text.
func checkReadAt(t testing.TB, name string, ra io.ReaderAt, text []byte, off int64, n int) {
	t.Helper()
	p := make([]byte, n)
	k, err := ra.ReadAt(p, off)
	want := text[min(off, int64(len(text))):min(off+int64(n), int64(len(text)))]
	if k != len(want) || !bytes.Equal(p[:k], want) {
		t.Fatalf("%s: ReadAt(%d bytes, %d) = %d bytes (%v), want %d: the first difference at %d", name, n, off, k, err, len(want), firstDiff(p[:k], want))
	}
	switch {
	case k < n && err != io.EOF:
		t.Fatalf("%s: ReadAt(%d bytes, %d) = %d, %v: want io.EOF", name, n, off, k, err)
	case k == n && err != nil && err != io.EOF:
		t.Fatalf("%s: ReadAt(%d bytes, %d): %v", name, n, off, err)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestReadAt reads every fixture through its index: at random offsets, at
// and around every access point and member boundary, at the end, past it,
// and sequentially in small reads.
func TestReadAt(t *testing.T) {
	for _, f := range fixtures(t) {
		ix := build(t, f, testSpan)
		ra := ix.ReaderAt(bytes.NewReader(f.gz))
		size := int64(len(f.text))
		rng := rand.New(rand.NewPCG(7, 8))
		for range 40 {
			checkReadAt(t, f.name, ra, f.text, rng.Int64N(size+1), rng.IntN(60<<10))
		}
		for _, off := range ix.Offsets() {
			for _, d := range []int64{-1, 0, 1} {
				if o := off + d; o >= 0 {
					checkReadAt(t, f.name, ra, f.text, o, 5000)
				}
			}
		}
		for _, off := range []int64{0, size - 1, size, size + 1} {
			if off >= 0 {
				checkReadAt(t, f.name, ra, f.text, off, 10)
			}
		}
		if n, err := ra.ReadAt(nil, 0); n != 0 || (err != nil && size > 0) {
			t.Fatalf("%s: an empty ReadAt: %d, %v", f.name, n, err)
		}
		for off := int64(0); off < min(size, 100<<10); off += 7777 {
			checkReadAt(t, f.name, ra, f.text, off, 7777)
		}
	}
}

// TestReadAtConcurrent reads one ReaderAt from several goroutines at once,
// some sequentially and some at random.
func TestReadAtConcurrent(t *testing.T) {
	f := fixtures(t)[0]
	ix := build(t, f, testSpan)
	ra := ix.ReaderAt(bytes.NewReader(f.gz))
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			off := rng.Int64N(int64(len(f.text)))
			for range 40 {
				if g%2 == 0 {
					off = rng.Int64N(int64(len(f.text)))
				}
				n := 1 + rng.IntN(20000)
				checkReadAt(t, f.name, ra, f.text, off, n)
				off = (off + int64(n)) % int64(len(f.text))
			}
		}()
	}
	wg.Wait()
}

// TestPointsNearTheEnd checks the points Build adds near the end of a file
// the span leaves without one: the last records are reached by decoding
// little.
func TestPointsNearTheEnd(t *testing.T) {
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Tall, Size: 2 << 20, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for rest := text; len(rest) > 0; rest = rest[min(len(rest), 64<<10):] {
		zw.Write(rest[:min(len(rest), 64<<10)])
		zw.Flush()
	}
	zw.Close()
	f := fixture{name: "2 MiB flushed", gz: b.Bytes(), text: text}
	ix := build(t, f, 0)
	offs := ix.Offsets()
	if last := offs[len(offs)-1]; len(offs) != 3 || ix.Size()-last > 1<<20 {
		t.Fatalf("points at %v in %d bytes: want the start and two within the last MiB", offs, ix.Size())
	}
	ra := ix.ReaderAt(bytes.NewReader(f.gz))
	for _, off := range []int64{0, offs[1] - 1, offs[1], offs[2] - 1, offs[2], ix.Size() - 100} {
		checkReadAt(t, f.name, ra, text, off, 1000)
	}
}

// fromByte is a file whose bytes before from cannot be read: a read through
// an index that starts at a point whose compressed data begins at from
// never asks for them.
type fromByte struct {
	ra   io.ReaderAt
	from int64
}

var errBefore = errors.New("a byte before the point was read")

func (f fromByte) ReadAt(p []byte, off int64) (int, error) {
	if off < f.from {
		return 0, errBefore
	}
	return f.ra.ReadAt(p, off)
}

// TestPoint checks each access point's offsets: its text offset is
// Offsets()'s, and its compressed offset is the first byte a read from the
// point needs: a read at the point's text through a file whose bytes before
// it cannot be read gives the text, and through one whose bytes before the
// next byte cannot be read fails.
func TestPoint(t *testing.T) {
	type file struct {
		name string
		ix   *zindex.Index
		data []byte
		text []byte
	}
	var files []file
	few := map[string]bool{"compress/gzip": true, "members": true, "bgzf": true, "zstd frames": true}
	for _, f := range fixtures(t) {
		if !raceEnabled || few[f.name] {
			files = append(files, file{f.name, build(t, f, testSpan), f.gz, f.text})
		}
	}
	for _, s := range structuredFixtures(t) {
		if s.format == "xz" || raceEnabled && !few[s.name] {
			continue // xz: a block's check type is read from its stream's header, before it
		}
		ix, err := zindex.FromStructure(bytes.NewReader(s.file), int64(len(s.file)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{s.name, ix, s.file, s.text})
	}
	for _, f := range files {
		offs := f.ix.Offsets()
		last := int64(-1)
		step := max(1, f.ix.Points()/8) // every point's offsets, the reads at 8 of them (2 under -race)
		if raceEnabled {
			step = max(1, f.ix.Points()/2)
		}
		for i := range f.ix.Points() {
			text, comp := f.ix.Point(i)
			if text != offs[i] || comp <= last || comp >= int64(len(f.data)) || i == 0 && comp != 0 {
				t.Fatalf("%s: point %d at text %d (Offsets: %d), compressed %d after %d", f.name, i, text, offs[i], comp, last)
			}
			last = comp
			if text == f.ix.Size() || i%step != 0 && i != f.ix.Points()-1 {
				continue
			}
			src := bytes.NewReader(f.data)
			n := int(min(1000, f.ix.Size()-text))
			checkReadAt(t, f.name, f.ix.ReaderAt(fromByte{src, comp}), f.text, text, n)
			if i > 0 {
				if _, err := f.ix.ReaderAt(fromByte{src, comp + 1}).ReadAt(make([]byte, n), text); !errors.Is(err, errBefore) {
					t.Fatalf("%s: point %d: a read that may not read byte %d: %v", f.name, i, comp, err)
				}
			}
		}
	}
}
