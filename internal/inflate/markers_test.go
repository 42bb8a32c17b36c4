package inflate_test

import (
	"bufio"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	kflate "github.com/klauspost/compress/flate"

	"github.com/foreachio/foreach/internal/inflate"
)

// blockPoint is a block boundary of a stream, with its kind (the block's
// type bits) and the window before it.
type blockPoint struct {
	inflate.Block
	kind   int
	window []byte
}

// blockPoints decodes stream (whose bytes are data) and returns its block
// boundaries.
func blockPoints(t testing.TB, stream, data []byte) []blockPoint {
	t.Helper()
	var points []blockPoint
	d := inflate.NewReader(bytes.NewReader(stream))
	d.SetBlockFunc(func(b inflate.Block) {
		x := uint64(0)
		for i := range 8 {
			if k := b.Bit/8 + int64(i); k < int64(len(stream)) {
				x |= uint64(stream[k]) << (8 * i)
			}
		}
		kind := int(x >> (b.Bit % 8) >> 1 & 3)
		points = append(points, blockPoint{b, kind, append([]byte(nil), d.Window()...)})
	})
	if got, err := readAll(t, d); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("decoding: %v", err)
	}
	return points
}

// markerDecodeAll decodes stream from bit p to its end with a
// MarkerDecoder (the window unknown, or given), block by block, and returns
// the text, the symbols its first bytes still are, the bit where each block
// ended, and the error that stopped it (nil at the stream's end).
func markerDecodeAll(stream []byte, p int64, window []byte, known bool) ([]byte, []uint16, []int64, error) {
	var m inflate.MarkerDecoder
	src := bufio.NewReaderSize(bytes.NewReader(stream[p/8:]), 16)
	buf := make([]byte, 0, inflate.BufferRoom(max(1<<20, 8*len(stream))))
	if known {
		m.ResetWindow(src, uint(p%8), buf, window)
	} else {
		m.Reset(src, uint(p%8), buf, nil)
	}
	var ends []int64
	for {
		err := m.Block()
		if err == io.EOF {
			err = nil
		}
		if err != nil || m.Final() {
			if m.Final() {
				ends = append(ends, p/8*8+m.InputBits())
			}
			text, syms := m.Text(m.Len())
			return append([]byte(nil), text...), append([]uint16(nil), syms...), ends, err
		}
		ends = append(ends, p/8*8+m.InputBits())
	}
}

// streams are deflate streams of the samples made in every way a compressor
// cuts blocks: compress/flate and klauspost's at levels 1, 6 and 9, Huffman
// only, stored, with and without flushes.
func streams(t testing.TB) map[string][2][]byte {
	t.Helper()
	out := map[string][2][]byte{}
	for name, data := range samples(t) {
		for _, level := range []int{0, 1, 6, 9, flate.HuffmanOnly} {
			for _, flush := range []int{0, 7000} {
				out[fmt.Sprintf("%s/flate%d/flush%d", name, level, flush)] = [2][]byte{deflate(t, data, level, flush), data}
			}
		}
		var b bytes.Buffer
		w, _ := kflate.NewWriter(&b, 5)
		w.Write(data)
		w.Close()
		out[name+"/klauspost5"] = [2][]byte{b.Bytes(), data}
	}
	return out
}

// TestMarkerDecoderFromEveryBlock starts a MarkerDecoder at every block
// boundary of every stream: its blocks end where the Decoder's do; the
// symbols that are bytes and the text after them are the text already, and
// the markers resolve with the window to the rest; given the window, it
// decodes the text with no symbol left.
func TestMarkerDecoderFromEveryBlock(t *testing.T) {
	var r inflate.Resolver
	for name, s := range streams(t) {
		stream, data := s[0], s[1]
		points := blockPoints(t, stream, data)
		t.Run(name, func(t *testing.T) {
			for i, p := range points {
				want := data[p.Out:]
				text, syms, ends, err := markerDecodeAll(stream, p.Bit, nil, false)
				if err != nil {
					t.Fatalf("from block %d (bit %d): %v", i, p.Bit, err)
				}
				for k, e := range ends[:len(ends)-1] {
					if e != points[i+1+k].Bit {
						t.Fatalf("from block %d: block %d ends at bit %d, the next starts at %d", i, i+k, e, points[i+1+k].Bit)
					}
				}
				if len(text) != len(want) || !bytes.Equal(text[len(syms):], want[len(syms):]) {
					t.Fatalf("from block %d: %d bytes, want %d; after the %d symbols, the first difference at %d",
						i, len(text), len(want), len(syms), len(syms)+firstDiff(text[len(syms):], want[len(syms):]))
				}
				for j, sym := range syms {
					if sym < 256 && byte(sym) != want[j] {
						t.Fatalf("from block %d: symbol %d is byte %d, the text's is %d", i, j, sym, want[j])
					}
				}
				if !r.Resolve(text, syms, p.window) {
					t.Fatalf("from block %d: Resolve finds a distance too far back", i)
				}
				if !bytes.Equal(text, want) {
					t.Fatalf("from block %d: resolved, the first difference at %d", i, firstDiff(text, want))
				}
				known, syms, _, err := markerDecodeAll(stream, p.Bit, p.window, true)
				if err != nil || len(syms) != 0 || !bytes.Equal(known, want) {
					t.Fatalf("from block %d with its window: %v, %d symbols, the first difference at %d", i, err, len(syms), firstDiff(known, want))
				}
			}
		})
	}
}

// TestResolveTooFarBack gives Resolve a window shorter than the stream
// reaches: it fails exactly when a Decoder started there with that window
// finds a distance too far back.
func TestResolveTooFarBack(t *testing.T) {
	data := samples(t)["mixed"][:100000]
	stream := deflate(t, data, 6, 9000)
	var r inflate.Resolver
	for i, p := range blockPoints(t, stream, data) {
		for _, short := range []int{0, 1, 100, 5000, len(p.window)} {
			window := p.window[len(p.window)-min(short, len(p.window)):]
			d := inflate.NewReader(bytes.NewReader(nil))
			d.ResetAt(bufio.NewReader(bytes.NewReader(stream[p.Bit/8:])), uint(p.Bit%8), window)
			_, derr := io.ReadAll(d)
			var ce *inflate.CorruptError
			tooFar := errors.As(derr, &ce) && ce.Reason == "distance too far back"
			text, syms, _, err := markerDecodeAll(stream, p.Bit, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if ok := r.Resolve(text, syms, window); ok == tooFar {
				t.Fatalf("block %d, window of %d: Resolve %v, the Decoder's error %v", i, len(window), ok, derr)
			}
			_, _, _, err = markerDecodeAll(stream, p.Bit, window, true)
			if errors.As(err, &ce) != tooFar {
				t.Fatalf("block %d, window of %d given: %v, the Decoder's error %v", i, len(window), err, derr)
			}
		}
	}
}

// goSources returns up to n bytes of the Go distribution's sources: real
// text no one here wrote.
func goSources(t testing.TB, n int) []byte {
	t.Helper()
	var out []byte
	root := filepath.Join(runtime.GOROOT(), "src")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= n {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".go") {
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, b...)
			}
		}
		return nil
	})
	if len(out) < n {
		t.Skipf("%d bytes of Go sources under %s, want %d", len(out), root, n)
	}
	return out[:n]
}

// TestMarkersOnText: on the Go sources the markers last a few MiB from a
// start (chains of copies of the licence that opens every file carry
// window bytes on), and then the text is bytes.
func TestMarkersOnText(t *testing.T) {
	data := goSources(t, 6<<20)
	stream := deflate(t, data, 6, 0)
	points := blockPoints(t, stream, data)
	var ends []int
	for _, p := range points[1:min(len(points), 6)] {
		text, syms, _, err := markerDecodeAll(stream, p.Bit, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, len(syms))
		if len(syms) > len(text)-inflate.WindowSize {
			t.Errorf("from bit %d: symbols up to %d of %d", p.Bit, len(syms), len(text))
		}
	}
	t.Logf("symbols up to the last marker: %v", ends)
}

// TestMarkerLimit: a block that would pass the buffer's room stops the
// decoder with ErrMarkerLimit, within the room.
func TestMarkerLimit(t *testing.T) {
	data := samples(t)["mixed"]
	stream := deflate(t, data, 6, 0)
	for _, known := range []bool{false, true} {
		var m inflate.MarkerDecoder
		buf := make([]byte, 0, inflate.BufferRoom(50000))
		if known {
			m.ResetWindow(bufio.NewReader(bytes.NewReader(stream)), 0, buf, nil)
		} else {
			m.Reset(bufio.NewReader(bytes.NewReader(stream)), 0, buf, nil)
		}
		var err error
		for err == nil {
			err = m.Block()
		}
		text, _ := m.Text(m.Len())
		if err != inflate.ErrMarkerLimit || len(text) > inflate.BufferRoom(50000) || !bytes.HasPrefix(data, text) && known {
			t.Fatalf("%v with %d bytes, want ErrMarkerLimit within the room", err, len(text))
		}
	}
}

// TestNextHeaderFindsEveryDynamicBlock: every dynamic block's header is
// found at its bit, and searching from just after the previous boundary
// finds it or an earlier guess.
func TestNextHeaderFindsEveryDynamicBlock(t *testing.T) {
	for name, s := range streams(t) {
		stream, data := s[0], s[1]
		points := blockPoints(t, stream, data)
		for i, p := range points {
			if p.kind != 2 {
				if got := inflate.NextHeader(stream, p.Bit, p.Bit+1); got != -1 {
					t.Fatalf("%s: block %d of kind %d taken for a dynamic header", name, i, p.kind)
				}
				continue
			}
			if got := inflate.NextHeader(stream, p.Bit, p.Bit+1); got != p.Bit {
				t.Fatalf("%s: block %d's header at bit %d not found (%d)", name, i, p.Bit, got)
			}
			from := int64(0)
			if i > 0 {
				from = points[i-1].Bit + 1
			}
			if got := inflate.NextHeader(stream, from, int64(len(stream))*8); got == -1 || got > p.Bit {
				t.Fatalf("%s: from bit %d, the guess is %d, beyond block %d's header at %d", name, from, got, i, p.Bit)
			}
		}
	}
}

// TestNextHeaderAtEnd: a header that runs past the end of the data is not
// found, one that ends within it is, and from or to past the end find
// nothing.
func TestNextHeaderAtEnd(t *testing.T) {
	data := samples(t)["mixed"][:20000]
	stream := deflate(t, data, 6, 0)
	end, ok := inflate.HeaderEnd(stream, 0)
	if !ok || end < 17+4*3+257 {
		t.Fatalf("the first header: %d, %v", end, ok)
	}
	for n := range int(end/8) + 3 {
		found := inflate.NextHeader(stream[:n], 0, int64(n)*8) == 0
		if found != (int64(n)*8 >= end) {
			t.Fatalf("the header of %d bits cut at byte %d: found %v", end, n, found)
		}
	}
	if got := inflate.NextHeader(stream, int64(len(stream))*8, int64(len(stream))*8+100); got != -1 {
		t.Fatalf("past the end: %d", got)
	}
}

// TestNextHeaderOnRandomBits: random bytes hold few guesses, and every one
// is a header the Decoder reads without error.
func TestNextHeaderOnRandomBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	data := make([]byte, 4<<20)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	found := 0
	buf := make([]byte, 0, inflate.BufferRoom(1<<20))
	for p := int64(0); ; p++ {
		p = inflate.NextHeader(data, p, int64(len(data))*8)
		if p < 0 {
			break
		}
		found++
		var m inflate.MarkerDecoder
		m.Reset(bufio.NewReader(bytes.NewReader(data[p/8:])), uint(p%8), buf, nil)
		err := m.Block()
		var ce *inflate.CorruptError
		if errors.As(err, &ce) && ce.Bit < 17+57+3*316 {
			t.Fatalf("the guess at bit %d fails in its header: %v at bit %d", p, err, ce.Bit)
		}
	}
	t.Logf("%d guesses in %d random bits", found, len(data)*8)
	if found > 100 {
		t.Fatalf("%d guesses in 4 MiB of random bytes", found)
	}
}
