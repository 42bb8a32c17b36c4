package ztext_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/internal/testkit/zfixtures"
	"github.com/foreachio/foreach/internal/ztext"
	"github.com/foreachio/foreach/zindex"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// text is the tests' text: about size bytes of mixed lines.
func text(t testing.TB, size int64) []byte {
	t.Helper()
	b, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: size, Seed: 21})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tool runs a compression tool on input, skipping the test when the tool did not do
// its job (internal/testkit/tools).
func tool(t testing.TB, command string, input []byte) []byte {
	t.Helper()
	return tools.Run(t, command, input)
}

// zstdOf makes zstd frames of at most block bytes of b each, with or without their
// content sizes.
func zstdOf(t testing.TB, b []byte, block int, sized bool) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	for len(b) > 0 {
		n := min(block, len(b))
		frame := enc.EncodeAll(b[:n], nil)
		if !sized {
			fcs := [4]int{0, 2, 4, 8}[frame[4]>>6]
			frame = append(append([]byte(nil), frame[:6]...), frame[6+fcs:]...)
			frame[4] &^= 0xc0
		}
		out = append(out, frame...)
		b = b[n:]
	}
	return out
}

// sequential is what a sequential read of file gives: its text and its error (nil at
// its end).
func sequential(file []byte) ([]byte, error) {
	r := decompress.NewReader(bytes.NewReader(file))
	defer r.Close()
	return io.ReadAll(r)
}

// write writes file into dir as name, and returns the path.
func write(t testing.TB, dir, name string, file []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// compare checks a Text of file against a sequential read: At's bytes (with Trailing's
// error) and Stream's, bytes and error.
func compare(t *testing.T, what string, tx *ztext.Text, file []byte) {
	t.Helper()
	want, wantErr := sequential(file)
	if tx.At != nil {
		compareAt(t, what, tx, want, wantErr)
	}
	s := tx.Stream()
	defer s.Close()
	got, err := io.ReadAll(s)
	if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("%s: Stream gives %d bytes, %v; want %d, %v", what, len(got), err, len(want), wantErr)
	}
}

// compareAt checks At against a sequential read's text and error. Where the sequential
// read meets damage, At gives a prefix of the text (the pieces before the damaged one)
// and an error of the same format (whose offset is the piece's, not where a sequential
// decoder stopped inside it); otherwise the whole text, and Trailing the sequential
// read's error.
func compareAt(t *testing.T, what string, tx *ztext.Text, want []byte, wantErr error) {
	t.Helper()
	got := make([]byte, tx.Size)
	n, err := tx.At.ReadAt(got, 0)
	if wantErr != nil && !errors.Is(wantErr, decompress.ErrTrailingData) {
		var de, wantDe *decompress.Error
		if !errors.As(err, &de) || !errors.As(wantErr, &wantDe) || de.Format != wantDe.Format || n > len(want) || !bytes.Equal(got[:n], want[:n]) {
			t.Errorf("%s: At gives %d bytes (%v), want a prefix of %d and %v", what, n, err, len(want), wantErr)
		}
		return
	}
	if n != len(want) || (err != nil && err != io.EOF) || !bytes.Equal(got, want) {
		t.Errorf("%s: At gives %d bytes (%v), want %d", what, n, err, len(want))
	}
	if fmt.Sprint(tx.Trailing()) != fmt.Sprint(wantErr) {
		t.Errorf("%s: Trailing %v, want %v", what, tx.Trailing(), wantErr)
	}
}

// TestOpen opens every kind of file with 1 and 3 workers: each read the way it allows,
// and the same text as a sequential read, every way.
func TestOpen(t *testing.T) {
	data := text(t, 1<<20)
	dir := t.TempDir()
	plainGz := zfixtures.Gzip(data)
	indexed := write(t, dir, "indexed.gz", plainGz)
	ix, err := zindex.Build(bytes.NewReader(plainGz), 128<<10)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Save(indexed); err != nil {
		t.Fatal(err)
	}
	trailing := append(zfixtures.Gzip(data), "trailing data\n"...)
	trailingName := write(t, dir, "trailing.gz", trailing)
	tix, err := zindex.Build(bytes.NewReader(trailing), 128<<10)
	if err != nil {
		t.Fatal(err)
	}
	if err := tix.Save(trailingName); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		file []byte
		how  ztext.How
	}{
		{"plain.txt", data, ztext.Plain},
		{"indexed.gz", plainGz, ztext.Indexed},
		{"trailing.gz", trailing, ztext.Indexed},
		{"noindex.gz", plainGz, ztext.Streamed},
		{"bgzf.gz", zfixtures.BGZF(data, 65280), ztext.Structured},
		{"sized.zst", zstdOf(t, data, 100<<10, true), ztext.Structured},
		{"unsized.zst", zstdOf(t, data, 100<<10, false), ztext.Streamed},
		{"one.zst", zstdOf(t, data, 1<<30, true), ztext.Streamed},
		{"bgzf-trailing.gz", append(zfixtures.BGZF(data, 65280), 'x'), ztext.Streamed},
	}
	if _, ok := tools.Output(t, "xz -c -0", []byte("x")); ok {
		cases = append(cases,
			struct {
				name string
				file []byte
				how  ztext.How
			}{"blocks.xz", tool(t, "xz -c -0 -T2 --block-size=200KiB", data), ztext.Structured},
			struct {
				name string
				file []byte
				how  ztext.How
			}{"one.xz", tool(t, "xz -c -0", data), ztext.Streamed})
	}
	if _, ok := tools.Output(t, "bzip2 -c", []byte("x")); ok {
		cases = append(cases, struct {
			name string
			file []byte
			how  ztext.How
		}{"blocks.bz2", tool(t, "bzip2 -c -1", data), ztext.Streamed})
	}
	for _, c := range cases {
		name := filepath.Join(dir, c.name)
		if c.name != "indexed.gz" && c.name != "trailing.gz" {
			write(t, dir, c.name, c.file)
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			tx := ztext.Open(f, int64(len(c.file)), name, workers)
			if tx.How != c.how || tx.Ignored != nil {
				t.Errorf("%s: %s (%v), want %s", c.name, tx.How, tx.Ignored, c.how)
			}
			compare(t, fmt.Sprintf("%s, %d workers", c.name, workers), tx, c.file)
		}
		f.Close()
	}
}

// TestStaleIndex: an index that no longer matches its file is never used, and says why;
// one that is not an index neither.
func TestStaleIndex(t *testing.T) {
	data := text(t, 1<<20)
	dir := t.TempDir()
	gz := zfixtures.Gzip(data)
	name := write(t, dir, "f.gz", gz)
	ix, err := zindex.Build(bytes.NewReader(gz), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Save(name); err != nil {
		t.Fatal(err)
	}
	other := zfixtures.Gzip(append(bytes.Clone(data), "one more line\n"...))
	write(t, dir, "f.gz", other)
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tx := ztext.Open(f, int64(len(other)), name, 2)
	if tx.How != ztext.Streamed || !errors.Is(tx.Ignored, zindex.ErrStale) {
		t.Fatalf("a stale index: %s, %v", tx.How, tx.Ignored)
	}
	compare(t, "stale", tx, other)
	write(t, dir, "f.gz.zidx", []byte("not an index"))
	if tx := ztext.Open(f, int64(len(other)), name, 2); tx.How != ztext.Streamed || !errors.Is(tx.Ignored, zindex.ErrCorrupt) {
		t.Fatalf("a damaged index: %s, %v", tx.How, tx.Ignored)
	}
}

// TestDamage: damage is reported by a Stream as a sequential read reports it, every
// byte before it given, however the text is read (the structure's pieces: blockz reads
// the stream again sequentially); through a fresh index over a file changed in the middle
// since (its modification time put back, else the index is stale), as a sequential read
// reports it.
func TestDamage(t *testing.T) {
	data := text(t, 2<<20)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		file []byte
	}{{"bgzf.gz", zfixtures.BGZF(data, 65280)}, {"sized.zst", zstdOf(t, data, 200<<10, true)}, {"unsized.zst", zstdOf(t, data, 200<<10, false)}} {
		bad := bytes.Clone(c.file)
		bad[len(bad)/2] ^= 0x40
		name := write(t, dir, c.name, bad)
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, c.name+" damaged", ztext.Open(f, int64(len(bad)), name, 2), bad)
		f.Close()
	}
	gz := zfixtures.Gzip(data)
	name := write(t, dir, "changed.gz", gz)
	ix, err := zindex.Build(bytes.NewReader(gz), 256<<10)
	if err != nil {
		t.Fatal(err)
	}
	ix.Save(name)
	bad := bytes.Clone(gz)
	// Outside the first and last 64 KiB, so that Check cannot see it; a run of ones
	// (Huffman codes longer than any the block defines) that no decoder takes for data.
	copy(bad[len(bad)/2:], bytes.Repeat([]byte{0xff}, 4096))
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "changed.gz", bad)
	if err := os.Chtimes(name, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	_, want := io.ReadAll(decompress.NewReader(bytes.NewReader(bad)))
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tx := ztext.Open(f, int64(len(bad)), name, 2)
	s := tx.Stream()
	defer s.Close()
	got, err := io.ReadAll(s)
	if tx.How != ztext.Indexed || err == nil || want == nil || err.Error() != want.Error() || len(got) == 0 || !bytes.Equal(got[:len(got)/2], data[:len(got)/2]) {
		t.Fatalf("a file changed in the middle: %s, %d bytes, %v", tx.How, len(got), err)
	}
}
