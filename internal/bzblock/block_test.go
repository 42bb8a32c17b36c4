package bzblock_test

import (
	"bytes"
	"compress/bzip2"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/bzblock"
	"github.com/foreachio/foreach/internal/measure/corpus"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// bits48 returns the 48 bits of data from bit offset off (0 is the most
// significant bit of data[0]); zeros past the end.
func bits48(data []byte, off int64) uint64 {
	var v uint64
	for i := int64(0); i < 48; i++ {
		p := off + i
		v <<= 1
		if p/8 < int64(len(data)) && data[p/8]&(0x80>>(p%8)) != 0 {
			v |= 1
		}
	}
	return v
}

// magics returns the bit offsets of every block magic and end-of-stream
// magic in data, by brute force.
func magics(data []byte) (blocks, ends []int64) {
	for off := int64(0); off+48 <= int64(len(data))*8; off++ {
		switch bits48(data, off) {
		case bzblock.BlockMagic:
			blocks = append(blocks, off)
		case bzblock.EndMagic:
			ends = append(ends, off)
		}
	}
	return blocks, ends
}

// compressTool runs bzip2 with the given flags, skipping the test when it
// is not installed.
func compressTool(t testing.TB, data []byte, flags ...string) []byte {
	t.Helper()
	return tools.Run(t, strings.Join(append([]string{"bzip2", "-c"}, flags...), " "), data)
}

func text(t testing.TB, shape corpus.Shape, size int64, seed uint64) []byte {
	t.Helper()
	b, err := corpus.Bytes(corpus.Spec{Shape: shape, Size: size, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeBlocks decodes every block of a one-stream file with a Decoder,
// checking that each ends where the next begins, and returns their bytes.
func decodeBlocks(t *testing.T, file []byte) []byte {
	t.Helper()
	level := int(file[3] - '0')
	blocks, ends := magics(file)
	if len(ends) != 1 {
		t.Fatalf("%d end-of-stream magics", len(ends))
	}
	var d bzblock.Decoder
	var out []byte
	for i, off := range blocks {
		b, err := d.Decode(file[off/8:], uint(off%8), level)
		if err != nil {
			t.Fatalf("block %d at bit %d: %v", i, off, err)
		}
		next := ends[0]
		if i+1 < len(blocks) {
			next = blocks[i+1]
		}
		if off+b.End() != next {
			t.Fatalf("block %d at bit %d ends at %d, want %d", i, off, off+b.End(), next)
		}
		got, err := io.ReadAll(b)
		if err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		out = append(out, got...)
	}
	return out
}

// TestBlocks decodes the blocks of streams bzip2 made, at every level, of
// text, of text with long runs (the final run-length coding) and of random
// bytes, and compares them with the standard library's reader.
func TestBlocks(t *testing.T) {
	inputs := map[string][]byte{
		"mixed":    text(t, corpus.Mixed, 350<<10, 1),
		"binary":   text(t, corpus.Binary, 250<<10, 2),
		"runs":     bytes.Repeat(append(bytes.Repeat([]byte{'a'}, 300), "bbbbcccccdddd\x00\x00\x00\x00\x00"...), 2000),
		"one byte": {'x'},
	}
	levels := []string{"-1", "-9"}
	if bzblock.RaceEnabled {
		levels = levels[:1]
	}
	for name, data := range inputs {
		for _, level := range levels {
			file := compressTool(t, data, level)
			want, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(file)))
			if err != nil || !bytes.Equal(want, data) {
				t.Fatalf("%s %s: the standard library: %v", name, level, err)
			}
			if got := decodeBlocks(t, file); !bytes.Equal(got, want) {
				t.Fatalf("%s %s: %d bytes, want %d", name, level, len(got), len(want))
			}
		}
	}
}

// TestShort: a block cut anywhere is ErrShort, never a block.
func TestShort(t *testing.T) {
	file := compressTool(t, text(t, corpus.Mixed, 20<<10, 3))
	var d bzblock.Decoder
	for cut := 4; cut < len(file)-11; cut += 7 {
		if _, err := d.Decode(file[4:cut], 0, 9); err != bzblock.ErrShort {
			var se bzblock.StructuralError
			if !errors.As(err, &se) {
				t.Fatalf("cut at %d: %v", cut, err)
			}
		}
	}
}
