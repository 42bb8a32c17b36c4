package blockz_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/measure/corpus"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// sample is text for the differential tests: a third of size under the
// race detector, where decoding is ten times slower (the pieces are still
// many).
func sample(t testing.TB, size int64, seed uint64) []byte {
	t.Helper()
	if raceEnabled {
		size /= 3
	}
	return text(t, size, seed)
}

// text is the test's text: a mixed corpus (long-tailed line lengths) of
// about size bytes.
func text(t testing.TB, size int64, seed uint64) []byte {
	t.Helper()
	b, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: size, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tool runs a compression tool on input and returns its output, skipping the test
// when the tool did not do its job (internal/testkit/tools).
func tool(t testing.TB, command string, input []byte) []byte {
	t.Helper()
	return tools.Run(t, command, input)
}

// bgzf compresses data as BGZF does: members of at most block bytes of
// input, each with the "BC" subfield giving its size, and the empty member
// that ends a BGZF file when eof is set.
func bgzf(t testing.TB, data []byte, block int, eof bool) []byte {
	t.Helper()
	var out bytes.Buffer
	member := func(p []byte) {
		var m bytes.Buffer
		w, err := gzip.NewWriterLevel(&m, 6)
		if err != nil {
			t.Fatal(err)
		}
		w.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		w.Header.OS = 255
		if _, err := w.Write(p); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b := m.Bytes()
		binary.LittleEndian.PutUint16(b[16:], uint16(len(b)-1))
		out.Write(b)
	}
	for len(data) > 0 {
		n := min(block, len(data))
		member(data[:n])
		data = data[n:]
	}
	if eof {
		member(nil)
	}
	return out.Bytes()
}

// gz compresses data as one plain gzip member.
func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var m bytes.Buffer
	w := gzip.NewWriter(&m)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return m.Bytes()
}

// zstdFrames compresses data as a series of zstd frames of at most block
// bytes of input each: with their content sizes in the headers (sized), or
// without (as a stream writer makes them); with a skippable frame before
// each, as pzstd writes (skippable); with the seek table of the seekable
// format at the end (table).
func zstdFrames(t testing.TB, data []byte, block int, sized, skippable, table bool) []byte {
	t.Helper()
	var out, entries bytes.Buffer
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	frames := 0
	for len(data) > 0 {
		n := min(block, len(data))
		frame := enc.EncodeAll(data[:n], nil)
		if !sized {
			frame = withoutContentSize(t, frame)
		}
		if skippable {
			out.Write([]byte{0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0})
			binary.Write(&out, binary.LittleEndian, uint32(len(frame)))
		}
		out.Write(frame)
		binary.Write(&entries, binary.LittleEndian, uint32(len(frame)))
		binary.Write(&entries, binary.LittleEndian, uint32(n))
		frames++
		data = data[n:]
	}
	if table {
		binary.Write(&entries, binary.LittleEndian, uint32(frames))
		entries.WriteByte(0)
		binary.Write(&entries, binary.LittleEndian, uint32(0x8F92EAB1))
		binary.Write(&out, binary.LittleEndian, uint32(0x184D2A5E))
		binary.Write(&out, binary.LittleEndian, uint32(entries.Len()))
		out.Write(entries.Bytes())
	}
	return out.Bytes()
}

// withoutContentSize returns a zstd frame (with a window descriptor) with
// the content size taken out of its header, as a writer that does not know
// it in advance makes it.
func withoutContentSize(t testing.TB, frame []byte) []byte {
	fhd := frame[4]
	if fhd&0x20 != 0 || fhd&3 != 0 {
		t.Fatalf("frame header %#x: single segment or dictionary", fhd)
	}
	fcs := [4]int{0, 2, 4, 8}[fhd>>6]
	out := append([]byte(nil), frame[:6]...)
	out[4] &^= 0xc0
	return append(out, frame[6+fcs:]...)
}

// lz4Frame compresses data as one lz4 frame with the library's writer and
// the options given.
func lz4Frame(t testing.TB, data []byte, opts ...lz4.Option) []byte {
	t.Helper()
	var out bytes.Buffer
	w := lz4.NewWriter(&out)
	if err := w.Apply(append([]lz4.Option{lz4.ConcurrencyOption(1)}, opts...)...); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// withContentSize returns an lz4 frame whose descriptor has a content size
// field with size in it (and its checksum made again).
func withContentSize(t testing.TB, frame []byte, size uint64) []byte {
	t.Helper()
	f := bytes.Clone(frame)
	if f[4]&0x08 == 0 || f[4]&0x01 != 0 {
		t.Fatalf("descriptor %#x: no content size, or a dictionary", f[4])
	}
	binary.LittleEndian.PutUint64(f[6:], size)
	f[14] = byte(blockz.Xxh32(f[4:14]) >> 8)
	return f
}

// raceEnabled is blockz.RaceEnabled: whether the race detector is on.
const raceEnabled = blockz.RaceEnabled
