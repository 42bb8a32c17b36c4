package decompress_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/decompress"
)

// What follows a complete stream, for every format: zero padding is
// ignored; other bytes are trailing data, reported after every byte of the
// stream; a stream cut short, even inside the magic number of the next
// one, is an unexpected end of data at the cut. (tools_test.go compares
// these cases with the formats' own tools.)

// otherMagic is the start of a stream of some format other than f: for the
// decoder of f, trailing data like any other.
func otherMagic(f decompress.Format) string {
	if f == decompress.Gzip {
		return "\x28\xb5\x2f\xfd\x00\x00\x01\x00\x00"
	}
	return "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
}

// magics are the magic numbers that start a stream of each format.
var magics = map[decompress.Format][]string{
	decompress.Gzip:  {"\x1f\x8b\x08"},
	decompress.Zstd:  {"\x28\xb5\x2f\xfd", "\x5a\x2a\x4d\x18"},
	decompress.Bzip2: {"BZh91AY&SY", "BZh9\x17\x72\x45\x38\x50\x90"},
	decompress.Xz:    {"\xfd7zXZ\x00"},
	decompress.Lz4:   {"\x04\x22\x4d\x18", "\x02\x21\x4c\x18", "\x5a\x2a\x4d\x18"},
}

// tails are the bytes put after a complete stream, and whether they are
// trailing data (else padding, ignored).
func tails(f decompress.Format) []struct {
	name     string
	tail     string
	trailing bool
} {
	zeros := func(n int) string { return strings.Repeat("\x00", n) }
	type tail = struct {
		name     string
		tail     string
		trailing bool
	}
	var prefixes []tail // the start of a magic number, then bytes that end it
	for _, m := range magics[f] {
		for n := 1; n < len(m); n++ {
			prefixes = append(prefixes,
				tail{fmt.Sprintf("%q then garbage", m[:n]), m[:n] + "garbage!", true},
				tail{fmt.Sprintf("%q then a byte", m[:n]), m[:n] + "\xff", true})
		}
	}
	return append(prefixes, []tail{
		{"one zero byte", zeros(1), false},
		{"three zero bytes", zeros(3), false},
		{"four zero bytes", zeros(4), false},
		{"512 zero bytes", zeros(512), false},
		{"zero bytes past the read buffer", zeros(200 << 10), false},
		{"one byte", "x", true},
		{"a newline", "\n", true},
		{"garbage", "trailing garbage\n", true},
		{"zero bytes then garbage", zeros(4) + "garbage", true},
		{"zero bytes past the read buffer then a byte", zeros(100<<10) + "x", true},
		{"garbage then zero bytes", "x" + zeros(10), true},
		{"another format's stream", otherMagic(f), true},
		{"a 0xff byte", "\xff", true},
	}...)
}

func TestTrailingData(t *testing.T) {
	want := readFixture(t, "short.txt")
	for _, fx := range fixtures {
		stream := readFixture(t, "short.txt."+fx.ext)
		for _, tc := range tails(fx.format) {
			for _, a := range adversaries {
				t.Run(fmt.Sprintf("%s/%s/%s", fx.ext, tc.name, a.name), func(t *testing.T) {
					input := append(append([]byte{}, stream...), tc.tail...)
					got, err, _ := decode(t, input, a.wrap)
					if !bytes.Equal(got, want) {
						t.Fatalf("decoded %d bytes, want the %d of short.txt", len(got), len(want))
					}
					if !tc.trailing {
						if err != nil {
							t.Fatalf("padding: %v", err)
						}
						return
					}
					checkTrailing(t, err, fx.format, len(stream))
				})
			}
		}
	}
}

// checkTrailing checks that err reports trailing data starting at offset.
func checkTrailing(t *testing.T, err error, f decompress.Format, offset int) {
	t.Helper()
	var de *decompress.Error
	if !errors.Is(err, decompress.ErrTrailingData) || !errors.As(err, &de) {
		t.Fatalf("error %v, want trailing data", err)
	}
	if de.Format != f || de.Offset != int64(offset) {
		t.Fatalf("%v: format %q offset %d, want %q at %d", err, de.Format, de.Offset, f, offset)
	}
	msg := fmt.Sprintf("%s: decompression OK, trailing data at compressed byte %d ignored", f, offset)
	if err.Error() != msg {
		t.Fatalf("message %q, want %q", err, msg)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("%v is also a truncation", err)
	}
}

// TestTrailingAfterStreams: trailing data after several streams (joined as
// cat joins them) comes after all of them, and zero padding between two
// streams ends the input as gzip ends it: what follows is trailing data,
// except xz's stream padding (zero bytes in a multiple of four), which the
// format defines.
func TestTrailingAfterStreams(t *testing.T) {
	short := readFixture(t, "short.txt")
	for _, fx := range fixtures {
		t.Run(fx.ext, func(t *testing.T) {
			stream := readFixture(t, "short.txt."+fx.ext)
			two := append(append([]byte{}, stream...), stream...)
			got, err, _ := decode(t, append(append([]byte{}, two...), "garbage"...), nil)
			if !bytes.Equal(got, append(append([]byte{}, short...), short...)) {
				t.Fatalf("decoded %d bytes, want short.txt twice", len(got))
			}
			checkTrailing(t, err, fx.format, len(two))

			for _, pad := range []int{1, 3, 4, 8} {
				input := append(append(append([]byte{}, stream...), make([]byte, pad)...), stream...)
				got, err, _ := decode(t, input, nil)
				if fx.format == decompress.Xz && pad%4 == 0 {
					if err != nil || !bytes.Equal(got, append(append([]byte{}, short...), short...)) {
						t.Fatalf("xz stream padding of %d: %v, %d bytes", pad, err, len(got))
					}
					continue
				}
				if !bytes.Equal(got, short) {
					t.Fatalf("%d zero bytes between two streams: %d bytes, want the first stream's", pad, len(got))
				}
				checkTrailing(t, err, fx.format, len(stream))
			}
		})
	}
}

// TestCutMagic: a complete stream followed by part of the magic number of
// another, then the end: the next stream is cut short (gzip says
// "unexpected end of file" too).
func TestCutMagic(t *testing.T) {
	want := readFixture(t, "short.txt")
	for _, fx := range fixtures {
		stream := readFixture(t, "short.txt."+fx.ext)
		for _, m := range magics[fx.format] {
			for n := 1; n < len(m); n++ {
				input := append(append([]byte{}, stream...), m[:n]...)
				got, err, _ := decode(t, input, nil)
				var de *decompress.Error
				if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &de) || de.Offset != int64(len(input)) {
					t.Fatalf("%s followed by %q: %v, want an unexpected end at %d", fx.ext, m[:n], err, len(input))
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s followed by %q: decoded %d bytes, want the %d of short.txt", fx.ext, m[:n], len(got), len(want))
				}
			}
		}
	}
}

// TestTruncatedLastStream cuts two streams joined at every byte of the
// second: the first is delivered whole, then a prefix of the second, then
// an unexpected end of data at the cut (no cut is taken for trailing data
// or for the end); cut at the join, the first stream alone is complete.
func TestTruncatedLastStream(t *testing.T) {
	short := readFixture(t, "short.txt")
	for _, fx := range fixtures {
		t.Run(fx.ext, func(t *testing.T) {
			stream := readFixture(t, "short.txt."+fx.ext)
			input := append(append([]byte{}, stream...), stream...)
			step := 1
			if testing.Short() {
				step = 7
			}
			for cut := len(stream); cut < len(input); cut += step {
				got, err, _ := decode(t, input[:cut], nil)
				if !bytes.HasPrefix(got, short) || !bytes.HasPrefix(short, got[len(short):]) {
					t.Fatalf("cut at %d: %d bytes decoded, want short.txt and a prefix of it", cut, len(got))
				}
				if cut == len(stream) {
					if err != nil || len(got) != len(short) {
						t.Fatalf("cut at the join: %v, %d bytes", err, len(got))
					}
					continue
				}
				var de *decompress.Error
				if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &de) || de.Offset != int64(cut) {
					t.Fatalf("cut at %d of %d: %v, want an unexpected end of data at %d", cut, len(input), err, cut)
				}
			}
		})
	}
}

// A skippable frame of 2 GiB or more at the start is skipped as one (its size is 64-bit
// on every target: on 386 and arm an int of it was negative, and its payload was read
// as frames): cut short here, it is a truncation, with nothing delivered.
func TestSkippableHugeSize(t *testing.T) {
	for _, size := range []uint32{0x7fffffff, 0x80000000, 0xfffffff0} {
		input := binary.LittleEndian.AppendUint32([]byte{0x50, 0x2a, 0x4d, 0x18}, size)
		input = append(input, 0x28, 0xb5, 0x2f, 0xfd, 0, 0, 1, 0, 0) // an empty zstd frame inside it
		got, err, _ := decode(t, input, nil)
		if len(got) != 0 || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("size %#x: %d bytes, %v; want none and a truncation", size, len(got), err)
		}
	}
}
