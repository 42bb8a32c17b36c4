package blockz

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/pierrec/lz4/v4"
)

func TestXxh32Vectors(t *testing.T) {
	for in, want := range map[string]uint32{
		"":    0x02cc5d05,
		"a":   0x550d7456,
		"abc": 0x32d153ff,
		"Nobody inspects the spammish repetition": 0xe2293b2f,
	} {
		if got := xxh32Sum([]byte(in)); got != want {
			t.Errorf("xxh32(%q) = %#x, want %#x", in, got, want)
		}
	}
}

// TestXxh32Lz4 compares the sums with the content checksums the lz4
// library writes, for inputs of every length up to 100 bytes and others,
// written whole and in pieces.
func TestXxh32Lz4(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lengths := 1200
	if raceEnabled {
		lengths = 150
	}
	for n := range lengths {
		if n > 100 {
			n = rng.IntN(1 << 16)
		}
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		var frame bytes.Buffer
		w := lz4.NewWriter(&frame)
		w.Apply(lz4.ChecksumOption(true))
		w.Write(data)
		w.Close()
		want := binary.LittleEndian.Uint32(frame.Bytes()[frame.Len()-4:])
		if got := xxh32Sum(data); got != want {
			t.Fatalf("%d bytes: %#x, want %#x", n, got, want)
		}
		var h xxh32
		h.reset()
		for rest := data; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(40))
			h.write(rest[:k])
			rest = rest[k:]
		}
		if got := h.sum(); got != want {
			t.Fatalf("%d bytes in pieces: %#x, want %#x", n, got, want)
		}
	}
}
