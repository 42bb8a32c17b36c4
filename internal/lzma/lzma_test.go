package lzma_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
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

// encode1 is another encoder's .lzma file of data (github.com/ulikunitz/xz's writer):
// its 13-byte header and its LZMA stream, with the size in the header or not and the
// end marker or not (at least one of the two).
func encode1(t testing.TB, data []byte, props uint8, sized, marker bool) []byte {
	t.Helper()
	lc, lp, pb := int(props%9), int(props/9%5), int(props/45%5)
	if lc+lp > 4 {
		lc, lp = 4-lp%5, 0
	}
	// (The writer puts no size in the header for no data: then the marker is needed.)
	cfg := ulzma.WriterConfig{DictCap: 1 << 16, Properties: &ulzma.Properties{LC: lc, LP: lp, PB: pb},
		EOSMarker: marker || !sized || len(data) == 0, SizeInHeader: sized, Size: int64(len(data))}
	var b bytes.Buffer
	w, err := cfg.NewWriter(&b)
	if err != nil {
		t.Skip(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Skip(err)
	}
	if err := w.Close(); err != nil {
		t.Skip(err)
	}
	return b.Bytes()
}

// read1 decodes a .lzma file's stream with a Reader1 reading src through a small
// bufio.Reader, and returns what follows it.
func read1(c []byte, src io.Reader) ([]byte, []byte, error) {
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(c[13:]), src), 64)
	var r lzma.Reader1
	size := int64(binary.LittleEndian.Uint64(c[5:13]))
	if err := r.Reset(br, c[0], int(binary.LittleEndian.Uint32(c[1:5])), size); err != nil {
		return nil, nil, err
	}
	got, err := io.ReadAll(&r)
	rest, _ := io.ReadAll(br)
	return got, rest, err
}

// TestReader1: .lzma streams with and without their size and end marker decode to
// their data and consume exactly their bytes (what follows is left); cut short, a
// prefix and io.ErrUnexpectedEOF.
func TestReader1(t *testing.T) {
	inputs := [][]byte{nil, []byte("a"), bytes.Repeat([]byte("hello, lzma\n"), 20000)}
	for _, in := range inputs {
		for _, form := range [][2]bool{{true, false}, {true, true}, {false, true}} {
			c := encode1(t, in, 93, form[0], form[1])
			got, rest, err := read1(c, strings.NewReader("after"))
			if err != nil || !bytes.Equal(got, in) || string(rest) != "after" {
				t.Fatalf("sized %v, marker %v: %d of %d bytes, %v, then %q", form[0], form[1], len(got), len(in), err, rest)
			}
			for _, cut := range []int{14, 13 + (len(c)-13)/2, len(c) - 1} {
				if cut >= len(c) {
					continue
				}
				got, _, err = read1(c[:cut], strings.NewReader(""))
				if !errors.Is(err, io.ErrUnexpectedEOF) || !bytes.HasPrefix(in, got) {
					t.Fatalf("sized %v, marker %v, cut at %d of %d: %d bytes, %v", form[0], form[1], cut, len(c), len(got), err)
				}
			}
		}
	}
}

// FuzzReader1 decodes another encoder's .lzma stream of the fuzzer's bytes, every
// form, and the fuzzer's bytes as one (an error or bytes, never a panic or a loop).
func FuzzReader1(f *testing.F) {
	f.Add([]byte("hello, hello, hello\n"), uint8(93), uint8(0))
	f.Add(bytes.Repeat([]byte("abcab"), 3000), uint8(0x2c), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, props, form uint8) {
		sized, marker := form%3 != 2, form%3 != 0
		c := encode1(t, data, props, sized, marker)
		got, rest, err := read1(c, strings.NewReader("x"))
		if err != nil || !bytes.Equal(got, data) || string(rest) != "x" {
			t.Fatalf("%d of %d bytes, %v, then %q", len(got), len(data), err, rest)
		}
		if len(data) >= 13 {
			got, _, _ = read1(data, io.LimitReader(strings.NewReader(""), 0))
			if len(got) > 64<<20 {
				t.Fatal("more than 64 MiB")
			}
		}
	})
}
