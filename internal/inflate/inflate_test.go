package inflate_test

import (
	"bufio"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/inflate"
	"github.com/foreachio/foreach/internal/measure/corpus"
)

// readers are the ways the tests feed a stream to a Decoder: whole, and
// through readers that make its input run out at every byte.
var readers = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", nil},
	{"one-byte", iotest.OneByteReader},
	{"half", iotest.HalfReader},
	{"data-with-EOF", iotest.DataErrReader},
}

// inflateAll decodes stream, read through wrap, with a Decoder over a bufio
// reader of size bufSize, in reads of an odd size. It fails the test when
// the Decoder returns no byte and no error 100 times in a row.
func inflateAll(t testing.TB, stream []byte, wrap func(io.Reader) io.Reader, bufSize int) ([]byte, error) {
	t.Helper()
	var r io.Reader = bytes.NewReader(stream)
	if wrap != nil {
		r = wrap(r)
	}
	d := inflate.NewReader(bufio.NewReaderSize(r, bufSize))
	return readAll(t, d)
}

func readAll(t testing.TB, r io.Reader) ([]byte, error) {
	t.Helper()
	var out []byte
	buf := make([]byte, 7<<10+3)
	for empty := 0; ; {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if n == 0 {
			if empty++; empty == 100 {
				t.Fatal("Read returned 0, nil 100 times in a row")
			}
		}
	}
}

// stdInflate decodes stream with compress/flate, the reference.
func stdInflate(stream []byte) ([]byte, error) {
	return io.ReadAll(flate.NewReader(bytes.NewReader(stream)))
}

// deflate compresses data at level with compress/flate, flushing (an empty
// stored block, and a block boundary) after every flush bytes when flush >
// 0.
func deflate(t testing.TB, data []byte, level, flush int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	for len(data) > 0 {
		n := len(data)
		if flush > 0 {
			n = min(n, flush)
		}
		w.Write(data[:n])
		data = data[n:]
		if flush > 0 {
			w.Flush()
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameAsReference decodes stream with a Decoder, with the reference
// decoder and with compress/flate, and fails the test unless the Decoder
// gives exactly the reference's bytes, and all three fail or none.
// compress/flate, which looks further ahead before it decodes a symbol,
// may give fewer bytes before an error: a prefix.
func sameAsReference(t testing.TB, stream []byte, wrap func(io.Reader) io.Reader) []byte {
	t.Helper()
	want, _, wantErr := refInflate(stream)
	std, stdErr := stdInflate(stream)
	got, err := inflateAll(t, stream, wrap, 16)
	if (err == nil) != (wantErr == nil) || (stdErr == nil) != (wantErr == nil) {
		t.Fatalf("error %v, the reference's %v, compress/flate's %v", err, wantErr, stdErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%d bytes (error %v) differ from the reference's %d (error %v) at byte %d",
			len(got), err, len(want), wantErr, firstDiff(got, want))
	}
	if !bytes.HasPrefix(got, std) {
		t.Fatalf("compress/flate's %d bytes (error %v) are not a prefix of the %d decoded", len(std), stdErr, len(got))
	}
	return got
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// samples are inputs of every kind a compressor handles differently:
// nothing, one byte, text, random bytes (stored), runs (distance 1), short
// periods (distances 2 to 7) and matches that reach back the whole window.
func samples(t testing.TB) map[string][]byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	mixed, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: 100 << 10, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var periods []byte
	for p := 1; p <= 9; p++ {
		for i := 0; i < 3000; i++ {
			periods = append(periods, byte('a'+i%p))
		}
	}
	far := append(append(append([]byte{}, random[:32768]...), mixed[:1000]...), random[:20000]...)
	return map[string][]byte{
		"empty":   {},
		"one":     {'x'},
		"mixed":   mixed,
		"random":  random,
		"zeros":   make([]byte, 100<<10),
		"periods": periods,
		"far":     far,
	}
}

// TestLevels decodes what compress/flate makes of the samples at every
// level, with and without flushes, through every reader: the original bytes.
func TestLevels(t *testing.T) {
	for name, data := range samples(t) {
		for _, level := range []int{flate.HuffmanOnly, 0, 1, 2, 4, 6, 9} {
			for _, flush := range []int{0, 1000, 40000} {
				stream := deflate(t, data, level, flush)
				for _, r := range readers {
					t.Run(fmt.Sprintf("%s/level%d/flush%d/%s", name, level, flush, r.name), func(t *testing.T) {
						got, err := inflateAll(t, stream, r.wrap, 16)
						if err != nil || !bytes.Equal(got, data) {
							t.Fatalf("error %v; %d bytes of %d, the first difference at %d", err, len(got), len(data), firstDiff(got, data))
						}
					})
				}
			}
		}
	}
}

// TestStreamEnd checks that the source stands at the byte after the
// stream when Read returns io.EOF, whatever the read sizes.
func TestStreamEnd(t *testing.T) {
	data := samples(t)["mixed"]
	for _, level := range []int{0, 1, 6} {
		stream := append(deflate(t, data, level, 0), "after"...)
		for _, r := range readers {
			var src io.Reader = bytes.NewReader(stream)
			if r.wrap != nil {
				src = r.wrap(src)
			}
			br := bufio.NewReaderSize(src, 16)
			d := inflate.NewReader(br)
			got, err := readAll(t, d)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("level %d, %s: %v", level, r.name, err)
			}
			rest, _ := io.ReadAll(br)
			if string(rest) != "after" {
				t.Fatalf("level %d, %s: after the stream %q, want %q", level, r.name, rest, "after")
			}
			if bits := d.InputBits(); (bits+7)/8 != int64(len(stream)-5) {
				t.Fatalf("level %d, %s: %d bits consumed, the stream is %d bytes", level, r.name, bits, len(stream)-5)
			}
		}
	}
}

// TestTruncated cuts streams at every byte: the Decoder gives every byte
// whose symbol ends before the cut, as the reference decoder finds them, and
// io.ErrUnexpectedEOF; compress/flate, which looks further ahead before it
// decodes a symbol, gives a prefix of that.
func TestTruncated(t *testing.T) {
	data := samples(t)["mixed"][:3000]
	for _, level := range []int{0, 1, 6, flate.HuffmanOnly} {
		stream := deflate(t, data, level, 1000)
		ref, ends, err := refInflate(stream)
		if err != nil || !bytes.Equal(ref, data) {
			t.Fatalf("level %d: the reference decoder fails: %v", level, err)
		}
		step := 1
		if testing.Short() {
			step = 17
		}
		k := 0 // the bytes whose symbols end within the cut
		for n := 0; n < len(stream); n += step {
			for k < len(ends) && ends[k] <= int64(8*n) {
				k++
			}
			std, _ := stdInflate(stream[:n])
			for _, r := range readers[:2] {
				got, err := inflateAll(t, stream[:n], r.wrap, 16)
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("level %d, cut at %d of %d, %s: %v, want io.ErrUnexpectedEOF", level, n, len(stream), r.name, err)
				}
				if !bytes.Equal(got, data[:k]) {
					t.Fatalf("level %d, cut at %d, %s: %d bytes, want %d", level, n, r.name, len(got), k)
				}
				if !bytes.HasPrefix(got, std) {
					t.Fatalf("level %d, cut at %d: compress/flate's %d bytes are not a prefix", level, n, len(std))
				}
			}
		}
	}
}

// TestCorrupt changes bytes of streams: the Decoder never panics or loops,
// and agrees with the reference decoder (sameAsReference).
func TestCorrupt(t *testing.T) {
	data := samples(t)["mixed"][:10000]
	rng := rand.New(rand.NewPCG(3, 4))
	for _, level := range []int{0, 1, 6, flate.HuffmanOnly} {
		stream := deflate(t, data, level, 3000)
		trials := 250
		if testing.Short() {
			trials = 100
		}
		for range trials {
			s := append([]byte{}, stream...)
			for range 1 + rng.IntN(3) {
				s[rng.IntN(len(s))] ^= byte(1 + rng.IntN(255))
			}
			sameAsReference(t, s, nil)
		}
	}
}

// TestCorruptReason checks the errors of hand-made invalid streams.
func TestCorruptReason(t *testing.T) {
	cases := []struct {
		name   string
		stream []byte
		reason string
	}{
		{"block type 3", []byte{0x07}, "invalid block type"},
		{"stored length", []byte{0x01, 0x05, 0x00, 0x00, 0x00}, "stored block length does not match its complement"},
		// A fixed block: literal 'a' (00110000+0x61...), then length 3 at
		// distance 2, with one byte decoded.
		{"distance too far back", fixedBlock([]fixedSym{{lit: 'a'}, {length: 3, dist: 2}}), "distance too far back"},
		{"fixed length 286", fixedBlock([]fixedSym{{lit: 'a'}, {raw: 286}}), "invalid literal/length symbol"},
		{"fixed distance 30", fixedBlock([]fixedSym{{lit: 'a'}, {length: 3, rawDist: 30}}), "invalid distance symbol"},
		{"too many length codes", dynamicHeader(30, 0, 0), "too many length or distance codes"},
		{"too many distance codes", dynamicHeader(0, 30, 0), "too many length or distance codes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, wantErr := stdInflate(c.stream)
			_, err := inflateAll(t, c.stream, nil, 16)
			var ce *inflate.CorruptError
			if !errors.As(err, &ce) || ce.Reason != c.reason || !errors.Is(err, inflate.ErrCorrupt) {
				t.Fatalf("error %v, want a *CorruptError %q", err, c.reason)
			}
			if wantErr == nil {
				t.Fatalf("compress/flate finds no error")
			}
			if want := "invalid deflate data: " + c.reason; err.Error() != want {
				t.Fatalf("message %q, want %q", err, want)
			}
		})
	}
}

// fixedSym is a symbol of a fixed-code block: a literal, a match, or a raw
// literal/length symbol (with rawDist, a raw distance symbol).
type fixedSym struct {
	lit          byte
	raw          int
	length, dist int
	rawDist      int
}

// bitWriter writes bits first to last, least significant first.
type bitWriter struct {
	out  []byte
	bits uint64
	n    uint
}

func (b *bitWriter) put(v uint64, n uint) {
	b.bits |= v << b.n
	b.n += n
	for b.n >= 8 {
		b.out = append(b.out, byte(b.bits))
		b.bits >>= 8
		b.n -= 8
	}
}

// code puts a Huffman codeword, most significant bit first.
func (b *bitWriter) code(c uint64, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		b.put(c>>uint(i)&1, 1)
	}
}

func (b *bitWriter) bytes() []byte {
	if b.n > 0 {
		return append(b.out, byte(b.bits))
	}
	return b.out
}

// fixedLitlen puts symbol s of the fixed literal/length code.
func (b *bitWriter) fixedLitlen(s int) {
	switch {
	case s < 144:
		b.code(uint64(0x30+s), 8)
	case s < 256:
		b.code(uint64(0x190+s-144), 9)
	case s < 280:
		b.code(uint64(s-256), 7)
	default:
		b.code(uint64(0xc0+s-280), 8)
	}
}

// fixedBlock makes a final fixed-code block of syms. Matches are of length
// 3 to 10 (symbols 257 to 264, no extra bits) and distances 1 to 4.
func fixedBlock(syms []fixedSym) []byte {
	var b bitWriter
	b.put(1, 1) // final
	b.put(1, 2) // fixed
	for _, s := range syms {
		switch {
		case s.raw != 0:
			b.fixedLitlen(s.raw)
		case s.length != 0:
			b.fixedLitlen(254 + s.length)
			if s.rawDist != 0 {
				b.code(uint64(s.rawDist), 5)
			} else {
				b.code(uint64(s.dist-1), 5)
			}
		default:
			b.fixedLitlen(int(s.lit))
		}
	}
	b.fixedLitlen(256)
	return b.bytes()
}

// dynamicHeader makes the start of a dynamic block with the given HLIT,
// HDIST and HCLEN fields and nothing after them.
func dynamicHeader(hlit, hdist, hclen uint64) []byte {
	var b bitWriter
	b.put(1, 1)
	b.put(2, 2)
	b.put(hlit, 5)
	b.put(hdist, 5)
	b.put(hclen, 4)
	return append(b.bytes(), make([]byte, 40)...)
}

// checkBlocks decodes stream (whose decoded bytes are data) reporting its
// blocks, and checks them against the reference decoder's: the same bit
// offsets and decompressed offsets. Then it starts a Decoder at every
// block, from the byte of its first bit with the window reported there:
// each gives exactly the rest of data.
func checkBlocks(t testing.TB, stream, data []byte) {
	t.Helper()
	_, _, want, err := refInflateBlocks(stream)
	if err != nil {
		t.Fatalf("the reference decoder: %v", err)
	}
	type point struct {
		inflate.Block
		window []byte
	}
	var points []point
	d := inflate.NewReader(bytes.NewReader(stream))
	d.SetBlockFunc(func(b inflate.Block) {
		points = append(points, point{b, append([]byte(nil), d.Window()...)})
	})
	if got, err := readAll(t, d); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("decoding: %v", err)
	}
	d.SetBlockFunc(nil)
	if len(points) != len(want) {
		t.Fatalf("%d blocks reported, the reference finds %d", len(points), len(want))
	}
	// Every block's offsets; a start at 64 of them at most, evenly spread
	// (a stream of thousands of small blocks would cost thousands of
	// decodes of the rest).
	step := max(1, len(points)/64)
	for i, p := range points {
		if p.Block != want[i] {
			t.Fatalf("block %d reported at %+v, the reference finds %+v", i, p.Block, want[i])
		}
		if i%step != 0 && i != len(points)-1 {
			continue
		}
		if w := data[max(0, p.Out-inflate.WindowSize):p.Out]; !bytes.Equal(p.window, w) {
			t.Fatalf("block %d: the window is not the %d bytes before it", i, len(w))
		}
		d.ResetAt(bufio.NewReaderSize(bytes.NewReader(stream[p.Bit/8:]), 16), uint(p.Bit%8), p.window)
		got, err := readAll(t, d)
		if err != nil || !bytes.Equal(got, data[p.Out:]) {
			t.Fatalf("from block %d (bit %d, byte %d of the output): %v, %d bytes of %d, the first difference at %d",
				i, p.Bit, p.Out, err, len(got), len(data)-int(p.Out), firstDiff(got, data[p.Out:]))
		}
		if d.Output() != int64(len(data))-p.Out {
			t.Fatalf("from block %d: Output() = %d, want %d", i, d.Output(), int64(len(data))-p.Out)
		}
	}
}

// TestBlocks checks the blocks reported, and starting at each, for streams
// of every block type.
func TestBlocks(t *testing.T) {
	s := samples(t)
	for _, name := range []string{"mixed", "random", "far", "periods", "empty"} {
		for _, level := range []int{0, 1, 6, 9, flate.HuffmanOnly} {
			for _, flush := range []int{0, 20000} {
				t.Run(fmt.Sprintf("%s/level%d/flush%d", name, level, flush), func(t *testing.T) {
					checkBlocks(t, deflate(t, s[name], level, flush), s[name])
				})
			}
		}
	}
}

// TestDiscard drops bytes in steps of every size: what is read after them
// is the rest of the stream.
func TestDiscard(t *testing.T) {
	data := samples(t)["mixed"]
	stream := deflate(t, data, 6, 0)
	for _, step := range []int64{1, 1000, 100000, int64(len(data)) + 1} {
		d := inflate.NewReader(bytes.NewReader(stream))
		var off int64
		for off < int64(len(data)) {
			n, err := d.Discard(step)
			off += n
			if err == io.EOF && off == int64(len(data)) {
				break
			}
			if err != nil || n != step {
				t.Fatalf("step %d: Discard at %d: %d, %v", step, off-n, n, err)
			}
			var b [5]byte
			k, err := io.ReadFull(d, b[:min(5, len(data)-int(off))])
			if err != nil || !bytes.Equal(b[:k], data[off:off+int64(k)]) {
				t.Fatalf("step %d: after %d bytes discarded, %q (%v), want %q", step, off, b[:k], err, data[off:off+int64(k)])
			}
			off += int64(k)
		}
		if n, err := d.Discard(1); n != 0 || err != io.EOF {
			t.Fatalf("step %d: Discard at the end: %d, %v", step, n, err)
		}
	}
}
