package lzma_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	ulzma "github.com/ulikunitz/xz/lzma"

	"github.com/foreachio/foreach/internal/lzma"
)

// encode2 is another encoder's LZMA2 data of data (github.com/ulikunitz/xz's writer),
// with a dictionary of dict bytes and the properties props ((pb*5+lp)*9+lc, lc+lp <= 4).
func encode2(t testing.TB, data []byte, dict int, props uint8) []byte {
	t.Helper()
	lc, lp, pb := int(props%9), int(props/9%5), int(props/45%5)
	if lc+lp > 4 {
		lc, lp = 4-lp%5, 0
	}
	var b bytes.Buffer
	cfg := ulzma.Writer2Config{DictCap: dict, Properties: &ulzma.Properties{LC: lc, LP: lp, PB: pb}}
	w, err := cfg.NewWriter2(&b)
	if err != nil {
		t.Skip(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Skip(err) // the writer fails on some inputs ("insufficient space")
	}
	if err := w.Close(); err != nil {
		t.Skip(err)
	}
	return b.Bytes()
}

// TestReader2: LZMA2 data of text, runs and noise, whole and into a 1-byte buffer; the
// data cut short gives a prefix and io.ErrUnexpectedEOF.
func TestReader2(t *testing.T) {
	var noise []byte
	x := uint32(1)
	for range 70000 {
		x = x*1664525 + 1013904223
		noise = append(noise, byte(x>>24))
	}
	inputs := [][]byte{nil, []byte("a"), bytes.Repeat([]byte("hello, lzma\n"), 20000), noise}
	for _, in := range inputs {
		c := encode2(t, in, 1<<16, 3)
		var r lzma.Reader2
		r.Reset(bytes.NewReader(c), 1<<16)
		got, err := io.ReadAll(&r)
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("%d of %d bytes, %v", len(got), len(in), err)
		}
		for _, cut := range []int{len(c) / 3, len(c) - 1} {
			r.Reset(bytes.NewReader(c[:cut]), 1<<16)
			got, err = io.ReadAll(&r)
			if len(c) > 1 && (!errors.Is(err, io.ErrUnexpectedEOF) || !bytes.HasPrefix(in, got)) {
				t.Fatalf("cut at %d of %d: %d bytes, %v", cut, len(c), len(got), err)
			}
		}
	}
}

// FuzzReader2 decodes another encoder's LZMA2 data of the fuzzer's bytes, and the
// fuzzer's bytes as LZMA2 data (an error or bytes, never a panic or a loop).
func FuzzReader2(f *testing.F) {
	f.Add([]byte("hello, hello, hello\n"), uint8(3), uint8(0))
	f.Add(bytes.Repeat([]byte("abcab"), 3000), uint8(0x2c), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, props, dict uint8) {
		size := 1 << (16 + dict%4)
		c := encode2(t, data, size, props)
		var r lzma.Reader2
		r.Reset(bytes.NewReader(c), size)
		got, err := io.ReadAll(&r)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%d of %d bytes, %v", len(got), len(data), err)
		}
		r.Reset(bytes.NewReader(data), size)
		got, _ = io.ReadAll(io.LimitReader(&r, 64<<20))
		if len(got) == 64<<20 {
			t.Fatal("64 MiB from a fuzzer's input")
		}
	})
}
