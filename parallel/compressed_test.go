package parallel_test

// Foreach and Fold over every kind of compressed file internal/ztext tells apart: the
// records, offsets and error of a sequential read, whichever way the text is read.

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/testkit/zfixtures"
	"github.com/foreachio/foreach/linereader"
)

func TestForeachCompressedAsSequential(t *testing.T) {
	noLeak(t)
	text := bytes.ReplaceAll(parText(39, zfixtures.TextSize()), []byte("\n\n"), []byte("\r\n"))
	text = append(text, "no final newline"...)
	opts := []linereader.Options{
		{Decompress: true},
		{Decompress: true, Sep: []byte("\r\n"), Chomp: true},
		{Decompress: true, Paragraph: true}, // not splittable: batches from the stream
	}
	for _, f := range zfixtures.Write(t, t.TempDir(), text, 32<<10) {
		for _, opt := range opts {
			want := wantRecs(text, opt)
			wantErr := sequentialErr(t, f.Path, opt)
			for _, workers := range []int{3} {
				what := fmt.Sprintf("%s, sep %q paragraph %v, %d workers", f.Kind, opt.Sep, opt.Paragraph, workers)
				got, err := collectParallel(t, f.Path, opt, workers)
				require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), what)
				if len(got) != len(want) || !equalRecs(got, want) {
					t.Fatalf("%s: %s", what, firstDiff(want, got))
				}
			}
		}
		if f.Kind == "trailing.gz" {
			continue // Fold returns the zero tally with the error
		}
		wantT := wantTally(text, opts[0])
		gotT, _, err := foldTally(t.Context(), f.Path, opts[0], 2)
		require.NoError(t, err, f.Kind)
		require.Equal(t, []int64{wantT.records, wantT.bytes, wantT.offsets}, []int64{gotT.records, gotT.bytes, gotT.offsets}, f.Kind)
		require.True(t, maps.Equal(wantT.first, gotT.first), f.Kind)
	}
}

// TestForeachStaleIndex: an index of the file as it was is not used once it changed.
func TestForeachStaleIndex(t *testing.T) {
	noLeak(t)
	text := parText(40, 300<<10)
	dir := t.TempDir()
	files := zfixtures.Write(t, dir, text, 64<<10)
	name := files[0].Path // indexed.gz
	other := append([]byte("a first line now\n"), text...)
	require.NoError(t, os.WriteFile(name, zfixtures.Gzip(other), 0o644))
	got, err := collectParallel(t, name, linereader.Options{Decompress: true}, 2)
	require.NoError(t, err)
	want := wantRecs(other, linereader.Options{})
	if !equalRecs(got, want) {
		t.Fatalf("over a stale index: %s", firstDiff(want, got))
	}
}

func equalRecs(a, b []parRec) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sequentialErr is the error a sequential read of the named file ends with.
func sequentialErr(t *testing.T, name string, opt linereader.Options) error {
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	r := linereader.New(f, opt)
	for range r.Views() {
	}
	return r.Err()
}
