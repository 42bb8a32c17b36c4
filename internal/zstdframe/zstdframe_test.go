package zstdframe_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/zstdframe"
)

// frames are frames of the encoder in every header form it writes: with and without
// a content size of each width, single segment or not, with a checksum or not.
func frames(t testing.TB) map[string][]byte {
	t.Helper()
	text := bytes.Repeat([]byte("a line of text for the frames\n"), 3000)
	out := map[string][]byte{}
	for _, c := range []struct {
		name string
		opts []zstd.EOption
		n    int
	}{
		{"single, 1-byte size", []zstd.EOption{zstd.WithSingleSegment(true)}, 100},
		{"2-byte size", []zstd.EOption{zstd.WithSingleSegment(false)}, 1000},
		{"4-byte size", []zstd.EOption{zstd.WithSingleSegment(false)}, len(text)},
		{"no checksum", []zstd.EOption{zstd.WithEncoderCRC(false)}, 5000},
		{"empty", nil, 0},
	} {
		enc, err := zstd.NewWriter(nil, append(c.opts, zstd.WithEncoderConcurrency(1))...)
		if err != nil {
			t.Fatal(err)
		}
		out[c.name] = enc.EncodeAll(text[:c.n], nil)
	}
	// A stream writer does not know the size: no content size.
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	w.Write(text)
	w.Close()
	out["stream"] = b.Bytes()
	return out
}

// TestParseHeader: every header form the encoder writes parses as the library's own
// header decoder reads it; the blocks walked by ParseBlock end where the frame does.
func TestParseHeader(t *testing.T) {
	for name, f := range frames(t) {
		h, err := zstdframe.ParseHeader(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want zstd.Header
		if err := want.Decode(f); err != nil {
			t.Fatal(err)
		}
		same(t, name, h, want)
		pos := int64(h.Len)
		for {
			b, err := zstdframe.ParseBlock(f[pos:])
			if err != nil {
				t.Fatalf("%s: block at %d: %v", name, pos, err)
			}
			pos += zstdframe.BlockHeaderLen + b.Bytes()
			if b.Last {
				break
			}
		}
		if h.Checksum {
			pos += 4
		}
		if pos != int64(len(f)) {
			t.Errorf("%s: the blocks end at %d, the frame at %d", name, pos, len(f))
		}
	}
}

// same fails the test unless h is what the library's header decoder says.
func same(t *testing.T, name string, h zstdframe.Header, want zstd.Header) {
	t.Helper()
	size := int64(-1)
	if want.HasFCS {
		size = int64(want.FrameContentSize)
	}
	window := want.WindowSize
	if want.SingleSegment {
		window = uint64(max(size, 1<<10))
	}
	if h.Len != want.HeaderSize || h.ContentSize != size || h.DictID != want.DictionaryID ||
		h.Checksum != want.HasCheckSum || h.Single != want.SingleSegment || h.Window != window {
		t.Errorf("%s: %+v; the library reads %+v", name, h, want)
	}
}

// TestParseHeaderErrors: a header cut anywhere is ErrShort, the reserved bit ErrReserved,
// a content size past 2^63 ErrContentSize, another magic an error; HeaderLen gives the
// length the cut needs.
func TestParseHeaderErrors(t *testing.T) {
	for name, f := range frames(t) {
		h, _ := zstdframe.ParseHeader(f)
		if n, err := zstdframe.HeaderLen(f[4]); n != h.Len || err != nil {
			t.Errorf("%s: HeaderLen %d, %v; want %d", name, n, err, h.Len)
		}
		for cut := range h.Len {
			if _, err := zstdframe.ParseHeader(f[:cut]); !errors.Is(err, zstdframe.ErrShort) && cut >= 4 {
				t.Errorf("%s cut at %d: %v", name, cut, err)
			}
		}
	}
	reserved := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x08, 0x50, 0}
	if _, err := zstdframe.ParseHeader(reserved); !errors.Is(err, zstdframe.ErrReserved) {
		t.Errorf("the reserved bit: %v", err)
	}
	huge := binary.LittleEndian.AppendUint64([]byte{0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x50}, 1<<63)
	if _, err := zstdframe.ParseHeader(huge); !errors.Is(err, zstdframe.ErrContentSize) {
		t.Errorf("a content size of 2^63: %v", err)
	}
	if _, err := zstdframe.ParseHeader([]byte("not a frame at all")); err == nil {
		t.Error("another magic number parsed")
	}
	if _, err := zstdframe.ParseBlock([]byte{6, 0, 0}); !errors.Is(err, zstdframe.ErrReserved) {
		t.Errorf("the reserved block type: %v", err)
	}
}

// TestSkippable: a skippable frame's length is 64-bit: 4 GiB - 1 of payload is not
// negative on any platform.
func TestSkippable(t *testing.T) {
	h := []byte{0x5e, 0x2a, 0x4d, 0x18, 0xff, 0xff, 0xff, 0xff}
	n, err := zstdframe.SkippableLen(h)
	if !zstdframe.IsSkippable(h) || n != 8+1<<32-1 || err != nil {
		t.Errorf("skippable frame of 4 GiB - 1: %d, %v", n, err)
	}
	if zstdframe.IsSkippable([]byte{0x28, 0xb5, 0x2f, 0xfd}) || !zstdframe.IsFrame([]byte{0x28, 0xb5, 0x2f, 0xfd}) {
		t.Error("a frame's magic taken for a skippable frame's")
	}
}

// TestSeekTable: the footer of a table of three entries with checksums gives its place;
// one whose table would start before the file, or with reserved bits, gives none.
func TestSeekTable(t *testing.T) {
	var file []byte
	file = append(file, make([]byte, 100)...) // the frames
	table := binary.LittleEndian.AppendUint32(nil, 0x184D2A5E)
	table = binary.LittleEndian.AppendUint32(table, 3*12+9)
	for i := range 3 {
		table = binary.LittleEndian.AppendUint32(table, uint32(30+i))
		table = binary.LittleEndian.AppendUint32(table, uint32(1000+i))
		table = binary.LittleEndian.AppendUint32(table, 0)
	}
	table = binary.LittleEndian.AppendUint32(table, 3)
	table = append(table, 0x80)
	table = binary.LittleEndian.AppendUint32(table, 0x8F92EAB1)
	file = append(file, table...)
	size := int64(len(file))
	st, ok := zstdframe.ParseSeekFooter(file[size-9:], size)
	if !ok || st.Frames != 3 || st.EntrySize != 12 || st.Start != 100 || st.Entries != 108 || !st.CheckSeekHeader(file[100:]) {
		t.Fatalf("%+v, %v", st, ok)
	}
	for i := range int64(3) {
		c, d := st.Entry(file[st.Entries+i*12:])
		if c != 30+i || d != 1000+i {
			t.Errorf("entry %d: %d, %d", i, c, d)
		}
	}
	if _, ok := zstdframe.ParseSeekFooter(file[size-9:], 40); ok {
		t.Error("a table longer than its file")
	}
	bad := bytes.Clone(file[size-9:])
	bad[4] |= 0x04
	if _, ok := zstdframe.ParseSeekFooter(bad, size); ok {
		t.Error("a footer with a reserved bit")
	}
}

// FuzzParseHeader compares ParseHeader with the library's header decoder on any bytes
// after a frame's magic: where both read a header, they read the same one; where the
// library says the bytes are cut short, so does ParseHeader.
func FuzzParseHeader(f *testing.F) {
	for _, fr := range frames(f) {
		f.Add(fr[4:min(len(fr), 18)])
	}
	f.Add([]byte{0x08})
	f.Add([]byte{0xc3, 0x50, 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, rest []byte) {
		b := append([]byte{0x28, 0xb5, 0x2f, 0xfd}, rest...)
		h, err := zstdframe.ParseHeader(b)
		var want zstd.Header
		werr := want.Decode(b)
		switch {
		case errors.Is(werr, io.ErrUnexpectedEOF):
			if !errors.Is(err, zstdframe.ErrShort) {
				t.Fatalf("cut short for the library, %v here", err)
			}
		case werr != nil:
			if err == nil {
				t.Fatalf("the library refuses (%v), ParseHeader reads %+v", werr, h)
			}
		case err == nil:
			same(t, "fuzz", h, want)
		case !errors.Is(err, zstdframe.ErrContentSize):
			t.Fatalf("the library reads %+v, ParseHeader fails: %v", want, err)
		}
	})
}
