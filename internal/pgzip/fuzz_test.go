package pgzip_test

import (
	"bytes"
	"compress/gzip"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"

	"github.com/foreachio/foreach/internal/pgzip"
)

// FuzzReader reads gzip files made from the fuzzer's bytes, in chunks of a
// few hundred bytes so that even small files are split, with 2 or 3
// workers: compressed by
// compress/gzip or klauspost's gzip at a level, with flushes, then perhaps
// damaged at one byte, or cut, or the bytes taken as a file as they are.
// The parallel Reader gives exactly what decompress.NewReader gives.
//
//	go test -fuzz FuzzReader -fuzzminimizetime 3s ./internal/pgzip
//
// (A new input is minimized for a minute by default, its runs not counted:
// the fuzzer then looks stuck.)
func FuzzReader(f *testing.F) {
	text := goSources(f, 64<<10)
	f.Add(text[:20000], uint8(6), uint16(0), uint16(0), uint8(0), uint16(300))
	f.Add(text[:30000], uint8(0x80|1), uint16(4000), uint16(0), uint8(0), uint16(200))
	f.Add(text[:30000], uint8(9), uint16(0), uint16(12345), uint8(0x40), uint16(500))
	f.Add(text[:30000], uint8(0x40|6), uint16(0), uint16(9000), uint8(0), uint16(700))
	f.Add(text[:5000], uint8(0x20), uint16(0), uint16(0), uint8(0), uint16(64))
	f.Fuzz(func(t *testing.T, data []byte, how uint8, flush, at uint16, xor uint8, chunk uint16) {
		if len(data) > 32<<10 {
			data = data[:32<<10] // a minimizing fuzzer runs an input thousands of times
		}
		var file []byte
		if how&0x20 != 0 {
			file = data // the bytes as a file
		} else {
			file = compress(data, how, int(flush))
			switch {
			case how&0x40 != 0 && len(file) > 0: // cut
				file = file[:int(at)%len(file)]
			case xor != 0 && len(file) > 0: // damaged
				file = append([]byte(nil), file...)
				file[int(at)%len(file)] ^= xor
			}
		}
		size := 64 + int64(chunk)%2000
		same(t, "fuzz", file, pgzip.Options{Workers: 2 + int(chunk>>15), ChunkSize: size})
	})
}

// compress makes a gzip file of data: how's low bits are the level (minus
// 2: Huffman only to 9), bit 7 chooses klauspost's compressor; flush > 0
// flushes every flush bytes.
func compress(data []byte, how uint8, flush int) []byte {
	level := int(how&15)%12 - 2
	var b bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
		Flush() error
		Close() error
	}
	if how&0x80 != 0 {
		w, _ = kgzip.NewWriterLevel(&b, level)
	} else {
		w, _ = gzip.NewWriterLevel(&b, level)
	}
	for rest := data; len(rest) > 0; {
		n := len(rest)
		if flush > 0 {
			n = min(n, flush)
		}
		w.Write(rest[:n])
		rest = rest[n:]
		if flush > 0 {
			w.Flush()
		}
	}
	w.Close()
	return b.Bytes()
}
