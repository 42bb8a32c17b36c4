package decompress_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/foreachio/foreach/internal/decompress"
)

type input struct {
	name string
	data []byte
}

// readRest reads input[base:] through NewReaderAfter, through each adversary.
func readRest(t *testing.T, input []byte, f decompress.Format, base int, wrap func(io.Reader) io.Reader) ([]byte, error, int64) {
	t.Helper()
	var src io.Reader = bytes.NewReader(input[base:])
	if wrap != nil {
		src = wrap(src)
	}
	r := decompress.NewReaderAfter(src, f, int64(base))
	defer r.Close()
	out, err := readAll(t, r, 1<<30)
	if r.Format() != f {
		t.Fatalf("Format() = %q, want %q", r.Format(), f)
	}
	return out, err, r.CompressedBytes()
}

// sameError fails the test unless got and want are both nil or read the
// same, with the same format and offset.
func sameError(t *testing.T, got, want error) {
	t.Helper()
	if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
		t.Fatalf("error %v, want %v", got, want)
	}
}

// TestReaderAfterContinues: reading the streams before a boundary one way
// and the rest with NewReaderAfter gives what one Reader gives, bytes and
// error (offsets included), for two streams of every format followed by
// every tail of trailing_test.go, whole and cut at every byte of the second
// stream.
func TestReaderAfterContinues(t *testing.T) {
	for _, fx := range fixtures {
		stream := readFixture(t, "short.txt."+fx.ext)
		first, err, _ := decode(t, stream, nil)
		if err != nil {
			t.Fatal(err)
		}
		two := append(append([]byte(nil), stream...), stream...)
		var inputs []input
		for _, tc := range tails(fx.format) {
			inputs = append(inputs, input{tc.name, append(two[:2*len(stream):2*len(stream)], tc.tail...)})
		}
		tailed := len(inputs) // the inputs after these are read whole alone but one in 7
		for k := len(stream) + 1; k < len(two); k++ {
			inputs = append(inputs, input{fmt.Sprintf("cut at %d", k), two[:k]})
		}
		for i, in := range inputs {
			whole, wantErr, _ := decode(t, in.data, nil)
			for j, adv := range adversaries {
				if j > 0 && i >= tailed && i%7 != 0 {
					continue
				}
				t.Run(fx.ext+"/"+in.name+"/"+adv.name, func(t *testing.T) {
					rest, err, n := readRest(t, in.data, fx.format, len(stream), adv.wrap)
					if got := append(append([]byte(nil), first...), rest...); !bytes.Equal(got, whole) {
						t.Fatalf("%d bytes, want %d", len(got), len(whole))
					}
					sameError(t, err, wantErr)
					if err == nil && n != int64(len(in.data)) {
						t.Fatalf("CompressedBytes() = %d at the end of %d bytes", n, len(in.data))
					}
				})
			}
		}
	}
}

// TestReaderAfterAtStart: from offset 0, NewReaderAfter reads an input that
// starts with a stream as NewReader does; an input that does not is
// trailing data at 0, and an empty one ends cleanly.
func TestReaderAfterAtStart(t *testing.T) {
	for _, fx := range fixtures {
		stream := readFixture(t, "short.txt."+fx.ext)
		for _, input := range [][]byte{stream, append(append([]byte(nil), stream...), stream...), stream[:len(stream)-1]} {
			want, wantErr, _ := decode(t, input, nil)
			got, err, _ := readRest(t, input, fx.format, 0, nil)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: %d bytes, want %d", fx.ext, len(got), len(want))
			}
			sameError(t, err, wantErr)
		}
		_, err, _ := readRest(t, []byte("plain text\n"), fx.format, 0, nil)
		checkTrailing(t, err, fx.format, 0)
		if got, err, _ := readRest(t, nil, fx.format, 0, nil); len(got) != 0 || err != nil {
			t.Fatalf("%s: empty input gave %d bytes and %v", fx.ext, len(got), err)
		}
	}
}
