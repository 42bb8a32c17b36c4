package decompress_test

import (
	"bytes"
	"errors"
	"fmt"
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

// fuzzSeeds are the fixtures the fuzz targets start from.
var fuzzSeeds = []string{"short.txt.gz", "short.txt.zst", "short.txt.bz2", "short.txt.xz", "short.txt.lz4", "short.txt.legacy.lz4", "empty.gz", "empty.zst", "empty.bz2", "empty.xz", "empty.lz4"}

// FuzzReader feeds arbitrary bytes, seeded with the fixtures and cuts and
// corruptions of them, to a Reader. Detection and every decoder's error
// path must not panic or loop; the format reported is Detect's; plain
// input comes back byte for byte; an error is an *Error of the format
// detected; trailing data at an offset means the input up to there reads
// to the same bytes without error; and reading one byte at a time from src
// gives the same bytes and the same error.
func FuzzReader(f *testing.F) {
	for _, name := range append([]string{"short.txt"}, fuzzSeeds...) {
		b := readFixture(f, name)
		f.Add(b)
		f.Add(b[:len(b)/2])
		f.Add(append(append([]byte{}, b...), "garbage"...))
		f.Add(append(append([]byte{}, b...), 0, 0, 0))
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
			if errors.Is(err, decompress.ErrTrailingData) {
				checkBefore(t, data, de.Offset, out)
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

// checkBefore checks that data up to offset, where trailing data was
// reported, reads to out with no error: the streams before the trailing
// data were complete and delivered whole.
func checkBefore(t *testing.T, data []byte, offset int64, out []byte) {
	t.Helper()
	if offset <= 0 || offset >= int64(len(data)) || len(out) >= fuzzLimit {
		t.Fatalf("trailing data at %d of %d bytes", offset, len(data))
	}
	r := decompress.NewReader(bytes.NewReader(data[:offset]))
	defer r.Close()
	before, err := drain(t, r)
	if err != nil || !bytes.Equal(before, out) {
		t.Fatalf("trailing data at %d: the input before it gives %d bytes and %v, not the %d delivered", offset, len(before), err, len(out))
	}
}

// FuzzTrailing puts arbitrary bytes after a complete stream of each format.
// The stream is always delivered whole; zero bytes alone are padding; an
// error other than a cut stream (the tail may start another stream) is
// trailing data at or after the stream's end, with the input before it
// complete; and one byte at a time from src gives the same.
func FuzzTrailing(f *testing.F) {
	f.Add(uint8(0), []byte("garbage"))
	f.Add(uint8(1), []byte{0, 0, 0})
	f.Add(uint8(2), []byte("BZh9"))
	f.Add(uint8(3), []byte{0, 0, 0, 0, 0xfd, '7', 'z', 'X', 'Z', 0})
	f.Add(uint8(4), []byte{0x50, 0x2a, 0x4d, 0x18, 1, 0, 0, 0, 'x', 'y'})
	want := readFixture(f, "short.txt")
	var streams [][]byte
	for _, name := range fuzzSeeds[:5] { // not the legacy lz4 frame, which has no end (see TestLz4Legacy)
		streams = append(streams, readFixture(f, name))
	}
	f.Fuzz(func(t *testing.T, which uint8, tail []byte) {
		stream := streams[int(which)%len(streams)]
		data := append(append([]byte{}, stream...), tail...)
		r := decompress.NewReader(bytes.NewReader(data))
		defer r.Close()
		out, err := drain(t, r)
		if !bytes.HasPrefix(out, want) {
			t.Fatalf("%d bytes out, not the whole stream first (%v)", len(out), err)
		}
		var de *decompress.Error
		switch {
		case err == nil:
		case !errors.As(err, &de):
			t.Fatalf("error %v (%T) is not an *Error", err, err)
		case errors.Is(err, decompress.ErrTrailingData):
			if de.Offset < int64(len(stream)) {
				t.Fatalf("trailing data at %d, inside the stream of %d bytes", de.Offset, len(stream))
			}
			checkBefore(t, data, de.Offset, out)
		}
		if len(tail) > 0 && bytes.Count(tail, []byte{0}) == len(tail) && (err != nil || len(out) != len(want)) {
			t.Fatalf("zero padding of %d bytes: %v, %d bytes", len(tail), err, len(out))
		}
		r1 := decompress.NewReader(iotest.OneByteReader(bytes.NewReader(data)))
		defer r1.Close()
		out1, err1 := drain(t, r1)
		if !bytes.Equal(out, out1) || fmt.Sprint(err) != fmt.Sprint(err1) {
			t.Fatalf("one byte at a time: %d bytes, %v; at once: %d bytes, %v", len(out1), err1, len(out), err)
		}
	})
}

// FuzzBzip2 feeds arbitrary bytes, seeded with bzip2 files and damaged and cut
// copies of them, to the bzip2 reader, and compares it with the standard
// library's compress/bzip2, which it replaced: when the standard library reads
// the input whole, the Reader gives the same bytes without error; when the Reader
// reads it without error, the standard library gives a prefix of its bytes (it
// refuses randomised blocks and zero padding); when both fail, one's bytes are a
// prefix of the other's (the standard library gives a damaged block's bytes up to
// its check, the Reader none of them). One byte at a time from src gives the same
// bytes and the same error, offset included.
func FuzzBzip2(f *testing.F) {
	for _, b := range bzip2Fixtures(f) {
		if len(b) > 64<<10 {
			continue // the suite's samples: the fuzzer mutates small inputs better
		}
		f.Add(b)
		f.Add(b[:len(b)*2/3])
		if len(b) > 40 {
			c := bytes.Clone(b)
			c[len(b)/2] ^= 0x10
			f.Add(c)
		}
		if len(b) < 16<<10 {
			f.Add(append(bytes.Clone(b), b...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if decompress.Detect(data) != decompress.Bzip2 {
			return // FuzzReader covers the rest
		}
		r := decompress.NewReader(bytes.NewReader(data))
		defer r.Close()
		out, err := drain(t, r)
		if err != nil {
			var de *decompress.Error
			if !errors.As(err, &de) || de.Format != decompress.Bzip2 || de.Offset < 0 || de.Offset > int64(len(data)) {
				t.Fatalf("error %v (%T) is not an *Error of bzip2 within the input", err, err)
			}
		}
		std, stdErr := stdBzip2(data)
		switch {
		case len(out) >= fuzzLimit || len(std) >= fuzzLimit:
		case stdErr == nil && (err != nil || !bytes.Equal(out, std)):
			t.Fatalf("the standard library reads %d bytes; the Reader %d, %v", len(std), len(out), err)
		case err == nil && !bytes.HasPrefix(out, std):
			t.Fatalf("the Reader reads %d bytes; the standard library %d that are not their start (%v)", len(out), len(std), stdErr)
		case !bytes.HasPrefix(out, std) && !bytes.HasPrefix(std, out):
			t.Fatalf("the Reader gives %d bytes (%v), the standard library %d (%v): neither starts the other", len(out), err, len(std), stdErr)
		}
		r1 := decompress.NewReader(iotest.OneByteReader(bytes.NewReader(data)))
		defer r1.Close()
		out1, err1 := drain(t, r1)
		if !bytes.Equal(out, out1) || fmt.Sprint(err) != fmt.Sprint(err1) {
			t.Fatalf("one byte at a time: %d bytes, %v; at once: %d bytes, %v", len(out1), err1, len(out), err)
		}
	})
}
