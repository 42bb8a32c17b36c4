package inflate_test

import (
	"bytes"
	"compress/flate"
	"testing"

	kflate "github.com/klauspost/compress/flate"
)

// FuzzRoundTrip compresses data with compress/flate or klauspost's flate
// (whose encoders cut blocks differently) at a level, with flushes, and
// checks that the Decoder gives data back whole and through a one-byte
// reader, reports the blocks the reference decoder finds, and gives the
// rest of data from each of them.
//
//	go test -fuzz FuzzRoundTrip ./internal/inflate
func FuzzRoundTrip(f *testing.F) {
	for _, data := range samples(f) {
		if len(data) > 10000 {
			data = data[:10000]
		}
		f.Add(data, uint8(6), uint16(0))
		f.Add(data, uint8(0x80|1), uint16(5000))
		f.Add(data, uint8(0), uint16(300))
	}
	f.Fuzz(func(t *testing.T, data []byte, how uint8, flush uint16) {
		level := int(how&15)%12 - 2 // -2 (Huffman only) to 9
		var b bytes.Buffer
		var w interface {
			Write([]byte) (int, error)
			Flush() error
			Close() error
		}
		if how&0x80 != 0 {
			w, _ = kflate.NewWriter(&b, level)
		} else {
			w, _ = flate.NewWriter(&b, level)
		}
		for rest := data; len(rest) > 0; {
			n := len(rest)
			if flush > 0 {
				n = min(n, int(flush))
			}
			w.Write(rest[:n])
			rest = rest[n:]
			if flush > 0 {
				w.Flush()
			}
		}
		w.Close()
		stream := b.Bytes()
		for _, r := range readers[:2] {
			got, err := inflateAll(t, stream, r.wrap, 16)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%s: %v; %d bytes of %d, the first difference at %d", r.name, err, len(got), len(data), firstDiff(got, data))
			}
		}
		checkBlocks(t, stream, data)
	})
}

// FuzzRaw decodes any bytes as a deflate stream: the Decoder never panics
// or loops, and gives what the reference decoder gives (sameAsReference:
// the same bytes, an error when it finds one, as compress/flate does).
//
//	go test -fuzz FuzzRaw ./internal/inflate
func FuzzRaw(f *testing.F) {
	for _, data := range samples(f) {
		for _, level := range []int{0, 1, 6, flate.HuffmanOnly} {
			stream := deflate(f, data[:min(len(data), 3000)], level, 1000)
			f.Add(stream)
			if len(stream) > 10 {
				s := append([]byte{}, stream...)
				s[len(s)/2] ^= 0x10
				f.Add(s)
			}
		}
	}
	f.Add([]byte{0x07})
	f.Add([]byte{0x01, 0x05, 0x00, 0xfa, 0xff, 'h', 'e', 'l', 'l', 'o'})
	f.Add(fixedBlock([]fixedSym{{lit: 'a'}, {length: 3, dist: 1}}))
	f.Fuzz(func(t *testing.T, stream []byte) {
		if len(stream) > 8<<10 {
			// A stream can decode to 1000 times its length, which the
			// reference decoder keeps with an offset per byte.
			t.Skip("longer than 8 KiB")
		}
		sameAsReference(t, stream, nil)
		sameAsReference(t, stream, readers[1].wrap)
	})
}
