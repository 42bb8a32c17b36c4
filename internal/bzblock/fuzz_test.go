package bzblock_test

import (
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/foreachio/foreach/internal/bzblock"
	"github.com/foreachio/foreach/internal/measure/corpus"
)

// bitWriter writes bits, the most significant of each byte first.
type bitWriter struct {
	out  []byte
	nbit int
}

func (w *bitWriter) bit(b bool) {
	if w.nbit%8 == 0 {
		w.out = append(w.out, 0)
	}
	if b {
		w.out[len(w.out)-1] |= 0x80 >> (w.nbit % 8)
	}
	w.nbit++
}

func (w *bitWriter) bits(v uint64, n int) {
	for i := n - 1; i >= 0; i-- {
		w.bit(v>>i&1 != 0)
	}
}

// copyBits writes the n bits of src from bit off.
func (w *bitWriter) copyBits(src []byte, off, n int64) {
	for i := off; i < off+n; i++ {
		w.bit(src[i/8]&(0x80>>(i%8)) != 0)
	}
}

// oneBlock makes a stream of the n bits of a block at bit off of src: a
// header of the given level, the block, the end of the stream with crc.
func oneBlock(level int, src []byte, off, n int64, crc uint32) []byte {
	var w bitWriter
	w.out = append(w.out, 'B', 'Z', 'h', byte('0'+level))
	w.nbit = 32
	w.copyBits(src, off, n)
	w.bits(bzblock.EndMagic, 48)
	w.bits(uint64(crc), 32)
	return w.out
}

// checkAgainstStd checks the one property that makes a parallel decoder
// exact: a block that Decode accepts decodes, in the standard library's
// reader, to the same bytes, with at most a checksum error after them.
// data is a stream whose first block starts after its 4-byte header. A
// randomised block, which the standard library refuses, is checked
// against the same block not randomised (checkRandomisedBlock).
func checkAgainstStd(t *testing.T, d *bzblock.Decoder, data []byte) bool {
	if len(data) < 5 || string(data[:3]) != "BZh" || data[3] < '1' || data[3] > '9' {
		return false
	}
	if len(data) > 14 && data[14]&0x80 != 0 { // the randomised bit, after the magic and the CRC
		return checkRandomisedBlock(t, d, data)
	}
	level := int(data[3] - '0')
	b, err := d.Decode(data[4:], 0, level)
	if err != nil {
		return false
	}
	got, gotErr := io.ReadAll(b)
	stream := oneBlock(level, data, 32, b.End(), b.CRC())
	want, wantErr := io.ReadAll(bzip2.NewReader(bytes.NewReader(stream)))
	var se bzip2.StructuralError
	checksum := wantErr == nil || errors.As(wantErr, &se) && (string(se) == "block checksum mismatch")
	if !bytes.Equal(got, want) || !checksum {
		t.Fatalf("Decode gave %d bytes (%v), the standard library %d (%v)", len(got), gotErr, len(want), wantErr)
	}
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("Decode's error %v, the standard library's %v", gotErr, wantErr)
	}
	return true
}

// checkRandomisedBlock checks a randomised block as checkAgainstStd checks
// others: Decode accepts it exactly when it accepts the block with the
// randomised bit cleared, which the standard library checks, and its bytes
// are those of that block's Burrows-Wheeler output with bzip2's bits
// flipped (the tests' encoder flips them), run-length decoded.
func checkRandomisedBlock(t *testing.T, d *bzblock.Decoder, data []byte) bool {
	plain := bytes.Clone(data)
	plain[14] &^= 0x80
	if !checkAgainstStd(t, d, plain) {
		if _, err := d.Decode(data[4:], 0, int(data[3]-'0')); err == nil {
			t.Fatal("Decode accepts the randomised block, not the same block plain")
		}
		return false
	}
	b, err := d.Decode(plain[4:], 0, int(plain[3]-'0'))
	if err != nil {
		t.Fatalf("the plain block: %v", err)
	}
	want, wantErr := bzblock.RunLengthDecode(randomise(bzblock.PreRLE(b), true), b.CRC())
	if b, err = d.Decode(data[4:], 0, int(data[3]-'0')); err != nil {
		t.Fatalf("Decode refuses the randomised block, not the same block plain: %v", err)
	}
	got, gotErr := io.ReadAll(b)
	if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("Decode gave %d bytes (%v), want %d (%v)", len(got), gotErr, len(want), wantErr)
	}
	return true
}

// TestDamagedBlocks flips bits and changes bytes of a block at random
// places (of a block bzip2 made, or of the randomised one of testdata),
// and checks every block Decode still accepts against the standard
// library.
func TestDamagedBlocks(t *testing.T) {
	data := text(t, corpus.Mixed, 30<<10, 4)
	file := compressTool(t, data, "-1")
	rng := rand.New(rand.NewPCG(5, 6))
	var d bzblock.Decoder
	accepted, trials := 0, 3000
	if bzblock.RaceEnabled {
		trials = 300
	}
	randomised, err := os.ReadFile(randomisedFile)
	if err != nil {
		t.Fatal(err)
	}
	for i := range trials {
		// Every fourth a randomised block, and every eighth one whose
		// randomised bit is switched.
		b := bytes.Clone(file)
		if i%4 == 3 {
			b = bytes.Clone(randomised)
		}
		if i%8 == 5 {
			b[14] ^= 0x80
		}
		for range 1 + rng.IntN(3) {
			k := 4 + rng.IntN(min(len(b)-4, 200))
			if rng.IntN(2) == 0 {
				b[k] ^= 1 << rng.IntN(8)
			} else {
				b[k] = byte(rng.Uint32())
			}
		}
		if checkAgainstStd(t, &d, b) {
			accepted++
		}
	}
	t.Logf("%d of %d damaged blocks accepted", accepted, trials)
}

// FuzzBlock checks, for any input, the property of checkAgainstStd.
func FuzzBlock(f *testing.F) {
	f.Add(compressTool(f, text(f, corpus.Mixed, 4<<10, 7)))
	f.Add(compressTool(f, []byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")))
	var tiny [8]byte
	binary.BigEndian.PutUint64(tiny[:], 0x425a683931415926)
	f.Add(tiny[:])
	if file, err := os.ReadFile(randomisedFile); err == nil {
		f.Add(file)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Level 1, so that a block decodes to at most 5 MB (level 9's
		// runs of 255 copies make 46 MB, which slows the fuzzer to a
		// crawl): the checks are the same at every level but for the size.
		if len(data) > 3 {
			data[3] = '1'
		}
		var d bzblock.Decoder
		checkAgainstStd(t, &d, data)
	})
}
