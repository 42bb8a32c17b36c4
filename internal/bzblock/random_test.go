package bzblock_test

import (
	"bytes"
	"compress/bzip2"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/foreachio/foreach/internal/bzblock"
	"github.com/foreachio/foreach/internal/measure/corpus"
)

// blocksOf decodes the blocks of a one-stream file one after another and
// returns each one's bytes before its final run-length decoding and its CRC.
func blocksOf(t testing.TB, file []byte) (pres [][]byte, crcs []uint32) {
	t.Helper()
	level := int(file[3] - '0')
	var d bzblock.Decoder
	for off := int64(32); bits48(file, off) == bzblock.BlockMagic; {
		b, err := d.Decode(file[off/8:], uint(off%8), level)
		if err != nil {
			t.Fatal(err)
		}
		pres, crcs = append(pres, bzblock.PreRLE(b)), append(crcs, b.CRC())
		off += b.End()
	}
	return pres, crcs
}

// toolDecode runs bzip2 -dc on file; ok is false when bzip2 is not
// installed (the test then does without it).
func toolDecode(t *testing.T, file []byte) (out []byte, ok bool) {
	t.Helper()
	if _, err := exec.LookPath("bzip2"); err != nil {
		return nil, false
	}
	cmd := exec.Command("bzip2", "-dc")
	cmd.Stdin = bytes.NewReader(file)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bzip2 -dc: %v", err)
	}
	return out, true
}

// reencode makes file (a stream bzip2 wrote) again with the test encoder,
// the blocks randomised where randomised says (cycled).
func reencode(t *testing.T, file []byte, randomised ...bool) []byte {
	pres, crcs := blocksOf(t, file)
	rand := make([]bool, len(pres))
	for i := range rand {
		rand[i] = randomised[i%len(randomised)]
	}
	return encodeStream(int(file[3]-'0'), pres, crcs, rand)
}

// TestRandomisedBlocks re-encodes streams bzip2 made with their blocks
// randomised, as bzip2 0.9.0 did, and decodes them: bzip2 -dc gives the
// text back (when it is installed), and so does the Decoder; the standard
// library refuses them. The small stream (two or three blocks of level 1) is
// re-encoded not randomised too, which checks the encoder: the standard
// library reads it. The large one's first block (900,000 bytes before its
// BWT) takes bzip2's randomisation table around three times.
func TestRandomisedBlocks(t *testing.T) {
	size := int64(250 << 10)
	if bzblock.RaceEnabled {
		size = 120 << 10
	}
	small := text(t, corpus.Mixed, size, 11)
	file := compressTool(t, small, "-1")
	plain := reencode(t, file, false)
	if got, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(plain))); err != nil || !bytes.Equal(got, small) {
		t.Fatalf("the encoder: the standard library reads %d bytes (%v), want %d", len(got), err, len(small))
	}
	checkRandomised(t, small, reencode(t, file, true, false))
	checkRandomised(t, small, reencode(t, file, false, true))
	if !bzblock.RaceEnabled {
		large := text(t, corpus.Mixed, 1000<<10, 12)
		checkRandomised(t, large, reencode(t, compressTool(t, large, "-9"), true))
	}
}

// checkRandomised checks that a stream with randomised blocks decodes to
// want by the Decoder and bzip2 -dc, and that the standard library refuses it.
func checkRandomised(t *testing.T, want, file []byte) {
	t.Helper()
	var got bytes.Buffer
	var d bzblock.Decoder
	if decodeChain(t, &d, file, &got); !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("%d bytes, want %d", got.Len(), len(want))
	}
	if got, ok := toolDecode(t, file); ok && !bytes.Equal(got, want) {
		t.Fatalf("bzip2 -dc gives %d bytes, want %d", len(got), len(want))
	}
	var se bzip2.StructuralError
	if _, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(file))); !errors.As(err, &se) {
		t.Fatalf("the standard library: %v, want its refusal", err)
	}
}

var update = flag.Bool("update", false, "write testdata/randomised.bz2 again")

// The committed file with randomised blocks (testdata/README.md): 200 KiB
// of the mixed corpus, seed 43 (207,986 bytes: it ends with a whole line),
// through bzip2 -1 (three blocks), re-encoded by the test encoder with the
// first and the third block randomised.
const (
	randomisedFile   = "testdata/randomised.bz2"
	randomisedSize   = 200 << 10
	randomisedSHA256 = "72c612c9a74a2dee4d38cf6d7e72c66d0ccaf97d7a80a90c7f021409adfeb5b1"
)

func randomisedText(t *testing.T) []byte {
	return text(t, corpus.Mixed, randomisedSize, 43)
}

// TestRandomisedFile decodes the committed file with randomised blocks:
// its text, by the Decoder and by bzip2 -dc when installed. With -update
// it makes the file again (bzip2 needed).
func TestRandomisedFile(t *testing.T) {
	want := randomisedText(t)
	if *update {
		file := reencode(t, compressTool(t, want, "-1"), true, false)
		if err := os.WriteFile(randomisedFile, file, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file, err := os.ReadFile(randomisedFile)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(want); hex.EncodeToString(sum[:]) != randomisedSHA256 {
		t.Fatalf("the corpus generator changed: sha256 %x", sum)
	}
	if got := decodeBlocks(t, file); !bytes.Equal(got, want) {
		t.Fatalf("%d bytes, want %d", len(got), len(want))
	}
	if got, ok := toolDecode(t, file); ok && !bytes.Equal(got, want) {
		t.Fatalf("bzip2 -dc gives %d bytes, want %d", len(got), len(want))
	}
}
