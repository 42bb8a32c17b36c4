package blockz_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

// TestDecoder: the pieces decoded by a Decoder from their offsets alone, in
// any order, are those Scan found; a wrong size or an offset that is not a
// piece's is an error.
func TestDecoder(t *testing.T) {
	data := text(t, 300<<10, 18)
	for name, file := range map[string][]byte{
		"bgzf":           bgzf(t, data, 30000, true),
		"zstd seekable":  zstdFrames(t, data, 40000, false, true, true),
		"zstd sized":     zstdFrames(t, data, 40000, true, false, false),
		"xz":             tool(t, "xz -c -0 -T2 --block-size=40KiB", data),
		"xz two streams": append(append(tool(t, "xz -c -0 -T2 --block-size=40KiB", data[:1000]), 0, 0, 0, 0), tool(t, "xz -c -0 -T2 --block-size=40KiB", data)...),
	} {
		l, err := blockz.Scan(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		d, err := blockz.NewDecoder(bytes.NewReader(file), int64(len(file)), l.Format)
		if err != nil {
			t.Fatal(err)
		}
		for k := range l.Pieces {
			i := (k * 7) % len(l.Pieces) // out of order
			p := l.Pieces[i]
			want, err := l.PieceReader(bytes.NewReader(file), i)
			if err != nil {
				t.Fatal(err)
			}
			wantBytes, _ := io.ReadAll(want)
			r, err := d.Open(p.Stream(), p.Offset, p.Size)
			if err != nil {
				t.Fatalf("%s: piece %d: %v", name, i, err)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, wantBytes) {
				t.Fatalf("%s: piece %d: %d bytes, %v; want %d", name, i, len(got), err, len(wantBytes))
			}
		}
		p := l.Pieces[1]
		for what, at := range map[string][3]int64{
			"with a size too large": {p.Stream(), p.Offset, p.Size + 1},
			"with a size too small": {p.Stream(), p.Offset, p.Size - 1},
			"one byte in":           {p.Stream(), p.Offset + 1, p.Size},
		} {
			r, err := d.Open(at[0], at[1], at[2])
			if err == nil {
				_, err = io.ReadAll(r)
			}
			if err == nil {
				t.Errorf("%s: a piece opened %s decodes", name, what)
			}
		}
	}
	if _, err := blockz.NewDecoder(bytes.NewReader(nil), 0, decompress.Bzip2); err != blockz.ErrNoStructure {
		t.Errorf("bzip2: %v, want ErrNoStructure", err)
	}
}
