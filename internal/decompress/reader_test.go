package decompress_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/decompress"
)

// The fixtures in testdata were made by the formats' own tools from
// testdata/lines.txt and from empty input (see testdata/README).
var fixtures = []struct {
	format decompress.Format
	ext    string
	magic  int // bytes Detect needs to recognise the fixture
}{
	{decompress.Gzip, "gz", 3},
	{decompress.Zstd, "zst", 4},
	{decompress.Bzip2, "bz2", 10},
	{decompress.Xz, "xz", 6},
	{decompress.Lz4, "lz4", 4},
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAll reads r to its end the way a caller does, and fails the test if r
// returns no bytes and no error 100 times in a row (a loop that would never
// end) or more than limit bytes.
func readAll(t testing.TB, r io.Reader, limit int) ([]byte, error) {
	t.Helper()
	var out []byte
	buf := make([]byte, 7<<10) // not a power of two, so that reads end mid-block
	empty := 0
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if len(out) > limit {
			t.Fatalf("read more than %d bytes", limit)
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		if n == 0 {
			if empty++; empty == 100 {
				t.Fatal("Read returned 0, nil 100 times in a row")
			}
		} else {
			empty = 0
		}
	}
}

// decode reads all of input through a Reader and checks what every input
// must satisfy: the Reader's Format is Detect's, CompressedBytes is the
// length of the input when Read ends, and an error is either nil or an
// *Error of the detected format.
func decode(t testing.TB, input []byte, wrap func(io.Reader) io.Reader) ([]byte, error, decompress.Format) {
	t.Helper()
	var src io.Reader = bytes.NewReader(input)
	if wrap != nil {
		src = wrap(src)
	}
	r := decompress.NewReader(src)
	defer r.Close()
	out, err := readAll(t, r, 1<<30)
	f := r.Format()
	if want := decompress.Detect(input); f != want {
		t.Fatalf("Format() = %q, Detect = %q", f, want)
	}
	if err == nil && r.CompressedBytes() != int64(len(input)) {
		t.Fatalf("CompressedBytes() = %d at the end of %d bytes", r.CompressedBytes(), len(input))
	}
	if err != nil {
		var de *decompress.Error
		if !errors.As(err, &de) {
			t.Fatalf("error %v (%T) is not a *decompress.Error", err, err)
		}
		if de.Format != f {
			t.Fatalf("Error.Format = %q, want %q", de.Format, f)
		}
		if de.Offset < 0 || de.Offset > int64(len(input)) {
			t.Fatalf("Error.Offset = %d outside the %d bytes of input", de.Offset, len(input))
		}
	}
	return out, err, f
}

// adversaries are the readers every fixture is also read through.
var adversaries = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", nil},
	{"one-byte", iotest.OneByteReader},
	{"half", iotest.HalfReader},
	{"data-with-EOF", iotest.DataErrReader},
}

func TestFixtures(t *testing.T) {
	want := readFixture(t, "lines.txt")
	for _, fx := range fixtures {
		for _, a := range adversaries {
			t.Run(fx.ext+"/"+a.name, func(t *testing.T) {
				got, err, f := decode(t, readFixture(t, "lines.txt."+fx.ext), a.wrap)
				if err != nil {
					t.Fatal(err)
				}
				if f != fx.format {
					t.Fatalf("format %q, want %q", f, fx.format)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("decoded %d bytes that differ from the %d of lines.txt", len(got), len(want))
				}
			})
		}
	}
}

func TestEmptyStreams(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.ext, func(t *testing.T) {
			got, err, f := decode(t, readFixture(t, "empty."+fx.ext), nil)
			if err != nil || len(got) != 0 || f != fx.format {
				t.Fatalf("got %q, %v, format %q; want nothing, no error, %q", got, err, f, fx.format)
			}
		})
	}
}

// TestConcatenated reads streams joined end to end, as cat a.gz b.gz makes
// them, with an empty stream between: one output, the contents joined.
func TestConcatenated(t *testing.T) {
	lines := readFixture(t, "lines.txt")
	want := append(append([]byte{}, lines...), lines...)
	for _, fx := range fixtures {
		t.Run(fx.ext, func(t *testing.T) {
			one := readFixture(t, "lines.txt."+fx.ext)
			empty := readFixture(t, "empty."+fx.ext)
			input := append(append(append([]byte{}, one...), empty...), one...)
			got, err, _ := decode(t, input, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("decoded %d bytes, want lines.txt twice (%d)", len(got), len(want))
			}
		})
	}
}

// TestXzPadding: stream padding (zero bytes in fours) may follow an xz
// stream, and xz -dc accepts it between and after streams.
func TestXzPadding(t *testing.T) {
	lines := readFixture(t, "lines.txt")
	one := readFixture(t, "lines.txt.xz")
	pad := make([]byte, 8)
	input := append(append(append(append([]byte{}, one...), pad...), one...), pad...)
	got, err, _ := decode(t, input, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append(append([]byte{}, lines...), lines...)) {
		t.Fatalf("decoded %d bytes, want lines.txt twice", len(got))
	}
}

// TestSkippableFrames: skippable frames (as pzstd writes them, and as lz4
// allows them), which the two formats share, are skipped before the first
// frame and between frames; the frame after them tells zstd from lz4.
func TestSkippableFrames(t *testing.T) {
	lines := readFixture(t, "lines.txt")
	skip := []byte{0x5e, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'a', 'b', 'c', 'd'}
	empty := []byte{0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0}
	for _, fx := range []struct {
		format decompress.Format
		ext    string
	}{{decompress.Zstd, "zst"}, {decompress.Lz4, "lz4"}} {
		one := readFixture(t, "lines.txt."+fx.ext)
		input := append(append(append(append(append([]byte{}, skip...), empty...), one...), skip...), one...)
		for _, a := range adversaries {
			got, err, f := decode(t, input, a.wrap)
			if err != nil || f != fx.format {
				t.Fatalf("%s %s: error %v, format %q", fx.ext, a.name, err, f)
			}
			if !bytes.Equal(got, append(append([]byte{}, lines...), lines...)) {
				t.Fatalf("%s %s: decoded %d bytes, want lines.txt twice", fx.ext, a.name, len(got))
			}
		}
	}
	// Skippable frames alone are an empty zstd input; cut inside one, a cut one.
	got, err, f := decode(t, append(append([]byte{}, skip...), empty...), nil)
	if err != nil || len(got) != 0 || f != decompress.Zstd {
		t.Fatalf("skippable frames alone: %q, %v, %q", got, err, f)
	}
	for n := 4; n < len(skip); n++ {
		_, err, _ := decode(t, skip[:n], nil)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("a skippable frame cut at %d: %v", n, err)
		}
	}
}

// TestTruncated cuts the short fixtures at every length, read whole and a
// byte at a time. A cut shorter than the magic number is plain input and
// comes back as it is; any other cut short of the whole gives a prefix of the
// original and then an *Error; the whole gives the original. (How much of
// the data before a cut comes out may depend on how src's reads are sized:
// the xz decoder needs a few bytes of input ahead of what it decodes.) (The short fixtures are made with the
// smallest bzip2 block and a 64 KiB xz dictionary, so that each of the
// thousands of decoders allocates little.)
func TestTruncated(t *testing.T) {
	want := readFixture(t, "short.txt")
	for _, fx := range fixtures {
		t.Run(fx.ext, func(t *testing.T) {
			input := readFixture(t, "short.txt."+fx.ext)
			step := 1
			if testing.Short() {
				step = 7
			}
			for i := 0; i < 2*len(input)+2; i += step {
				n, wrap := i/2, adversaries[0].wrap
				if i%2 == 1 {
					wrap = iotest.OneByteReader
				}
				got, err, f := decode(t, input[:n], wrap)
				switch {
				case n < fx.magic:
					if err != nil || f != decompress.None || !bytes.Equal(got, input[:n]) {
						t.Fatalf("cut at %d: got %q, %v, format %q; want the bytes as they are", n, got, err, f)
					}
				case n == len(input):
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("whole: %v, %d bytes", err, len(got))
					}
				default:
					if err == nil {
						t.Fatalf("cut at %d of %d: no error (%d bytes decoded)", n, len(input), len(got))
					}
					if !bytes.HasPrefix(want, got) {
						t.Fatalf("cut at %d: the %d bytes decoded are not a prefix of the original", n, len(got))
					}
					var de *decompress.Error
					errors.As(err, &de)
					if errors.Is(err, io.ErrUnexpectedEOF) && de.Offset != int64(n) {
						t.Fatalf("cut at %d: %v: offset %d, want the cut", n, err, de.Offset)
					}
				}
			}
		})
	}
}

// TestTruncatedErrorMessage pins the message and the error chain of a cut
// stream, in every format.
func TestTruncatedErrorMessage(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.ext, func(t *testing.T) {
			input := readFixture(t, "lines.txt."+fx.ext)
			n := len(input) - 100
			_, err, _ := decode(t, input[:n], nil)
			want := string(fx.format) + ": unexpected end of data at compressed byte " + itoa(n)
			if err == nil || err.Error() != want {
				t.Fatalf("error %v, want %q", err, want)
			}
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%v does not wrap io.ErrUnexpectedEOF", err)
			}
			var de *decompress.Error
			if !errors.As(err, &de) || de.Format != fx.format || de.Offset != int64(n) {
				t.Fatalf("errors.As: %#v", de)
			}
		})
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// TestCorrupt changes one byte at a time. Whatever is changed, the Reader
// does not panic or loop; when it reports no error the output is exactly
// the original (the byte was in a field no check covers, such as gzip's
// modification time), and otherwise the error is an *Error. A change to the
// magic number itself makes the input plain, passed on as it is.
func TestCorrupt(t *testing.T) {
	want := readFixture(t, "short.txt")
	for _, fx := range fixtures {
		t.Run(fx.ext, func(t *testing.T) {
			orig := readFixture(t, "short.txt."+fx.ext)
			step := 1
			if testing.Short() {
				step = 13
			}
			errs := 0
			for i := 0; i < len(orig); i += step {
				input := append([]byte{}, orig...)
				input[i] ^= 0x55
				got, err, f := decode(t, input, nil)
				switch {
				case f == decompress.None:
					if err != nil || !bytes.Equal(got, input) {
						t.Fatalf("byte %d: plain input not passed on: %v", i, err)
					}
				case err == nil:
					if !bytes.Equal(got, want) {
						t.Fatalf("byte %d: no error but %d bytes that differ from the original", i, len(got))
					}
				default:
					errs++
				}
			}
			if errs == 0 {
				t.Fatal("no change was reported as damage")
			}
		})
	}
}

func TestPlain(t *testing.T) {
	inputs := []string{
		"",
		"a",
		"\n",
		"\x1f",          // a prefix of gzip's magic, then the end
		"\x1f\x8b",      // still a prefix
		"\x1f\x8b\x00z", // gzip's magic with a method that is not deflate
		"\x28\xb5\x2f",  // a prefix of zstd's
		"\xfd7zXZ",      // a prefix of xz's
		"BZh9",          // a prefix of bzip2's
		"BZh91AY&S",     // one byte short of bzip2's
		"BZh9 is how a bzip2 file starts\n",
		"BZh0" + "1AY&SY",
		"\x04\x22\x4d",     // a prefix of lz4's
		"\x04\x22\x4d\x19", // one byte off
		"\x5e\x2a\x4d",     // a prefix of a skippable frame's
		"line one\nline two\n",
		strings.Repeat("plain text, no magic number\n", 5000),
	}
	for _, in := range inputs {
		for _, a := range adversaries {
			got, err, f := decode(t, []byte(in), a.wrap)
			if err != nil || f != decompress.None || string(got) != in {
				t.Fatalf("%s %.20q: got %.20q (%d bytes), %v, format %q", a.name, in, got, len(got), err, f)
			}
		}
	}
}

// TestPlainBinary passes every byte value through, including inputs that
// start with a magic number's first byte.
func TestPlainBinary(t *testing.T) {
	var in []byte
	for i := range 1 << 16 {
		in = append(in, byte(i*7+i>>8))
	}
	for _, first := range []byte{0x1f, 0x28, 0x50, 'B', 0xfd, 0x04, 0x02, 0} {
		in[0] = first
		got, err, _ := decode(t, in, iotest.HalfReader)
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("first byte %#x: %v, %d bytes", first, err, len(got))
		}
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		header string
		want   decompress.Format
	}{
		{"", ""},
		{"\x1f\x8b", ""},
		{"\x1f\x8b\x08", "gzip"},
		{"\x1f\x8b\x08\x00rest", "gzip"},
		{"\x1f\x8b\x09", ""},
		{"\x28\xb5\x2f\xfd", "zstd"},
		{"\x28\xb5\x2f\xfc", ""},
		{"\x50\x2a\x4d\x18", "zstd"},
		{"\x5f\x2a\x4d\x18", "zstd"},
		{"\x60\x2a\x4d\x18", ""},
		{"BZh11AY&SY", "bzip2"},
		{"BZh91AY&SYrest", "bzip2"},
		{"BZh9\x17\x72\x45\x38\x50\x90", "bzip2"},
		{"BZh01AY&SY", ""},
		{"BZh91AY&SZ", ""},
		{"BZh9", ""},
		{"\xfd7zXZ\x00", "xz"},
		{"\xfd7zXZ\x01", ""},
		{"\xfd7zXZ", ""},
		{"\x04\x22\x4d\x18", "lz4"},
		{"\x02\x21\x4c\x18", "lz4"},
		{"\x04\x22\x4d\x17", ""},
		// Skippable frames are zstd's and lz4's: the frame after them decides.
		{"\x50\x2a\x4d\x18\x02\x00\x00\x00ab\x04\x22\x4d\x18", "lz4"},
		{"\x50\x2a\x4d\x18\x00\x00\x00\x00\x5f\x2a\x4d\x18\x00\x00\x00\x00\x02\x21\x4c\x18", "lz4"},
		{"\x50\x2a\x4d\x18\x02\x00\x00\x00ab\x28\xb5\x2f\xfd", "zstd"},
		{"\x50\x2a\x4d\x18\x02\x00\x00\x00ab", "zstd"},
		{"\x50\x2a\x4d\x18\x09\x00\x00\x00ab\x04\x22\x4d\x18", "zstd"}, // the header ends inside the frame
		{"\x50\x2a\x4d\x18\x02\x00\x00\x00abplain", "zstd"},
		{"plain", ""},
	}
	for _, tt := range tests {
		if got := decompress.Detect([]byte(tt.header)); got != tt.want {
			t.Errorf("Detect(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

// readFunc is an io.Reader made of a function.
type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }

// TestNewReaderDoesNotRead: detection happens in the first Read, so that
// NewReader can be called on a pipe that has nothing yet.
func TestNewReaderDoesNotRead(t *testing.T) {
	src := readFunc(func([]byte) (int, error) {
		t.Fatal("src read before the first Read")
		return 0, nil
	})
	r := decompress.NewReader(src)
	if r.Format() != "" || r.CompressedBytes() != 0 {
		t.Fatalf("Format %q, CompressedBytes %d before any Read", r.Format(), r.CompressedBytes())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDetectionStopsEarly: a first byte that starts no magic number is
// passed on at once, without waiting for more bytes from src.
func TestDetectionStopsEarly(t *testing.T) {
	calls := 0
	src := readFunc(func(p []byte) (int, error) {
		calls++
		if calls > 1 {
			t.Fatal("src read a second time before the first byte was passed on")
		}
		p[0] = 'x'
		return 1, nil
	})
	r := decompress.NewReader(src)
	p := make([]byte, 16)
	n, err := r.Read(p)
	if n != 1 || err != nil || p[0] != 'x' {
		t.Fatalf("Read = %d, %v", n, err)
	}
}

// TestSourceError: an error of src, during detection or inside a stream, is
// returned as it is, after the bytes before it.
func TestSourceError(t *testing.T) {
	boom := errors.New("boom")
	want := readFixture(t, "lines.txt")
	for _, name := range []string{"lines.txt", "lines.txt.gz", "lines.txt.zst", "lines.txt.bz2", "lines.txt.xz", "lines.txt.lz4"} {
		input := readFixture(t, name)
		for _, cut := range []int{0, 2, len(input) / 2} {
			src := io.MultiReader(bytes.NewReader(input[:cut]), iotest.ErrReader(boom))
			r := decompress.NewReader(src)
			got, err := readAll(t, r, 1<<30)
			r.Close()
			if err != boom {
				t.Fatalf("%s cut at %d: error %v, want boom unwrapped", name, cut, err)
			}
			if name == "lines.txt" || cut < 10 {
				if !bytes.Equal(got, input[:cut]) && !(cut < 10 && len(got) == 0) {
					t.Fatalf("%s cut at %d: got %q", name, cut, got)
				}
			} else if !bytes.HasPrefix(want, got) {
				t.Fatalf("%s cut at %d: %d bytes that are not a prefix of the original", name, cut, len(got))
			}
		}
	}
}

// TestErrorsAreSticky: after an error, every Read returns it again and
// reads nothing.
func TestErrorsAreSticky(t *testing.T) {
	input := readFixture(t, "lines.txt.gz")
	r := decompress.NewReader(bytes.NewReader(input[:len(input)/2]))
	_, err := readAll(t, r, 1<<30)
	if err == nil {
		t.Fatal("no error")
	}
	for range 3 {
		if n, err2 := r.Read(make([]byte, 10)); n != 0 || err2 != err {
			t.Fatalf("Read after the error = %d, %v; want 0, %v", n, err2, err)
		}
	}
}

func TestClose(t *testing.T) {
	for _, name := range []string{"lines.txt", "lines.txt.zst", "lines.txt.gz"} {
		r := decompress.NewReader(bytes.NewReader(readFixture(t, name)))
		if _, err := r.Read(make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		if err := r.Close(); err != nil {
			t.Fatal("second Close:", err)
		}
		if n, err := r.Read(make([]byte, 100)); n != 0 || err == nil {
			t.Fatalf("%s: Read after Close = %d, %v", name, n, err)
		}
	}
}

func TestReadEmptySlice(t *testing.T) {
	r := decompress.NewReader(bytes.NewReader(readFixture(t, "lines.txt.gz")))
	if n, err := r.Read(nil); n != 0 || err != nil {
		t.Fatalf("Read(nil) = %d, %v", n, err)
	}
	got, err := readAll(t, r, 1<<30)
	if err != nil || !bytes.Equal(got, readFixture(t, "lines.txt")) {
		t.Fatalf("%v, %d bytes", err, len(got))
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		err  *decompress.Error
		want string
	}{
		{&decompress.Error{Format: "gzip", Offset: 1048576, Err: io.ErrUnexpectedEOF}, "gzip: unexpected end of data at compressed byte 1048576"},
		{&decompress.Error{Format: "gzip", Offset: 7, Err: errors.New("gzip: invalid checksum")}, "gzip: invalid checksum at compressed byte 7"},
		{&decompress.Error{Format: "zstd", Offset: 0, Err: errors.New("magic number mismatch")}, "zstd: magic number mismatch at compressed byte 0"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestLz4Legacy: lz4's legacy frames (lz4 -l, the Linux kernel's) are read,
// also two joined; a frame cut inside a block is cut short. The format has
// no end marker, so what follows a legacy frame is read as its next block:
// trailing data is damage there, as lz4 -d reports it, and a frame cut right
// after its magic number is an empty one, as lz4 -d reads it.
func TestLz4Legacy(t *testing.T) {
	want := readFixture(t, "short.txt")
	in := readFixture(t, "short.txt.legacy.lz4")
	for _, a := range adversaries {
		got, err, f := decode(t, append(append([]byte{}, in...), in...), a.wrap)
		if err != nil || f != decompress.Lz4 || !bytes.Equal(got, append(append([]byte{}, want...), want...)) {
			t.Fatalf("%s: two legacy frames: %v, format %q, %d bytes", a.name, err, f, len(got))
		}
	}
	// Each decoder allocates legacy blocks of 8 MiB: a sample of the cuts.
	for _, n := range []int{5, 7, 8, 9, 10, 100, 1000, len(in) - 2, len(in) - 1} {
		got, err, _ := decode(t, in[:n], nil)
		if !errors.Is(err, io.ErrUnexpectedEOF) || !bytes.HasPrefix(want, got) {
			t.Fatalf("cut at %d: %v, %d bytes", n, err, len(got))
		}
	}
	if got, err, _ := decode(t, in[:4], nil); err != nil || len(got) != 0 {
		t.Fatalf("the magic number alone: %v, %d bytes", err, len(got))
	}
	got, err, _ := decode(t, append(append([]byte{}, in...), "garbage!"...), nil)
	if err == nil || errors.Is(err, decompress.ErrTrailingData) || !bytes.Equal(got, want) {
		t.Fatalf("garbage after a legacy frame: %v, %d bytes", err, len(got))
	}
}
