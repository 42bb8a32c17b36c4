package foreachio

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/zindex"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// The index made from the headers' bytes alone is the one the scan of the whole file
// makes, for BGZF and for zstd frames (with pzstd's skippable frames, the seekable
// format's table, checksums), and the walks read a small part of the file.
func TestHeaderWalksGiveTheScansIndex(t *testing.T) {
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Lines: 20000, Phrases: 6, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"bgzf":             testBgzf(t, text, 64<<10),
		"zstd":             testZstd(t, text, 1<<20, false, false, false),
		"zstd, checksums":  testZstd(t, text, 1<<20, true, false, false),
		"zstd, skippable":  testZstd(t, text, 512<<10, false, true, false),
		"zstd, seek table": testZstd(t, text, 512<<10, true, false, true),
		"zstd, one frame":  testZstd(t, text, 64<<20, false, false, false),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			size := int64(len(data))
			want, err := zindex.FromStructure(bytes.NewReader(data), size)
			if err != nil {
				t.Fatal(err)
			}
			c := &countingReader{r: bytes.NewReader(data)}
			walk := bgzfHeaders
			if name != "bgzf" {
				walk = zstdHeaders
			}
			h, total, err := walk(c, size)
			if err != nil || h == nil {
				t.Fatalf("walk: %v, %v", h, err)
			}
			if total != int64(len(text)) {
				t.Fatalf("the headers add up to %d bytes of text, want %d", total, len(text))
			}
			got, err := zindex.FromStructure(h, size)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Offsets(), want.Offsets()) || got.Size() != want.Size() {
				t.Fatalf("index from the headers: %d points, %d bytes; from the file: %d points, %d bytes", got.Points(), got.Size(), want.Points(), want.Size())
			}
			if c.n > size/10+2*idBytes {
				t.Fatalf("the walk read %d bytes of %d", c.n, size)
			}
		})
	}
}

func testBgzf(t *testing.T, text []byte, block int) []byte {
	var out bytes.Buffer
	for rest := text; ; rest = rest[min(block, len(rest)):] {
		var m bytes.Buffer
		w, _ := gzip.NewWriterLevel(&m, 6)
		w.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		w.Write(rest[:min(block, len(rest))])
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b := m.Bytes()
		binary.LittleEndian.PutUint16(b[16:], uint16(len(b)-1))
		out.Write(b)
		if len(rest) == 0 {
			return out.Bytes() // the empty member that ends a BGZF file
		}
	}
}

// testZstd makes zstd frames of block bytes of text each: with checksums, each after a
// skippable frame giving its size (as pzstd writes them), with the seek table at the end.
func testZstd(t *testing.T, text []byte, block int, checksum, skippable, table bool) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(checksum))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out, entries []byte
	frames := 0
	for rest := text; len(rest) > 0; rest = rest[min(block, len(rest)):] {
		frame := enc.EncodeAll(rest[:min(block, len(rest))], nil)
		if skippable {
			out = binary.LittleEndian.AppendUint32(out, zstdSkippable)
			out = binary.LittleEndian.AppendUint32(out, 4)
			out = binary.LittleEndian.AppendUint32(out, uint32(len(frame)))
		}
		out = append(out, frame...)
		entries = binary.LittleEndian.AppendUint32(entries, uint32(len(frame)))
		entries = binary.LittleEndian.AppendUint32(entries, uint32(min(block, len(rest))))
		frames++
	}
	if table {
		entries = binary.LittleEndian.AppendUint32(entries, uint32(frames))
		entries = append(entries, 0)
		entries = binary.LittleEndian.AppendUint32(entries, seekableMagic)
		out = binary.LittleEndian.AppendUint32(out, 0x184D2A5E)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(entries)))
		out = append(out, entries...)
	}
	return out
}
