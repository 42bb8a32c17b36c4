package ztext_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/foreachio/foreach/internal/ztext"
)

// failingAt is a ReaderAt of data that fails from offset bad on.
type failingAt struct {
	data []byte
	bad  int64
}

var errBad = errors.New("bad bytes")

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.bad {
		return 0, errBad
	}
	n := copy(p, f.data[off:min(int64(len(f.data)), f.bad)])
	if n < len(p) {
		if off+int64(n) >= int64(len(f.data)) {
			return n, io.EOF
		}
		return n, errBad
	}
	return n, nil
}

// TestOrdered reads texts of several jobs (points far enough apart to make them) through
// the ordered stream with 1 to 4 workers and small reads: the bytes in order, then the
// end given; a failing read gives every byte before it, then its error; Close midway
// stops the workers.
func TestOrdered(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 39))
	size := 21<<20 + 12345
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	var points []int64
	for p := int64(0); p < int64(size); p += int64(rng.IntN(3<<20)) + 1 {
		points = append(points, p)
	}
	trailing := errors.New("the end")
	for workers := 1; workers <= 4; workers++ {
		what := fmt.Sprintf("%d workers", workers)
		s := ztext.NewOrdered(bytes.NewReader(data), int64(size), points, workers, trailing)
		got, err := readSmall(s, rng)
		if !bytes.Equal(got, data) || err != trailing {
			t.Errorf("%s: %d bytes, %v; want %d, %v", what, len(got), err, size, trailing)
		}
		s.Close()

		bad := int64(rng.IntN(size))
		s = ztext.NewOrdered(failingAt{data, bad}, int64(size), points, workers, nil)
		got, err = readSmall(s, rng)
		if int64(len(got)) != bad || !bytes.Equal(got, data[:bad]) || !errors.Is(err, errBad) {
			t.Errorf("%s, failing at %d: %d bytes, %v", what, bad, len(got), err)
		}
		s.Close()

		s = ztext.NewOrdered(bytes.NewReader(data), int64(size), points, workers, nil)
		io.CopyN(io.Discard, s, 5<<20)
		s.Close()
		if n, err := s.Read(make([]byte, 10)); n != 0 || err == nil {
			t.Errorf("%s: a read after Close: %d, %v", what, n, err)
		}
	}
}

// readSmall reads r to its end in reads of random small sizes.
func readSmall(r io.Reader, rng *rand.Rand) ([]byte, error) {
	var out []byte
	buf := make([]byte, 300<<10)
	for {
		n, err := r.Read(buf[:rng.IntN(len(buf))+1])
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
}
