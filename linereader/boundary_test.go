package linereader

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// LastBoundary against a reference over the whole file: just past the last separator.
func TestLastBoundary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sep := range []string{"\n", "\r\n", "ab", "\n\n", "long separator"} {
		for range 40 {
			size := rng.IntN(3 << 17)
			data := make([]byte, size)
			for i := range data {
				data[i] = "xyzab\r"[rng.IntN(6)]
			}
			// A few separators, some straddling the 64 KiB windows from the end.
			for range rng.IntN(4) {
				at := size - rng.IntN(3)*(64<<10) - rng.IntN(len(sep)+1)
				if at >= 0 && at+len(sep) <= size {
					copy(data[at:], sep)
				}
			}
			want := int64(0)
			if i := bytes.LastIndex(data, []byte(sep)); i >= 0 {
				want = int64(i + len(sep))
			}
			got, err := LastBoundary(bytes.NewReader(data), int64(size), Options{Sep: []byte(sep)})
			if err != nil || got != want {
				t.Fatalf("sep %q, size %d: LastBoundary = %d, %v; want %d", sep, size, got, err, want)
			}
		}
	}
	if got, _ := LastBoundary(bytes.NewReader(make([]byte, 10)), 10, Options{Whole: true, Limit: 4}); got != 8 {
		t.Errorf("Whole with Limit 4 over 10 bytes: %d, want 8", got)
	}
}

// A read error is returned, not taken for "no separator".
func TestLastBoundaryReadError(t *testing.T) {
	broken := errors.New("broken disk")
	if _, err := LastBoundary(failingAt{broken}, 10, Options{}); !errors.Is(err, broken) {
		t.Errorf("err = %v, want %v", err, broken)
	}
	if _, err := LastBoundary(bytes.NewReader(nil), 0, Options{Paragraph: true, Whole: true}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("invalid options: err = %v, want ErrInvalidOptions", err)
	}
}

type failingAt struct{ err error }

func (f failingAt) ReadAt([]byte, int64) (int, error) { return 0, f.err }
