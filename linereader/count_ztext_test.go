package linereader

import (
	"fmt"
	"os"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/internal/testkit/zfixtures"
	"github.com/foreachio/foreach/internal/ztext"
)

// TestCountCompressedAsSequential counts every kind of compressed file (an index beside
// it, BGZF, xz blocks, pzstd frames, bzip2 blocks, trailing data, a .gz read
// sequentially) with several workers: the count and the error are those of one
// sequential read, whichever way ztext reads the file.
func TestCountCompressedAsSequential(t *testing.T) {
	withCountPolicy(t, countPolicy{minFile: 64 << 10, minSection: 32 << 10, readSize: 16 << 10})
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: int64(zfixtures.TextSize()), Seed: 39})
	if err != nil {
		t.Fatal(err)
	}
	text = append(text, "no final newline"...)
	for _, f := range zfixtures.Write(t, t.TempDir(), text, 32<<10) {
		checkHow(t, f)
		for _, opt := range []Options{{Decompress: true}, {Decompress: true, Sep: []byte("e\n")}} {
			want, wantErr := Count(f.Path, opt, 1)
			if plain, _ := countStream(bytesSource(text), newConfig(Options{Sep: opt.Sep}), 1<<16); want != plain {
				t.Fatalf("%s, sep %q: the sequential count is %d, the text's %d", f.Kind, opt.Sep, want, plain)
			}
			for _, workers := range []int{2, 3} {
				got, err := Count(f.Path, opt, workers)
				if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s, sep %q, %d workers: %d, %v; want %d, %v", f.Kind, opt.Sep, workers, got, err, want, wantErr)
				}
			}
		}
	}
}

// checkHow checks that ztext reads f as the test expects, so that a test over it runs the
// path it means to.
func checkHow(t *testing.T, f zfixtures.File) {
	t.Helper()
	fh, err := os.Open(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if tx := ztext.Open(fh, st.Size(), f.Path, 2); tx.How != f.How {
		t.Fatalf("%s is read %s, not %s", f.Kind, tx.How, f.How)
	}
}
