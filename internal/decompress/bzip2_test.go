package decompress_test

import (
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/bzblock"
	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/corpus"
)

// The bzip2 reader decodes with internal/bzblock; these tests hold it to the
// standard library's compress/bzip2 (the reader it replaced, here only as the
// reference) and to the format's structure, found by walking the blocks.

// bzip2Blocks are the blocks of a file of bzip2 streams, in order: block i
// is bits starts[i] (its magic number) to stops[i], its last bit lies in byte
// ends[i]-1 (a reader needs ends[i] bytes to have the whole block), and
// outs[i] is the decompressed bytes of blocks 0..i. streams are the offsets
// where the streams end.
type bzip2Blocks struct {
	starts  []int64
	stops   []int64
	ends    []int
	outs    []int
	streams map[int]bool
}

// walkBzip2 finds the blocks of file, a concatenation of complete streams.
func walkBzip2(t testing.TB, file []byte) bzip2Blocks {
	t.Helper()
	bl := bzip2Blocks{streams: map[int]bool{}}
	var d bzblock.Decoder
	out := 0
	for start := 0; start < len(file); {
		level, ok := bzblock.Level(file[start:])
		if !ok {
			t.Fatalf("no stream header at byte %d", start)
		}
		bit := int64(start+bzblock.HeaderSize) * 8
		for bzblock.Bits48(file, bit) == bzblock.BlockMagic {
			b, err := d.Decode(file[bit/8:], uint(bit%8), level)
			if err != nil {
				t.Fatalf("block at bit %d: %v", bit, err)
			}
			n, err := io.Copy(io.Discard, b)
			if err != nil {
				t.Fatal(err)
			}
			bl.starts = append(bl.starts, bit)
			bit += b.End()
			bl.stops = append(bl.stops, bit)
			out += int(n)
			bl.ends, bl.outs = append(bl.ends, int((bit+7)/8)), append(bl.outs, out)
		}
		if bzblock.Bits48(file, bit) != bzblock.EndMagic {
			t.Fatalf("no end of stream at bit %d", bit)
		}
		start = int((bit + bzblock.EndBits + 7) / 8)
		bl.streams[start] = true
	}
	return bl
}

// complete returns how many decompressed bytes the blocks wholly within the
// first cut bytes hold.
func (bl bzip2Blocks) complete(cut int) int {
	n := 0
	for i, end := range bl.ends {
		if end <= cut {
			n = bl.outs[i]
		}
	}
	return n
}

// stdBzip2 decodes file with the standard library's reader.
func stdBzip2(file []byte) ([]byte, error) {
	return io.ReadAll(io.LimitReader(bzip2.NewReader(bytes.NewReader(file)), fuzzLimit))
}

// bzip2Fixtures are the committed bzip2 files: the package's, the bzip2
// suite's samples and bzblock's randomised blocks (which the standard
// library refuses).
func bzip2Fixtures(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, pattern := range []string{"testdata/*.bz2", "../testkit/suites/testdata/bzip2/*.bz2", "../bzblock/testdata/*.bz2"} {
		names, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files[name] = b
		}
	}
	if len(files) < 6 {
		t.Fatalf("%d bzip2 fixtures", len(files))
	}
	return files
}

// TestBzip2AgainstStdlib decodes the committed bzip2 files and what the bzip2 tool
// makes of random inputs (text, random bytes, long runs, at random levels and sizes),
// whole and one byte at a time, and compares with the standard library: the same
// bytes, and no error; for randomised blocks, which the standard library refuses,
// the bytes bzip2 -dc gives (the suites' EXPECTED.tsv, TestSuites).
func TestBzip2AgainstStdlib(t *testing.T) {
	inputs := bzip2Fixtures(t)
	rng := rand.New(rand.NewPCG(43, 47))
	count := 24
	if testing.Short() || raceEnabled {
		count = 6
	}
	shapes := []corpus.Shape{corpus.Mixed, corpus.Tall, corpus.Binary, corpus.Wide}
	for i := range count {
		size := rng.IntN(700 << 10)
		data := generate(t, corpus.Spec{Shape: shapes[i%len(shapes)], Size: int64(size), Seed: uint64(i)})
		if i%5 == 4 { // long runs: the final run-length stage
			data = bytes.Repeat([]byte{byte(i)}, size)
		}
		command := fmt.Sprintf("bzip2 -c -%d", 1+rng.IntN(9))
		c, ok := tryCompress(t, command, data)
		if !ok {
			break // logged: the fixtures are still compared
		}
		inputs[fmt.Sprintf("%s of %d bytes of %s", command, size, shapes[i%len(shapes)])] = c
	}
	for name, file := range inputs {
		want, stdErr := stdBzip2(file)
		for _, wrap := range []func(io.Reader) io.Reader{nil, iotest.OneByteReader} {
			got, err, _ := decode(t, file, wrap)
			if stdErr != nil {
				if err != nil || !bytes.HasPrefix(got, want) {
					t.Errorf("%s: the standard library refuses it (%v) after %d bytes; the Reader gives %d bytes, %v", name, stdErr, len(want), len(got), err)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: %d bytes, %v; the standard library: %d bytes", name, len(got), err, len(want))
			}
		}
	}
}

// multiStream is three streams of different levels, of several blocks, of
// nothing and of one byte, joined, and what they decompress to.
func multiStream(t *testing.T) (file, want []byte) {
	a := generate(t, corpus.Spec{Shape: corpus.Mixed, Size: 330 << 10, Seed: 21})
	b := generate(t, corpus.Spec{Shape: corpus.Binary, Size: 120 << 10, Seed: 22})
	for _, part := range []struct {
		command string
		data    []byte
	}{{"bzip2 -c -1", a}, {"bzip2 -c -9", nil}, {"bzip2 -c -2", b}, {"bzip2 -c -5", []byte("z")}} {
		file = append(file, compress(t, part.command, part.data)...)
		want = append(want, part.data...)
	}
	return file, want
}

// TestBzip2Concatenated: joined streams of different levels, an empty one among
// them, read as one; followed by zero padding, the same and no error; followed by
// other bytes, every byte of the streams and then trailing data at the offset where
// the streams end, as after any format's stream.
func TestBzip2Concatenated(t *testing.T) {
	file, want := multiStream(t)
	for _, tail := range []string{"", "\x00", "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", "garbage", "BZh9 and then text", "\x00\x00x"} {
		input := append(bytes.Clone(file), tail...)
		for _, wrap := range []func(io.Reader) io.Reader{nil, iotest.OneByteReader, iotest.HalfReader} {
			got, err, _ := decode(t, input, wrap)
			if !bytes.Equal(got, want) {
				t.Fatalf("followed by %q: %d bytes of %d (%v)", tail, len(got), len(want), err)
			}
			var de *decompress.Error
			switch trailing := len(bytes.Trim([]byte(tail), "\x00")) > 0; {
			case !trailing && err != nil:
				t.Fatalf("followed by %q: %v", tail, err)
			case trailing && (!errors.Is(err, decompress.ErrTrailingData) || !errors.As(err, &de) || de.Offset != int64(len(file))):
				t.Fatalf("followed by %q: %v, want trailing data at %d", tail, err, len(file))
			}
		}
	}
}

// TestBzip2Truncated cuts joined streams at many points, around every block's end
// among them: the Reader gives exactly the blocks wholly before the cut (every one,
// and no byte of the block cut), then io.ErrUnexpectedEOF; as much as bzip2 -dc
// gives, where it is installed (TestTruncatedAsTools compares more widely).
func TestBzip2Truncated(t *testing.T) {
	file, want := multiStream(t)
	bl := walkBzip2(t, file)
	cuts := map[int]bool{}
	for cut := 10; cut < len(file); cut += 1 + len(file)/150 {
		cuts[cut] = true
	}
	for _, end := range bl.ends {
		for d := -11; d <= 2; d++ {
			cuts[end+d] = true
		}
	}
	for end := range bl.streams {
		for d := -11; d <= 11; d++ {
			cuts[end+d] = true
		}
	}
	for cut := range cuts {
		if cut < 10 || cut > len(file) || bl.streams[cut] {
			continue
		}
		got, err, _ := decode(t, file[:cut], nil)
		if n := bl.complete(cut); !bytes.Equal(got, want[:n]) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("cut at %d of %d: %d bytes, %v; want the %d bytes of the blocks before the cut, then io.ErrUnexpectedEOF", cut, len(file), len(got), err, n)
		}
	}
}

// TestBzip2FlippedBit flips one bit in each block's header, tables and
// codes (at random places): the Reader ends with an *Error of bzip2, and gives
// every block before the damaged one and not one byte of it. A few bits
// change nothing (the code lengths of a tree no group uses): then the file
// is read whole, without error.
func TestBzip2FlippedBit(t *testing.T) {
	file, want := multiStream(t)
	bl := walkBzip2(t, file)
	rng := rand.New(rand.NewPCG(7, 8))
	tries := 12
	if testing.Short() || raceEnabled {
		tries = 4
	}
	harmless, total := 0, 0
	for i := range bl.starts {
		before := 0
		if i > 0 {
			before = bl.outs[i-1]
		}
		for range tries {
			from := bl.starts[i] + 48 // past the block's magic number, to its last bit
			bit := from + rng.Int64N(bl.stops[i]-from)
			damaged := bytes.Clone(file)
			damaged[bit/8] ^= 0x80 >> (bit % 8)
			got, err, _ := decode(t, damaged, nil)
			total++
			if err == nil && bytes.Equal(got, want) {
				harmless++
				continue
			}
			var de *decompress.Error
			if !errors.As(err, &de) || de.Format != decompress.Bzip2 {
				t.Fatalf("block %d, bit %d flipped: %v, want an *Error of bzip2", i, bit, err)
			}
			if !bytes.Equal(got, want[:before]) {
				t.Fatalf("block %d, bit %d flipped: %d bytes, want the %d of the blocks before it (%v)", i, bit, len(got), before, err)
			}
		}
	}
	if harmless > total/4 {
		t.Fatalf("%d of %d flipped bits changed nothing", harmless, total)
	}
	t.Logf("%d flipped bits, %d of which changed nothing", total, harmless)
}

// pastStream is a source that gives its bytes in small pieces and then
// reports, through past, the first time it is read beyond them.
type pastStream struct {
	data []byte
	past func()
}

func (p *pastStream) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		if p.past != nil {
			p.past()
			p.past = nil
		}
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), 1000)], p.data)
	p.data = p.data[n:]
	return n, nil
}

// TestBzip2NotPastStream: every byte of a stream is given out before its source is
// read past the stream's end, so that a pipe that pauses after a stream (or between
// two) is not waited on for bytes the stream does not need.
func TestBzip2NotPastStream(t *testing.T) {
	file, want := multiStream(t)
	delivered := 0
	src := &pastStream{data: file}
	src.past = func() {
		if delivered != len(want) {
			t.Errorf("the source is read past the streams with %d of their %d bytes given out", delivered, len(want))
		}
	}
	r := decompress.NewReader(src)
	defer r.Close()
	buf := make([]byte, 5000)
	for {
		n, err := r.Read(buf)
		delivered += n
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if delivered != len(want) {
		t.Fatalf("%d bytes of %d", delivered, len(want))
	}
}
