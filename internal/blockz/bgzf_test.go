package blockz_test

import (
	"bytes"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

func TestBgzfScan(t *testing.T) {
	data := text(t, 300<<10, 1)
	file := bgzf(t, data, 65280, true)
	l, err := blockz.Scan(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	if l.Format != decompress.Gzip || len(l.Pieces) != 6 || l.Rest != int64(len(file)) || !l.Covers(bytes.NewReader(file)) {
		t.Fatalf("layout %+v", l)
	}
	var off, size int64
	for i, p := range l.Pieces {
		if p.Offset != off || p.Bit != 0 {
			t.Fatalf("piece %d at %d, want %d", i, p.Offset, off)
		}
		off += p.Length
		size += p.Size
	}
	if size != int64(len(data)) {
		t.Fatalf("sizes add up to %d, want %d", size, len(data))
	}
}

func TestBgzfNoStructure(t *testing.T) {
	data := text(t, 100<<10, 2)
	for name, file := range map[string][]byte{
		"plain gzip":          gz(t, data),
		"two plain members":   append(gz(t, data), gz(t, data)...),
		"one BGZF member":     bgzf(t, data[:60000], 65280, false),
		"plain text":          data,
		"empty":               nil,
		"BGZF after a member": append(gz(t, data), bgzf(t, data, 65280, true)...),
	} {
		if _, err := blockz.NewReader(bytes.NewReader(file), int64(len(file)), blockz.Options{}); err != blockz.ErrNoStructure {
			t.Errorf("%s: NewReader gave %v, want ErrNoStructure", name, err)
		}
	}
}

// TestBgzfSame compares parallel and sequential reads of BGZF files made
// here and by bgzip, whole and damaged.
func TestBgzfSame(t *testing.T) {
	data := sample(t, 400<<10, 3)
	files := map[string][]byte{
		"64k members":             bgzf(t, data, 65280, true),
		"small members":           bgzf(t, data, 3000, false),
		"then a plain member":     append(bgzf(t, data, 65280, true), gz(t, data[:5000])...),
		"a plain member inside":   append(append(bgzf(t, data[:len(data)/2], 65280, false), gz(t, data[:5000])...), bgzf(t, data, 65280, true)...),
		"then trailing data":      append(bgzf(t, data, 65280, true), "garbage"...),
		"members of empty inputs": bgzf(t, nil, 1, true),
	}
	whole := files["64k members"]
	files["damaged: cut in the last member"] = whole[:len(whole)-100]
	for name, file := range files {
		for dname, d := range damaged(file, 10, 1) {
			same(t, name+"/"+dname, d)
		}
	}
}

func TestBgzfTool(t *testing.T) {
	data := sample(t, 600<<10, 4)
	file := tool(t, "bgzip -c -@2", data)
	if !same(t, "bgzip", file) {
		t.Fatal("bgzip's file has no structure")
	}
	for name, d := range damaged(file, 10, 2) {
		same(t, "bgzip/"+name, d)
	}
}
