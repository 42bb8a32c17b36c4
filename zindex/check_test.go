package zindex_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/zindex"
)

// changeText is a gzip file of 320 KiB of lines of random letters (about
// 200 KB compressed: text that deflate's Huffman codes shrink and its
// matches hardly do) in two members: a byte changed at least 64 KiB from
// either end keeps the file's size and both digests, which Load checks.
func changeText(t testing.TB) (gz, text []byte) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	for len(text) < 320<<10 {
		for range rng.IntN(120) {
			text = append(text, byte('a'+rng.IntN(26)))
		}
		text = append(text, '\n')
	}
	return concat(gzipOf(text[:len(text)/3]), gzipOf(text[len(text)/3:])), text
}

// readWhole reads ra[0:size) in order, in reads of 64 KiB, as a section
// reader does: the text up to the first error, and the error.
func readWhole(ra io.ReaderAt, size int64) ([]byte, error) {
	var out []byte
	buf := make([]byte, 64<<10)
	for off := int64(0); off < size; {
		n, err := ra.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		out = append(out, buf[:n]...)
		off += int64(n)
		if err != nil && (err != io.EOF || off < size) {
			return out, err
		}
	}
	return out, nil
}

// TestChangedByte changes one byte of the file in its middle (issue 47,
// item 8: the size and the first and last 64 KiB the same, so the index
// still matches the file as Load sees it) at 40 places (10 under -race),
// with a point every 32 KiB of text: through the index,
// the text read in order, the records counted in parallel sections and
// the text read backwards from the end are either exactly those of a
// sequential read of the changed file, when it has no error, or an error,
// the sequential read's (a *decompress.Error of the same damage or the same
// checksum, after the same text), never other text without one.
func TestChangedByte(t *testing.T) {
	gz, text := changeText(t)
	ix, err := zindex.Build(bytes.NewReader(gz), 32<<10)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readWhole(ix.ReaderAt(bytes.NewReader(gz)), ix.Size()); err != nil || !bytes.Equal(got, text) {
		t.Fatalf("the file as indexed: %d bytes, %v", len(got), err)
	}
	rng := rand.New(rand.NewPCG(47, 8))
	errorsSeen, changes := 0, 40
	if raceEnabled {
		changes = 10
	}
	for range changes {
		changed := bytes.Clone(gz)
		at := 64<<10 + rng.IntN(len(gz)-128<<10)
		changed[at] ^= byte(1 << rng.IntN(8))
		if err := ix.CheckAt(bytes.NewReader(changed), int64(len(changed))); err != nil {
			t.Fatalf("CheckAt of a file changed at %d: %v", at, err)
		}
		want, wantErr := io.ReadAll(decompress.NewReader(bytes.NewReader(changed)))
		ra := ix.ReaderAt(bytes.NewReader(changed))
		got, err := readWhole(ra, ix.Size())
		if wantErr == nil {
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("byte %d changed: a sequential read gives %d bytes and no error; through the index %d bytes, %v", at, len(want), len(got), err)
			}
			continue
		}
		errorsSeen++
		if !sameDamage(err, wantErr) || !bytes.HasPrefix(want, got) {
			t.Fatalf("byte %d changed: through the index %d bytes, %v; sequentially %d bytes, %v", at, len(got), err, len(want), wantErr)
		}
		fresh := ix.ReaderAt(bytes.NewReader(changed))
		if n, err := linereader.CountAt(fresh, ix.Size(), linereader.Options{}, 3); !sameDamage(err, wantErr) {
			t.Fatalf("byte %d changed: counted %d records through the index, %v; sequentially %v", at, n, err, wantErr)
		}
		fresh = ix.ReaderAt(bytes.NewReader(changed))
		back := linereader.NewBackward(fresh, ix.Size(), linereader.Options{})
		for range back.Views() {
		}
		if !sameDamage(back.Err(), wantErr) && !errors.Is(back.Err(), zindex.ErrStale) {
			t.Fatalf("byte %d changed: read backwards through the index: %v; sequentially %v", at, back.Err(), wantErr)
		}
	}
	if errorsSeen < changes*3/4 {
		t.Fatalf("only %d of %d changes were errors of a sequential read", errorsSeen, changes)
	}
}

// sameDamage reports whether err, through an index, is the damage a
// sequential read ended with (want): a *decompress.Error of the same format
// and the same fault (the same checksum error, or corrupt data for the
// same reason), wherever it was found.
func sameDamage(err, want error) bool {
	var e, w *decompress.Error
	if !errors.As(err, &e) || !errors.As(want, &w) || e.Format != w.Format {
		return false
	}
	var ec, wc *inflate.CorruptError
	if errors.As(e.Err, &ec) && errors.As(w.Err, &wc) {
		return ec.Reason == wc.Reason
	}
	return e.Err == w.Err || errors.Is(e.Err, inflate.ErrChecksum) && errors.Is(w.Err, inflate.ErrChecksum)
}

// TestChangedFileLoad: a file changed in its middle after Save is stale by
// its modification time (Load refuses the index); with the time put back
// (touch -r, a copy that keeps it), Load takes the index and the read
// through it fails as a sequential read does.
func TestChangedFileLoad(t *testing.T) {
	gz, _ := changeText(t)
	name := filepath.Join(t.TempDir(), "changed.gz")
	if err := os.WriteFile(name, gz, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	ix, err := zindex.Build(bytes.NewReader(gz), 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Save(name); err != nil {
		t.Fatal(err)
	}
	changed := bytes.Clone(gz)
	changed[len(gz)/2] ^= 0x10
	if err := os.WriteFile(name, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := zindex.Load(name); !errors.Is(err, zindex.ErrStale) {
		t.Fatalf("Load after a change: %v, want ErrStale", err)
	}
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	loaded, err := zindex.Load(name)
	if err != nil {
		t.Fatalf("Load with the time put back: %v", err)
	}
	_, wantErr := io.ReadAll(decompress.NewReader(bytes.NewReader(changed)))
	n, err := linereader.Count(name, linereader.Options{Decompress: true}, 2)
	if wantErr == nil || !sameDamage(err, wantErr) {
		t.Fatalf("Count through the index: %d records, %v; sequentially %v", n, err, wantErr)
	}
	if _, err := readWhole(loaded.ReaderAt(bytes.NewReader(changed)), loaded.Size()); !sameDamage(err, wantErr) {
		t.Fatalf("the text through the index: %v; sequentially %v", err, wantErr)
	}
}
