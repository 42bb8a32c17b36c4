package linereader

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// CountAt uses what its io.ReaderAt holds: an *os.File of a .gz with a fresh index beside
// it is counted exactly, by one sequential read, without the index (no name is looked
// for, whatever ra's type: issue 47's "configured by asking again"); Count, which opens
// the file by name, and CountNamed, told the name, count through the index. openText
// sees which name each looked for, and how the file was read.
func TestCountAtAsksNoName(t *testing.T) {
	withCountPolicy(t, countPolicy{minFile: 64 << 10, minSection: 32 << 10, readSize: 16 << 10})
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: int64(zfixtures.TextSize()), Seed: 41})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := countStream(bytesSource(text), newConfig(Options{}), 1<<16)
	name := filepath.Join(t.TempDir(), "f.gz")
	if err := os.WriteFile(name, zfixtures.Gzip(text), 0o644); err != nil {
		t.Fatal(err)
	}
	zfixtures.Index(t, name, 32<<10)
	var asked []string
	withOpenText(t, func(ra io.ReaderAt, size int64, n string, workers int) *ztext.Text {
		tx := ztext.Open(ra, size, n, workers)
		asked = append(asked, fmt.Sprintf("%q %s", n, tx.How))
		return tx
	})
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	size := st.Size()
	opt := Options{Decompress: true}
	for _, c := range []struct {
		what  string
		count func() (int64, error)
		asked string
	}{
		{"CountAt(*os.File)", func() (int64, error) { return CountAt(f, size, opt, 2) }, `"" streamed`},
		{"CountAt(SectionReader)", func() (int64, error) { return CountAt(io.NewSectionReader(f, 0, size), size, opt, 2) }, `"" streamed`},
		{"CountNamed(\"\")", func() (int64, error) { return CountNamed(f, size, "", opt, 2) }, `"" streamed`},
		{"CountNamed(name)", func() (int64, error) { return CountNamed(f, size, name, opt, 2) }, fmt.Sprintf("%q indexed", name)},
		{"Count(name)", func() (int64, error) { return Count(name, opt, 2) }, fmt.Sprintf("%q indexed", name)},
	} {
		asked = nil
		got, err := c.count()
		if got != want || err != nil {
			t.Errorf("%s: %d, %v; want %d", c.what, got, err, want)
		}
		if len(asked) != 1 || asked[0] != c.asked {
			t.Errorf("%s looked for an index as %q; want [%s]", c.what, asked, c.asked)
		}
	}
}

// withOpenText makes counts open a compressed file's text with open for the rest of t.
func withOpenText(t *testing.T, open func(io.ReaderAt, int64, string, int) *ztext.Text) {
	saved := openText
	openText = open
	t.Cleanup(func() { openText = saved })
}
