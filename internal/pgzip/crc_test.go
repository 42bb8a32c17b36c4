package pgzip

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCRCCombine: the combined CRC of two pieces is the CRC of the whole,
// for pieces of every small length and a few large ones.
func TestCRCCombine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	data := make([]byte, 1<<20+77)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	cuts := []int{0, 1, 2, 3, 7, 8, 100, 4096, 65537, len(data)}
	for range 50 {
		cuts = append(cuts, rng.IntN(len(data)+1))
	}
	want := crc32.ChecksumIEEE(data)
	for _, cut := range cuts {
		a, b := crc32.ChecksumIEEE(data[:cut]), crc32.ChecksumIEEE(data[cut:])
		if got := crcCombine(a, b, int64(len(data)-cut)); got != want {
			t.Fatalf("cut at %d: %08x, want %08x", cut, got, want)
		}
	}
	for n := range 70 {
		a, b := crc32.ChecksumIEEE(data[:10]), crc32.ChecksumIEEE(data[10:10+n])
		if got, want := crcCombine(a, b, int64(n)), crc32.ChecksumIEEE(data[:10+n]); got != want {
			t.Fatalf("%d bytes after 10: %08x, want %08x", n, got, want)
		}
	}
}
