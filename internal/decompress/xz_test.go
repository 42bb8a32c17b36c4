package decompress

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// watchAll feeds input to an xzWatch through reads of the given size, as
// a decoder would, and returns it.
func watchAll(t *testing.T, input []byte, size int) *xzWatch {
	t.Helper()
	x := newXzWatch(bufio.NewReader(bytes.NewReader(input)))
	buf := make([]byte, size)
	for i := 0; ; i++ {
		var err error
		if i%3 == 0 {
			_, err = x.ReadByte() // mix the decoder's two ways of reading
		} else {
			_, err = x.Read(buf)
		}
		if err == io.EOF {
			return x
		}
		if err != nil {
			t.Fatal(err)
		}
		if x.state == xzLost {
			t.Fatalf("lost the structure at byte %d", x.pos)
		}
	}
}

// TestXzWatchFollows: the watch follows whole xz files, made by xz with
// different checks, block sizes and concatenated with padding, to their
// end, and finds them complete; cut anywhere, they are not complete.
func TestXzWatchFollows(t *testing.T) {
	inputs := map[string][]byte{}
	for _, name := range []string{"lines.txt.xz", "short.txt.xz", "empty.xz"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		inputs[name] = b
	}
	joined := append(append(append([]byte{}, inputs["short.txt.xz"]...), 0, 0, 0, 0), inputs["empty.xz"]...)
	inputs["joined"] = append(joined, inputs["short.txt.xz"]...)
	if _, err := exec.LookPath("xz"); err == nil {
		text := bytes.Repeat([]byte("some words on a line, and then a few more words\n"), 20000)
		for _, opts := range []string{"-0 --check=none", "-0 --check=crc32", "-1 --check=sha256", "-0 -T2 --block-size=64KiB", "-e --block-size=100KiB"} {
			cmd := exec.Command("xz", append([]string{"-c"}, strings.Fields(opts)...)...)
			cmd.Stdin = bytes.NewReader(text)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(opts, err)
			}
			inputs["xz "+opts] = out
		}
	}
	for name, input := range inputs {
		for _, size := range []int{1, 7, 4096} {
			if x := watchAll(t, input, size); !x.complete() || x.state != xzAfter {
				t.Errorf("%s in reads of %d: not complete at its end (state %d)", name, size, x.state)
			}
		}
		for _, cut := range []int{1, 12, 13, 20, len(input) / 2, len(input) - 13, len(input) - 1} {
			if cut <= 0 || cut >= len(input) {
				continue
			}
			if x := watchAll(t, input[:cut], 4096); x.complete() {
				t.Errorf("%s cut at %d of %d: complete", name, cut, len(input))
			}
		}
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
