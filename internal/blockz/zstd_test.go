package blockz_test

import (
	"bytes"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

// TestZstdScan: frames with their sizes in the headers, in a seek table,
// or nowhere, with skippable frames between them.
func TestZstdScan(t *testing.T) {
	data := text(t, 300<<10, 5)
	for _, tc := range []struct {
		name                    string
		sized, skippable, table bool
		sizes                   bool // the pieces' sizes are known
	}{
		{"sized", true, false, false, true},
		{"unsized", false, false, false, false},
		{"unsized with a seek table", false, false, true, true},
		{"pzstd's skippable frames", false, true, false, false},
		{"all", true, true, true, true},
	} {
		file := zstdFrames(t, data, 64<<10, tc.sized, tc.skippable, tc.table)
		l, err := blockz.Scan(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		frames := (len(data) + 64<<10 - 1) / (64 << 10)
		if l.Format != decompress.Zstd || len(l.Pieces) != frames || l.Rest != int64(len(file)) {
			t.Fatalf("%s: layout %+v", tc.name, l)
		}
		for i, p := range l.Pieces {
			want := int64(64 << 10)
			if i == frames-1 {
				want = int64(len(data)) - int64(frames-1)*64<<10
			}
			if !tc.sizes {
				want = -1
			}
			if p.Size != want {
				t.Fatalf("%s: piece %d of size %d, want %d", tc.name, i, p.Size, want)
			}
		}
	}
}

func TestZstdSame(t *testing.T) {
	data := sample(t, 400<<10, 6)
	one := zstdFrames(t, data, 1<<20, true, false, false)
	files := map[string][]byte{
		"sized":              zstdFrames(t, data, 64<<10, true, false, false),
		"unsized":            zstdFrames(t, data, 150<<10, false, false, false),
		"seek table":         zstdFrames(t, data, 100<<10, false, false, true),
		"skippable":          zstdFrames(t, data, 64<<10, false, true, false),
		"then one frame":     append(zstdFrames(t, data, 64<<10, true, false, false), one...),
		"then a gzip member": append(zstdFrames(t, data, 64<<10, true, false, false), gz(t, data[:100])...),
		"empty frames":       append(zstdFrames(t, []byte("x"), 1, true, false, false), zstdFrames(t, []byte("y"), 1, true, true, true)...),
	}
	if _, err := blockz.NewReader(bytes.NewReader(one), int64(len(one)), blockz.Options{}); err != blockz.ErrNoStructure {
		t.Fatalf("one frame: %v, want ErrNoStructure", err)
	}
	for name, file := range files {
		for dname, d := range damaged(file, 10, 3) {
			same(t, name+"/"+dname, d)
		}
	}
}

func TestZstdTools(t *testing.T) {
	data := text(t, 5<<20, 7)
	for _, command := range []string{"pzstd -c -q -p 2 -1"} {
		file := tool(t, command, data)
		if !same(t, command, file) {
			t.Fatalf("%s: no structure", command)
		}
		for name, d := range damaged(file, 6, 4) {
			same(t, command+"/"+name, d)
		}
	}
}
