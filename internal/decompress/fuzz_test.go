package decompress_test

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/decompress"
)

// fuzzLimit is where FuzzReader stops reading: a few bytes of zstd or
// bzip2 can stand for many megabytes, and a bomb is not a failure.
const fuzzLimit = 16 << 20

// drain reads r to its end or to fuzzLimit bytes, failing on a Read that
// returns no bytes and no error 100 times in a row.
func drain(t *testing.T, r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 5<<10)
	for empty := 0; len(out) < fuzzLimit; {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if n > 0 {
			empty = 0
		} else if empty++; empty == 100 {
			t.Fatal("Read returned 0, nil 100 times in a row")
		}
	}
	return out, nil
}

// FuzzReader feeds arbitrary bytes, seeded with the fixtures and cuts and
// corruptions of them, to a Reader. Detection and every decoder's error
// path must not panic or loop; the format reported is Detect's; plain
// input comes back byte for byte; an error is an *Error of the format
// detected; and reading one byte at a time from src gives the same bytes
// and the same error.
func FuzzReader(f *testing.F) {
	for _, name := range []string{"short.txt", "short.txt.gz", "short.txt.zst", "short.txt.bz2", "short.txt.xz", "empty.gz", "empty.zst", "empty.bz2", "empty.xz"} {
		b := readFixture(f, name)
		f.Add(b)
		f.Add(b[:len(b)/2])
		if len(b) > 40 {
			c := append([]byte{}, b...)
			c[30] ^= 0xff
			f.Add(c)
		}
	}
	f.Add([]byte("BZh91AY&SY"))
	f.Add([]byte("\x1f\x8b\x08"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := decompress.NewReader(bytes.NewReader(data))
		defer r.Close()
		out, err := drain(t, r)
		format := decompress.Detect(data)
		if r.Format() != format {
			t.Fatalf("Format() = %q, Detect = %q", r.Format(), format)
		}
		if format == decompress.None {
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("plain input: %v, %d bytes of %d back", err, len(out), len(data))
			}
			return
		}
		if err != nil {
			var de *decompress.Error
			if !errors.As(err, &de) || de.Format != format {
				t.Fatalf("error %v (%T) is not an *Error of %s", err, err, format)
			}
		}
		r1 := decompress.NewReader(iotest.OneByteReader(bytes.NewReader(data)))
		defer r1.Close()
		out1, err1 := drain(t, r1)
		if !bytes.Equal(out, out1) || (err == nil) != (err1 == nil) {
			t.Fatalf("one byte at a time: %d bytes, %v; at once: %d bytes, %v", len(out1), err1, len(out), err)
		}
	})
}
