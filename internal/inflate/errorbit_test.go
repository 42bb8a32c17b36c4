package inflate_test

import (
	"bufio"
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/inflate"
)

// decodeThrough decodes stream with a Decoder over a bufio reader of size
// bufSize fed by wrap, and returns the bytes, the error, and the bytes of
// the stream the source had given up when the error came (as
// internal/decompress counts them for its error's offset).
func decodeThrough(t *testing.T, stream []byte, wrap func(io.Reader) io.Reader, bufSize int) ([]byte, error, int64) {
	t.Helper()
	var r io.Reader = bytes.NewReader(stream)
	if wrap != nil {
		r = wrap(r)
	}
	counted := &countingReader{r: r}
	br := bufio.NewReaderSize(counted, bufSize)
	got, err := readAll(t, inflate.NewReader(br))
	return got, err, counted.n - int64(br.Buffered())
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// sameErrorEverywhere checks that the bytes, the error (its bit offset
// included) and the bytes consumed do not depend on how the input arrives.
// A parallel decoder that starts over at a block boundary, with its source
// read in different pieces, must find a damage where a sequential read
// finds it.
func sameErrorEverywhere(t *testing.T, stream []byte) {
	t.Helper()
	want, wantErr, wantAt := decodeThrough(t, stream, nil, 64<<10)
	for _, size := range []int{16, 4096} {
		for _, wrap := range []func(io.Reader) io.Reader{nil, iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader} {
			got, err, at := decodeThrough(t, stream, wrap, size)
			if !bytes.Equal(got, want) || at != wantAt || !sameError(err, wantErr) {
				t.Fatalf("buffer %d: %d bytes, %v, at byte %d; whole: %d bytes, %v, at byte %d",
					size, len(got), err, at, len(want), wantErr, wantAt)
			}
		}
	}
}

func sameError(a, b error) bool {
	var ca, cb *inflate.CorruptError
	if errors.As(a, &ca) != errors.As(b, &cb) {
		return false
	}
	if ca != nil {
		return *ca == *cb
	}
	return a == b
}

// TestErrorAtSameBit is the regression test of an invalid distance symbol
// found by the fast loop: it stopped before the symbol's bits, the slow path
// after them, so that the error's bit offset (and sometimes its byte)
// depended on how much input was in hand.
func TestErrorAtSameBit(t *testing.T) {
	for _, tail := range []int{0, 3, 100} {
		for _, raw := range []int{30, 31} {
			var syms []fixedSym
			for i := range 200 {
				syms = append(syms, fixedSym{lit: 'a' + byte(i%7)})
			}
			syms = append(syms, fixedSym{length: 3, rawDist: raw})
			for range tail {
				syms = append(syms, fixedSym{lit: 'x'})
			}
			sameErrorEverywhere(t, fixedBlock(syms))
		}
	}
}

// TestCorruptSameEverywhere damages streams at random: every damage is found
// at the same place whatever the reads.
func TestCorruptSameEverywhere(t *testing.T) {
	data := samples(t)["mixed"][:20000]
	rng := rand.New(rand.NewPCG(5, 6))
	trials := 150
	if testing.Short() {
		trials = 30
	}
	for _, level := range []int{1, 6, flate.HuffmanOnly} {
		stream := deflate(t, data, level, 5000)
		for range trials {
			s := append([]byte{}, stream...)
			s[rng.IntN(len(s))] ^= byte(1 + rng.IntN(255))
			sameErrorEverywhere(t, s)
		}
	}
}
