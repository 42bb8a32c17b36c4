package bzblock

import (
	"math/rand/v2"
	"testing"
)

// TestMTF moves random indexes of lists of every length to the front and
// compares the list with a plain slice that does the same.
func TestMTF(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for size := 2; size <= 256; size++ {
		values := make([]byte, size)
		for i := range values {
			values[i] = byte(255 - i)
		}
		var m mtfList
		m.init(values)
		want := append([]byte(nil), values...)
		for range 200 {
			k := 1 + rng.IntN(size-1)
			if rng.IntN(2) == 0 {
				k = 1 + rng.IntN(min(size-1, 17)) // the words and their edges
			}
			b := want[k]
			copy(want[1:k+1], want[:k])
			want[0] = b
			if got := m.take(k); got != b {
				t.Fatalf("size %d: take(%d) = %d, want %d", size, k, got, b)
			}
			if m.front() != want[0] {
				t.Fatalf("size %d: front %d, want %d", size, m.front(), want[0])
			}
		}
		for i, w := range want {
			var got byte
			switch {
			case i < 8:
				got = byte(m.w0 >> (8 * i))
			case i < 16:
				got = byte(m.w1 >> (8 * (i - 8)))
			default:
				got = m.rest[i]
			}
			if got != w {
				t.Fatalf("size %d: value %d is %d, want %d", size, i, got, w)
			}
		}
	}
}
