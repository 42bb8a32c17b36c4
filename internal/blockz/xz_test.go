package blockz_test

import (
	"bytes"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

func TestXzScan(t *testing.T) {
	data := text(t, 300<<10, 8)
	file := tool(t, "xz -c -0 -T2 --block-size=64KiB", data)
	l, err := blockz.Scan(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	blocks := (len(data) + 64<<10 - 1) / (64 << 10)
	if l.Format != decompress.Xz || len(l.Pieces) != blocks || l.Rest != int64(len(file)) {
		t.Fatalf("layout %+v", l)
	}
	var size int64
	for _, p := range l.Pieces {
		size += p.Size
	}
	if size != int64(len(data)) {
		t.Fatalf("sizes add up to %d, want %d", size, len(data))
	}
	one := tool(t, "xz -c -0", data)
	if _, err := blockz.NewReader(bytes.NewReader(one), int64(len(one)), blockz.Options{}); err != blockz.ErrNoStructure {
		t.Fatalf("one block: %v, want ErrNoStructure", err)
	}
}

func TestXzSame(t *testing.T) {
	data := sample(t, 120<<10, 9)
	blocks := tool(t, "xz -c -0 -T2 --block-size=30KiB", data)
	files := map[string][]byte{
		"blocks":            blocks,
		"crc32":             tool(t, "xz -c -0 -T2 --block-size=40KiB --check=crc32", data),
		"no check":          tool(t, "xz -c -0 -T2 --block-size=40KiB --check=none", data),
		"sha256":            tool(t, "xz -c -0 -T2 --block-size=40KiB --check=sha256", data),
		"stream padding":    append(append(bytes.Clone(blocks), 0, 0, 0, 0), blocks...),
		"bad padding":       append(append(bytes.Clone(blocks), 0, 0, 0), blocks...),
		"then a one-block":  append(bytes.Clone(blocks), tool(t, "xz -c -0", data[:1000])...),
		"a one-block first": append(tool(t, "xz -c -0", data[:1000]), blocks...),
		"then gzip":         append(bytes.Clone(blocks), gz(t, data[:100])...),
	}
	for name, file := range files {
		for dname, d := range damaged(file, 4, 5) {
			same(t, name+"/"+dname, d)
		}
	}
}
