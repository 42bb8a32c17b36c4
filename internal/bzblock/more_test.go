package bzblock_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/foreachio/foreach/internal/bzblock"
	"github.com/foreachio/foreach/internal/measure/corpus"
)

// decodePieces decodes the block at bit off of file giving the decoder its
// bytes a piece at a time (Decode, then More), each piece's length from
// step, and returns the block. Need, after each piece that is not enough,
// is never past the block's last byte, size.
func decodePieces(t *testing.T, d *bzblock.Decoder, file []byte, off int64, level int, step func() int, size int) *bzblock.Block {
	t.Helper()
	src := file[off/8:]
	n := min(len(src), step())
	b, err := d.Decode(src[:n], uint(off%8), level)
	for err == bzblock.ErrShort && n < len(src) {
		if need := d.Need(); need > size {
			t.Fatalf("block at bit %d of %d bytes: Need is %d after %d", off, size, need, n)
		}
		n = min(len(src), n+step())
		b, err = d.More(src[:n])
	}
	if err != nil {
		t.Fatalf("block at bit %d, given %d bytes: %v", off, n, err)
	}
	return b
}

// TestMore: a block given a piece at a time (one byte, a few bytes, random
// lengths, pieces of 64 KiB as a sequential reader's buffer holds them)
// decodes to the block Decode makes of it whole: the same bytes, end and
// CRC; what Need asks for in between is within the block. The blocks are bzip2's (text, random bytes, long runs) and the
// randomised ones of testdata.
func TestMore(t *testing.T) {
	randomised, err := os.ReadFile("testdata/randomised.bz2")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"mixed":      compressTool(t, text(t, corpus.Mixed, 250<<10, 5), "-1"),
		"binary":     compressTool(t, text(t, corpus.Binary, 120<<10, 6), "-1"),
		"runs":       compressTool(t, bytes.Repeat([]byte("aaaaaaaaaaaaaaaaaaaaab"), 5000), "-9"),
		"randomised": randomised,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	steps := map[string]func() int{
		"one byte": func() int { return 1 },
		"7 bytes":  func() int { return 7 },
		"random":   func() int { return 1 + rng.IntN(3000) },
		"64 KiB":   func() int { return 64 << 10 },
	}
	var whole, pieces bzblock.Decoder
	for name, file := range files {
		level := int(file[3] - '0')
		blocks, _ := magics(file)
		for stepName, step := range steps {
			if stepName == "one byte" && (bzblock.RaceEnabled || testing.Short()) && name != "randomised" {
				continue
			}
			for _, off := range blocks {
				w, err := whole.Decode(file[off/8:], uint(off%8), level)
				if err != nil {
					t.Fatalf("%s: block at bit %d: %v", name, off, err)
				}
				want, err := io.ReadAll(w)
				if err != nil {
					t.Fatal(err)
				}
				b := decodePieces(t, &pieces, file, off, level, step, int((off%8+w.End()+7)/8))
				got, err := io.ReadAll(b)
				if err != nil || !bytes.Equal(got, want) || b.End() != w.End() || b.CRC() != w.CRC() {
					t.Fatalf("%s, %s: block at bit %d: %d bytes (%v), end %d, CRC %08x; whole: %d bytes, end %d, CRC %08x",
						name, stepName, off, len(got), err, b.End(), b.CRC(), len(want), w.End(), w.CRC())
				}
			}
		}
	}
}

// TestMoreWithout: More after a Decode that did not run short is an error,
// not a decode of whatever the Decoder last held.
func TestMoreWithout(t *testing.T) {
	file := compressTool(t, []byte("one block\n"))
	var d bzblock.Decoder
	if _, err := d.More(file[4:]); err == nil {
		t.Fatal("More on a new Decoder: no error")
	}
	if _, err := d.Decode(file[4:], 0, 9); err != nil {
		t.Fatal(err)
	}
	if _, err := d.More(file[4:]); err == nil {
		t.Fatal("More after a Decode that succeeded: no error")
	}
}

// TestCheck: Check finds a block's CRC right and rewinds it, and Read then
// gives every byte of it; a block whose CRC is wrong (its header's CRC
// changed) fails Check with Read's error, before any byte is read.
func TestCheck(t *testing.T) {
	data := bytes.Repeat([]byte("abcd\x00\x00\x00\x00\x00\x00xyz"), 40000) // runs: the final run-length decoding
	file := compressTool(t, data, "-9")
	var d bzblock.Decoder
	b, err := d.Decode(file[4:], 0, 9)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(b)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("after Check: %d bytes of %d, %v", len(got), len(data), err)
	}
	bad := bytes.Clone(file)
	bad[4+6] ^= 0x01 // the block's CRC, after its magic number
	if b, err = d.Decode(bad[4:], 0, 9); err != nil {
		t.Fatal(err)
	}
	var se bzblock.StructuralError
	if err := b.Check(); !errors.As(err, &se) || string(se) != "block checksum mismatch" {
		t.Fatalf("a wrong CRC: Check gives %v", err)
	}
}

// TestStreamHelpers: Level reads the stream headers bzip2 writes and no
// other; Bits48 finds the magic numbers at every bit offset; StreamCRC is
// the combination bzip2 writes at the end of a stream of several blocks.
func TestStreamHelpers(t *testing.T) {
	for h, want := range map[string]int{"BZh1": 1, "BZh9": 9, "BZh0": 0, "BZh": 0, "BZx9": 0, "bZh9": 0, "BZh:": 0} {
		if got, ok := bzblock.Level([]byte(h)); got != want || ok != (want > 0) {
			t.Errorf("Level(%q) = %d, %v", h, got, ok)
		}
	}
	file := compressTool(t, text(t, corpus.Mixed, 250<<10, 7), "-1")
	blocks, ends := magics(file)
	if len(blocks) < 2 || len(ends) != 1 {
		t.Fatalf("%d blocks, %d ends", len(blocks), len(ends))
	}
	var d bzblock.Decoder
	crc := uint32(0)
	for _, off := range blocks {
		if bzblock.Bits48(file, off) != bzblock.BlockMagic {
			t.Fatalf("Bits48 at the block at bit %d", off)
		}
		b, err := d.Decode(file[off/8:], uint(off%8), 1)
		if err != nil {
			t.Fatal(err)
		}
		crc = bzblock.StreamCRC(crc, b.CRC())
	}
	if bzblock.Bits48(file, ends[0]) != bzblock.EndMagic {
		t.Fatal("Bits48 at the end of stream")
	}
	if want := uint32(bzblock.Bits48(file, ends[0]+48) >> 16); crc != want {
		t.Fatalf("StreamCRC: %08x, the stream says %08x", crc, want)
	}
	if got := (ends[0] + bzblock.EndBits + 7) / 8; got != int64(len(file)) {
		t.Fatalf("the stream ends at byte %d of %d", got, len(file))
	}
}
