package linereader

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Regression: New with an absurd BufferSize panicked allocating the buffer (makeslice:
// cap out of range); it is an invalid option now, reported by Err.
func TestHugeBufferSizeIsAnInvalidOption(t *testing.T) {
	for _, size := range []int{MaxBufferSize + 1, math.MaxInt / 2, math.MaxInt} {
		r := New(strings.NewReader("a\n"), Options{BufferSize: size})
		if r.Next() {
			t.Fatalf("BufferSize %d: Next returned a record", size)
		}
		if err := r.Err(); !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), "BufferSize") {
			t.Fatalf("BufferSize %d: Err %v, want an invalid BufferSize", size, err)
		}
	}
}

func TestSelfOverlapping(t *testing.T) {
	for sep, want := range map[string]bool{
		"\n": false, "\r\n": false, "ab": false, "abc": false, "aab": false,
		"aa": true, "aba": true, "\n\n": true, "abab": true, "abcab": true,
	} {
		if got := selfOverlapping([]byte(sep)); got != want {
			t.Errorf("selfOverlapping(%q) = %v, want %v", sep, got, want)
		}
	}
}
