package decompress

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// framers are the formats a framing follows, with a new framer for each.
var framers = []struct {
	format Format
	ext    string
	new    func() framer
}{
	{Zstd, "zst", func() framer { return &zstdFrames{} }},
	{Lz4, "lz4", func() framer { return &lz4Frames{} }},
	{Xz, "xz", func() framer { return &xzFrames{} }},
}

// framingAll reads input through a framing in reads of the given size, mixed
// with ReadByte as a decoder does, to the end, failing if the framing loses
// the structure, and returns what end reports.
func framingAll(t *testing.T, f Format, frames framer, input []byte, size int) error {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(input))
	n := int64(0)
	w := newFraming(r, f, frames, func() int64 { return n })
	buf := make([]byte, size)
	for i := 0; ; i++ {
		var err error
		if i%3 == 0 {
			_, err = w.ReadByte()
			if err == nil {
				n++
			}
		} else {
			var k int
			k, err = w.Read(buf)
			n += int64(k)
		}
		if err == io.EOF {
			return w.end()
		}
		if err != nil {
			t.Fatal(err)
		}
		if w.kind == lost {
			t.Fatalf("lost the structure at byte %d", n)
		}
	}
}

// toolOutputs are files the formats' tools make with options that change
// their structure (checks, block sizes, block checksums, content sizes),
// for the framing to follow; none where the tool is missing.
func toolOutputs(t *testing.T, ext string) map[string][]byte {
	out := map[string][]byte{}
	text := bytes.Repeat([]byte("some words on a line, and then a few more words\n"), 20000)
	options := map[string][]string{
		"xz":  {"xz -c -0 --check=none", "xz -c -0 --check=crc32", "xz -c -1 --check=sha256", "xz -c -0 -T2 --block-size=64KiB", "xz -c -e --block-size=100KiB"},
		"zst": {"zstd -c -q", "zstd -c -q --no-check", "zstd -c -q -19 --content-size", "zstd -c -q -T2 --block-size=64KB", "zstd -c -q --no-content-size"},
		"lz4": {"lz4 -c -q", "lz4 -c -q -BD --no-frame-crc", "lz4 -c -q -BX -B4", "lz4 -c -q --content-size", "lz4 -c -q -9 -B7"},
	}
	for _, command := range options[ext] {
		if b, ok := tools.Output(t, command, text); ok {
			out[command] = b
		}
	}
	return out
}

// TestFramingFollows: the framing follows whole files of each format (the
// fixtures, the tools' output with options that change the structure, and
// streams joined with skippable frames or padding) to their end and finds
// them complete; cut anywhere, they are cut short.
func TestFramingFollows(t *testing.T) {
	for _, fr := range framers {
		t.Run(fr.ext, func(t *testing.T) {
			inputs := toolOutputs(t, fr.ext)
			for _, name := range []string{"lines.txt", "short.txt", "empty"} {
				b, err := os.ReadFile("testdata/" + name + "." + fr.ext)
				if err != nil {
					t.Fatal(err)
				}
				inputs[name] = b
			}
			between := []byte{0, 0, 0, 0} // xz's stream padding
			if fr.format != Xz {
				between = []byte{0x5e, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'a', 'b', 'c'} // a skippable frame
			}
			joined := append(append(append([]byte{}, inputs["short.txt"]...), between...), inputs["empty"]...)
			inputs["joined"] = append(joined, inputs["short.txt"]...)
			for name, input := range inputs {
				for _, size := range []int{1, 7, 4096} {
					if err := framingAll(t, fr.format, fr.new(), input, size); err != io.EOF {
						t.Errorf("%s in reads of %d: %v at its end", name, size, err)
					}
				}
				for _, cut := range []int{1, 4, 5, 12, 13, 20, len(input) / 2, len(input) - 13, len(input) - 1} {
					if cut <= 0 || cut >= len(input) {
						continue
					}
					if err := framingAll(t, fr.format, fr.new(), input[:cut], 4096); err != io.ErrUnexpectedEOF {
						t.Errorf("%s cut at %d of %d: %v", name, cut, len(input), err)
					}
				}
			}
		})
	}
}

// withDict returns the fixture short.txt.xz with its block's LZMA2
// dictionary property set to p, and the block header's CRC32 made right.
func withDict(t *testing.T, p byte) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/short.txt.xz")
	if err != nil {
		t.Fatal(err)
	}
	h := b[12:]
	hlen := (int(h[0]) + 1) * 4
	if h[1] != 0 || h[2] != 0x21 || h[3] != 1 { // no sizes, one filter: LZMA2
		t.Fatalf("unexpected block header % x", h[:hlen])
	}
	h[4] = p
	binary.LittleEndian.PutUint32(h[hlen-4:], crc32.ChecksumIEEE(h[:hlen-4]))
	return b
}

// TestXzDictionaryLimit: a block declaring a dictionary above maxWindow is
// refused before the decoder allocates it; one at the limit is read.
func TestXzDictionaryLimit(t *testing.T) {
	want, err := os.ReadFile("testdata/short.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Property 30 is 2<<26 bytes, 128 MiB: accepted.
	got, err := io.ReadAll(NewReader(bytes.NewReader(withDict(t, 30))))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("dictionary of 128 MiB: %v, %d bytes", err, len(got))
	}
	for _, p := range []byte{31, 39, 40} { // 192 MiB, 3 GiB, 4 GiB - 1
		r := NewReader(bytes.NewReader(withDict(t, p)))
		got, err := io.ReadAll(r)
		var de *Error
		if len(got) != 0 || !errors.As(err, &de) || de.Format != Xz || !strings.Contains(err.Error(), "larger than the limit of 134217728") {
			t.Fatalf("property %d: %d bytes, %v", p, len(got), err)
		}
		t.Log(err)
	}
}
