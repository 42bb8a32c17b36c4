package blockz_test

import (
	"bytes"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

func TestBzip2Scan(t *testing.T) {
	data := text(t, 350<<10, 13)
	file := tool(t, "bzip2 -c -1", data)
	l, err := blockz.Scan(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	if l.Format != decompress.Bzip2 || len(l.Pieces) < 4 {
		t.Fatalf("layout %+v", l)
	}
	if p := l.Pieces[0]; p.Offset != 4 || p.Bit != 0 {
		t.Fatalf("first block at %d bit %d", p.Offset, p.Bit)
	}
	one := tool(t, "bzip2 -c -9", data[:100<<10])
	if _, err := blockz.NewReader(bytes.NewReader(one), int64(len(one)), blockz.Options{}); err != blockz.ErrNoStructure {
		t.Fatalf("one block: %v, want ErrNoStructure", err)
	}
}

func TestBzip2Same(t *testing.T) {
	data := sample(t, 200<<10, 14)
	blocks := tool(t, "bzip2 -c -1", data)
	files := map[string][]byte{
		"blocks":                             blocks,
		"streams":                            append(tool(t, "bzip2 -c -1", data[:len(data)*3/4]), tool(t, "bzip2 -c -2", data[len(data)*3/4:])...),
		"an empty stream":                    append(append(bytes.Clone(blocks), tool(t, "bzip2 -c", nil)...), blocks...),
		"a one-block stream":                 append(tool(t, "bzip2 -c", data[:1000]), blocks...),
		"then gzip":                          append(bytes.Clone(blocks), gz(t, data[:100])...),
		"then zero padding":                  append(bytes.Clone(blocks), make([]byte, 100)...),
		"damaged: a stream cut in its magic": append(bytes.Clone(blocks), "BZh91AY&SY"...),
	}
	for name, file := range files {
		for dname, d := range damaged(file, 4, 8) {
			same(t, name+"/"+dname, d)
		}
	}
}

func TestBzip2Tools(t *testing.T) {
	data := sample(t, 300<<10, 15)
	for _, command := range []string{"lbzip2 -c -n 2 -1"} {
		file := tool(t, command, data)
		if !same(t, command, file) {
			t.Fatalf("%s: no structure", command)
		}
		for name, d := range damaged(file, 4, 9) {
			same(t, command+"/"+name, d)
		}
	}
}

// TestBzip2FalseMatches: matches of the block magic inside blocks are
// told apart from the blocks, whole files and damaged ones.
func TestBzip2FalseMatches(t *testing.T) {
	data := sample(t, 200<<10, 16)
	file := tool(t, "bzip2 -c -1", data)
	for name, d := range damaged(file, 4, 10) {
		want, wantErr := sequential(t, d)
		r, err := blockz.NewReaderWithFalseMatches(bytes.NewReader(d), int64(len(d)), blockz.Options{Workers: 2})
		if err != nil {
			continue
		}
		got, err := readAll(t, r)
		r.Close()
		if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s: %d bytes and %v, want %d and %v", name, len(got), err, len(want), wantErr)
		}
	}
}
