package pgzip_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/foreachio/foreach/internal/pgzip"
)

// damageOpts are the options the damage tests run with: chunks small enough
// that damage lands in the middle of many of them.
var damageOpts = []pgzip.Options{
	{Workers: 2, ChunkSize: 4 << 10},
	{Workers: 3, ChunkSize: 9 << 10},
}

// TestDamage changes bytes at random places of a member (its deflate
// stream, its header, its trailer): every byte the sequential read gives
// before the damage is given, and the same error.
func TestDamage(t *testing.T) {
	data := goSources(t, 128<<10)
	rng := rand.New(rand.NewPCG(40, 4))
	trials := 60
	if testing.Short() || underRace {
		trials = 15
	}
	for _, level := range []int{1, 6} {
		file := gz(t, data, level, 0)
		for range trials {
			f := append([]byte{}, file...)
			at := rng.IntN(len(f))
			if rng.IntN(4) == 0 {
				at = len(f) - 1 - rng.IntN(min(len(f), 300)) // the end: the last blocks, the trailer
			}
			for range 1 + rng.IntN(2) {
				f[at] ^= byte(1 + rng.IntN(255))
				at = min(len(f)-1, at+rng.IntN(64))
			}
			same(t, fmt.Sprintf("level %d, damage at %d", level, at), f, damageOpts...)
		}
	}
}

// TestTruncated cuts a member at random bytes: the bytes whose symbols are
// whole, then the sequential read's io.ErrUnexpectedEOF at the end of the
// file.
func TestTruncated(t *testing.T) {
	data := goSources(t, 128<<10)
	file := gz(t, data, 6, 0)
	rng := rand.New(rand.NewPCG(41, 4))
	cuts := []int{len(file) - 1, len(file) - 4, len(file) - 8, len(file) - 9, len(file) / 2}
	n := 40
	if testing.Short() || underRace {
		n = 15
	}
	for range n {
		cuts = append(cuts, 100+rng.IntN(len(file)-100))
	}
	for _, cut := range cuts {
		same(t, fmt.Sprintf("cut at %d of %d", cut, len(file)), file[:cut], damageOpts...)
	}
}

// TestTrailer: a wrong CRC or length is found after all the text.
func TestTrailer(t *testing.T) {
	data := goSources(t, 128<<10)
	file := gz(t, data, 6, 0)
	for _, at := range []int{8, 5, 4, 1} {
		f := append([]byte{}, file...)
		f[len(f)-at] ^= 0x40
		same(t, fmt.Sprintf("trailer byte %d", 8-at), f, damageOpts...)
	}
}

// TestHeaders: a member whose header is invalid (reserved flags, a
// header CRC that does not match) or carries the optional fields is read as
// decompress reads it.
func TestHeaders(t *testing.T) {
	data := goSources(t, 128<<10)
	file := gz(t, data, 6, 0)
	body := file[10:]
	withFields := append([]byte{0x1f, 0x8b, 8, 0x04 | 0x08 | 0x10, 0, 0, 0, 0, 0, 3, 5, 0, 'e', 'x', 't', 'r', 'a'}, "name\x00comment\x00"...)
	cases := map[string][]byte{
		"reserved flag": append([]byte{0x1f, 0x8b, 8, 0x20, 0, 0, 0, 0, 0, 3}, body...),
		"bad head CRC":  append([]byte{0x1f, 0x8b, 8, 0x02, 0, 0, 0, 0, 0, 3, 0, 0}, body...),
		"fields":        append(withFields, body...),
		"method 7":      append([]byte{0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 3}, body...),
	}
	for name, f := range cases {
		same(t, name, f, damageOpts...)
	}
}

// failingAt is a file whose reads fail from byte at on.
type failingAt struct {
	r  *bytes.Reader
	at int64
}

var errDisk = errors.New("the disk is on fire")

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) <= f.at {
		return f.r.ReadAt(p, off)
	}
	if off >= f.at {
		return 0, errDisk
	}
	n, _ := f.r.ReadAt(p[:f.at-off], off)
	return n, errDisk
}

// TestReadError: an error of the file is returned as it is, after text
// that is a prefix of the file's.
func TestReadError(t *testing.T) {
	data := goSources(t, 128<<10)
	file := gz(t, data, 6, 0)
	for _, at := range []int64{0, 5, 100, int64(len(file)) / 3, int64(len(file)) - 3} {
		for _, opt := range damageOpts {
			r := pgzip.NewReader(failingAt{bytes.NewReader(file), at}, int64(len(file)), opt)
			got, err := io.ReadAll(r)
			r.Close()
			if !errors.Is(err, errDisk) || !bytes.HasPrefix(data, got) {
				t.Fatalf("failing at %d, %+v: %d bytes (a prefix: %v), %v", at, opt, len(got), bytes.HasPrefix(data, got), err)
			}
		}
	}
}

// TestClose: Close in the middle of a file stops the workers (TestMain
// checks that none is left) and makes Read fail; closing twice is allowed.
func TestClose(t *testing.T) {
	data := goSources(t, 512<<10)
	file := gz(t, data, 6, 0)
	for _, after := range []int{0, 1, 50 << 10, 300 << 10} {
		r := pgzip.NewReader(bytes.NewReader(file), int64(len(file)), pgzip.Options{Workers: 3, ChunkSize: 8 << 10})
		if _, err := io.CopyN(io.Discard, r, int64(after)); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if _, err := r.Read(make([]byte, 10)); err == nil {
			t.Fatal("Read after Close succeeded")
		}
		r.Close()
	}
}
