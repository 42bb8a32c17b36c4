package blockz_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/foreachio/foreach/internal/blockz"
	"github.com/foreachio/foreach/internal/decompress"
)

// sequential reads data as decompress.NewReader does: the reference every
// parallel read is compared with.
func sequential(t testing.TB, data []byte) ([]byte, error) {
	t.Helper()
	r := decompress.NewReader(bytes.NewReader(data))
	defer r.Close()
	return readAll(t, r)
}

// readAll reads r to its end in reads of odd sizes, and fails the test on
// a Read that returns nothing and no error 100 times in a row.
func readAll(t testing.TB, r io.Reader) ([]byte, error) {
	t.Helper()
	var out []byte
	buf := make([]byte, 50<<10+13)
	empty := 0
	for {
		n, err := r.Read(buf[:1+len(out)%len(buf)])
		out = append(out, buf[:n]...)
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

// configs are the Options every differential test reads with: one worker,
// two, more workers than cores with a small window, and jobs held in
// chunks (JobMemory below a piece's size).
var configs = []blockz.Options{
	{Workers: 1},
	{Workers: 2},
	{Workers: 4, Window: 2},
	{Workers: 3, Window: 7, JobMemory: 100 << 10},
}

// parallel reads data with a Reader; ok is false for ErrNoStructure. A
// clean file (no damage) must be read without a stream read again.
func parallel(t testing.TB, name string, data []byte, opt blockz.Options) (out []byte, err error, ok bool) {
	t.Helper()
	r, err := blockz.NewReader(bytes.NewReader(data), int64(len(data)), opt)
	if errors.Is(err, blockz.ErrNoStructure) {
		return nil, nil, false
	}
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	defer r.Close()
	out, err = readAll(t, r)
	if cleanVariant(name) && blockz.Replays(r) > 0 {
		t.Fatalf("%s %+v: a file without damage had %d streams read again", name, opt, blockz.Replays(r))
	}
	return out, err, true
}

// same fails the test unless a parallel read of data gives what a
// sequential one gives, bytes and error, with every config. It reports
// whether the file had pieces to read in parallel.
func same(t *testing.T, name string, data []byte) bool {
	t.Helper()
	want, wantErr := sequential(t, data)
	structured := false
	opts := configs
	if !cleanVariant(name) || raceEnabled {
		// Two workers, and jobs in chunks with a small window.
		opts = []blockz.Options{configs[1], configs[3]}
	}
	for _, opt := range opts {
		got, err, ok := parallel(t, name, data, opt)
		if !ok {
			continue
		}
		structured = true
		if !bytes.Equal(got, want) {
			t.Fatalf("%s %+v: %d bytes, want %d (first difference at %d)", name, opt, len(got), len(want), firstDiff(got, want))
		}
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s %+v: error %v, want %v", name, opt, err, wantErr)
		}
		if err != nil && !sameKind(err, wantErr) {
			t.Fatalf("%s %+v: error %v is not of the kind of %v", name, opt, err, wantErr)
		}
	}
	return structured
}

// sameKind reports whether two errors wrap the same sentinels.
func sameKind(a, b error) bool {
	for _, e := range []error{io.ErrUnexpectedEOF, decompress.ErrTrailingData} {
		if errors.Is(a, e) != errors.Is(b, e) {
			return false
		}
	}
	var da, db *decompress.Error
	return errors.As(a, &da) == errors.As(b, &db)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// cleanVariant reports whether the file of a test's name (as same is given
// it) is one of damaged's variants without damage.
func cleanVariant(name string) bool {
	if strings.HasPrefix(name, "damaged") {
		return false
	}
	for _, v := range []string{"/whole", "/twice", "/zero padding", "/trailing data"} {
		if strings.HasSuffix(name, v) {
			return true
		}
	}
	return !strings.Contains(name, "/")
}

// damaged returns variants of a compressed file: cut at n random places,
// with n random bytes changed, with n single bits flipped, with trailing
// data, zero padding, and a copy of itself after it.
func damaged(data []byte, n int, seed uint64) map[string][]byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	if raceEnabled {
		n = 1
	}
	out := map[string][]byte{
		"whole":           data,
		"trailing data":   append(bytes.Clone(data), "trailing\n"...),
		"zero padding":    append(bytes.Clone(data), make([]byte, 1000)...),
		"twice":           append(bytes.Clone(data), data...),
		"cut by one byte": data[:len(data)-1],
	}
	for range n {
		k := rng.IntN(len(data))
		out[fmt.Sprintf("cut at %d", k)] = data[:k]
		b := bytes.Clone(data)
		b[k] = byte(rng.Uint32())
		out[fmt.Sprintf("byte %d changed", k)] = b
		b = bytes.Clone(data)
		b[k] ^= 1 << rng.IntN(8)
		out[fmt.Sprintf("bit flipped at %d", k)] = b
	}
	return out
}

// TestCloseStopsWorkers: Close in the middle of a file, with the window
// full and workers waiting on it, leaves no goroutine behind; Read after
// Close fails.
func TestCloseStopsWorkers(t *testing.T) {
	defer goleak.VerifyNone(t)
	data := text(t, 2<<20, 18)
	file := bgzf(t, data, 65280, true)
	for _, opt := range []blockz.Options{{Workers: 1}, {Workers: 4, Window: 2}, {Workers: 3, JobMemory: 100 << 10}} {
		r, err := blockz.NewReader(bytes.NewReader(file), int64(len(file)), opt)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1000)
		if _, err := io.ReadFull(r, buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf, data[:1000]) {
			t.Fatal("the first bytes differ")
		}
		r.Close()
		r.Close()
		if _, err := r.Read(buf); err == nil {
			t.Fatal("Read after Close succeeded")
		}
	}
	// A Reader never read from.
	r, err := blockz.NewReader(bytes.NewReader(file), int64(len(file)), blockz.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
}
