package zindex_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/zindex"
)

// readIn reads r to its end in reads of sizes drawn from sizes, and returns
// the bytes and the error that ended it (nil for io.EOF).
func readIn(r io.Reader, rng *rand.Rand, sizes ...int) ([]byte, error) {
	var out []byte
	buf := make([]byte, 1<<20)
	for {
		n, err := r.Read(buf[:sizes[rng.IntN(len(sizes))]])
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// TestBuilder reads fixtures through a Builder, in reads of sizes from a
// byte to 64 KiB drawn at random, and of a MiB: the text is exactly a
// sequential read's, it ends as the sequential read ends (trailing data
// included), and the index left behind is the same whatever the reads (the
// CRC-32 of the text before a point is summed from the reads around it).
// Before the end there is no index.
func TestBuilder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range fixtures(t) {
		if raceEnabled && !map[string]bool{"compress/gzip": true, "members": true, "trailing data": true, "empty": true}[f.name] {
			continue
		}
		_, seqErr := io.ReadAll(decompress.NewReader(bytes.NewReader(f.gz)))
		var first []byte
		for _, sizes := range [][]int{{1, 2, 3, 5, 8, 13, 100, 4093, 64 << 10}, {1 << 20}} {
			b := zindex.NewBuilder(bytes.NewReader(f.gz), testSpan)
			if _, err := b.Index(); err == nil {
				t.Fatalf("%s: an index before the stream was read", f.name)
			}
			text, err := readIn(b, rng, sizes...)
			if !bytes.Equal(text, f.text) || !sameError(err, seqErr) {
				t.Fatalf("%s in reads of %v: %d bytes (first difference at %d), %v; want %d, %v",
					f.name, sizes, len(text), firstDiff(text, f.text), err, len(f.text), seqErr)
			}
			ix, err := b.Index()
			if err != nil {
				t.Fatalf("%s: Index after the end: %v", f.name, err)
			}
			if first == nil {
				first = encode(t, ix)
			} else if !bytes.Equal(encode(t, ix), first) {
				t.Fatalf("%s in reads of %v: another index than in small reads", f.name, sizes)
			}
		}
	}
}

// sameError reports whether a and b are both nil or say the same.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// TestBuilderDamage reads damaged gzip files through a Builder and
// sequentially (internal/decompress): the same text and the same error,
// cut anywhere, a byte changed anywhere; no index after either.
func TestBuilderDamage(t *testing.T) {
	text := testText(t)[:100<<10]
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for rest := text; len(rest) > 0; rest = rest[min(len(rest), 10<<10):] {
		zw.Write(rest[:min(len(rest), 10<<10)])
		zw.Flush() // blocks of 10 KiB
	}
	zw.Close()
	gz := b.Bytes()
	rng := rand.New(rand.NewPCG(5, 6))
	var damaged [][]byte
	for range 16 {
		damaged = append(damaged, gz[:rng.IntN(len(gz))])
		c := bytes.Clone(gz)
		c[rng.IntN(len(c))] ^= byte(1 << rng.IntN(8))
		damaged = append(damaged, c)
	}
	for i, d := range damaged {
		want, wantErr := io.ReadAll(decompress.NewReader(bytes.NewReader(d)))
		b := zindex.NewBuilder(bytes.NewReader(d), testSpan)
		got, err := readIn(b, rng, 1000, 64<<10)
		if !bytes.Equal(got, want) || !sameError(err, wantErr) {
			t.Fatalf("file %d: %d bytes, %v; a sequential read: %d bytes, %v", i, len(got), err, len(want), wantErr)
		}
		if _, ixErr := b.Index(); (err == nil) != (ixErr == nil) {
			t.Fatalf("file %d: read to %v, Index says %v", i, err, ixErr)
		}
	}
	_, err := zindex.NewBuilder(bytes.NewReader([]byte("plain text\n")), 0).Read(make([]byte, 100))
	if !errors.Is(err, zindex.ErrFormat) {
		t.Fatalf("plain text: %v, want ErrFormat", err)
	}
}
