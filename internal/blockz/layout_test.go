package blockz_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
)

// TestPieceReader: the pieces read alone, one after another, are the file.
func TestPieceReader(t *testing.T) {
	data := text(t, 300<<10, 17)
	for name, file := range map[string][]byte{
		"bgzf": bgzf(t, data, 30000, true),
		"zstd": zstdFrames(t, data, 40000, false, true, true),
		"xz":   tool(t, "xz -c -0 -T2 --block-size=40KiB", data),
	} {
		l, err := blockz.Scan(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for i, p := range l.Pieces {
			if p.Size < 0 {
				t.Fatalf("%s: piece %d without a size", name, i)
			}
			r, err := l.PieceReader(bytes.NewReader(file), i)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r)
			if err != nil || int64(len(b)) != p.Size {
				t.Fatalf("%s: piece %d: %d bytes, %v; its size is %d", name, i, len(b), err, p.Size)
			}
			out = append(out, b...)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("%s: the pieces make %d bytes, want %d", name, len(out), len(data))
		}
	}
}
