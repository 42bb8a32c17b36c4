package blockz_test

import (
	"bytes"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

func TestLz4Scan(t *testing.T) {
	data := text(t, 300<<10, 10)
	file := lz4Frame(t, data, lz4.BlockSizeOption(lz4.Block64Kb), lz4.ChecksumOption(true))
	l, err := blockz.Scan(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	blocks := (len(data) + 64<<10 - 1) / (64 << 10)
	if l.Format != decompress.Lz4 || len(l.Pieces) != blocks || l.Rest != int64(len(file)) {
		t.Fatalf("layout %+v", l)
	}
}

func TestLz4Same(t *testing.T) {
	data := sample(t, 300<<10, 11)
	small := lz4.BlockSizeOption(lz4.Block64Kb)
	blocks := lz4Frame(t, data, small, lz4.ChecksumOption(true))
	files := map[string][]byte{
		"blocks":                blocks,
		"no content checksum":   lz4Frame(t, data, small, lz4.ChecksumOption(false)),
		"block checksums":       lz4Frame(t, data, small, lz4.BlockChecksumOption(true)),
		"content size":          lz4Frame(t, data, small, lz4.SizeOption(uint64(len(data)))),
		"damaged: content size": withContentSize(t, lz4Frame(t, data, small, lz4.SizeOption(uint64(len(data)))), uint64(len(data)-1)),
		"frames":                append(append(lz4Frame(t, data[:1000]), lz4Frame(t, data[1000:90000])...), lz4Frame(t, data[90000:])...),
		"an empty frame":        append(lz4Frame(t, nil), blocks...),
		"skippable frames":      append(append([]byte{0x5f, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3}, blocks...), 0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0),
		"then gzip":             append(bytes.Clone(blocks), gz(t, data[:100])...),
	}
	for name, file := range files {
		for dname, d := range damaged(file, 8, 6) {
			same(t, name+"/"+dname, d)
		}
	}
}

func TestLz4Tools(t *testing.T) {
	data := sample(t, 600<<10, 12)
	for _, command := range []string{"lz4 -c -q -B4", "lz4 -c -q -B4 -BX --content-size", "lz4 -c -q -B4 -BD", "lz4 -c -q -l"} {
		file := tool(t, command, data)
		structured := same(t, command, file)
		if want := command == "lz4 -c -q -B4" || command == "lz4 -c -q -B4 -BX --content-size"; structured != want {
			t.Fatalf("%s: structured %v, want %v", command, structured, want)
		}
		twice := append(bytes.Clone(file), file...)
		for name, d := range damaged(twice, 5, 7) {
			same(t, command+"/twice/"+name, d)
		}
	}
}
