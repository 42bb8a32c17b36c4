package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/foreachio/foreach/internal/ztext"
	"github.com/foreachio/foreach/zindex"
)

// compressedText returns how the text of a compressed regular file opened by name is
// read with -z (internal/ztext: through a fresh FILE.zidx, through the pieces of a
// BGZF, xz or zstd file that say their sizes, or as a stream decoded on -j cores where
// the format's pieces allow it); nil for anything else: input that is not compressed,
// standard input, a pipe, and a file whose text is read through an index being built
// (in.decoded). An index beside the file that it no longer matches is ignored with one
// warning, and the file read as if it had none. The answer is kept on in: the index is
// loaded once, and warned about once, whichever modes ask.
func (c *command) compressedText(in *input) *ztext.Text {
	if !c.cfg.opt.Decompress || !in.opened || in.size <= 0 || in.decoded {
		return nil
	}
	if !in.asked {
		in.asked = true
		t := ztext.Open(in.file, in.size, in.name, c.cfg.jobs)
		c.warnIgnored(in.name, t.Ignored)
		if t.How != ztext.Plain {
			in.text = t
		}
	}
	return in.text
}

// warnIgnored warns, when err is not nil, that the index beside the file name is not used,
// and why (zindex.ErrStale: the file no longer matches it; a damaged index). Not with
// --index, which writes a new one.
func (c *command) warnIgnored(name string, err error) {
	if err != nil && !c.cfg.index {
		c.report(messageName(name), fmt.Errorf("%s is not used: %w", quoteName(name+".zidx"), err))
	}
}

// checkIndex warns, for -z -c, when the index beside a file opened by name is there but
// not used: the count itself (linereader.CountNamed) reads the file as if it had none,
// without a word; loading the index costs a read of it, not of the file's structure.
func (c *command) checkIndex(in *input) {
	if !c.cfg.opt.Decompress || !in.opened || in.size <= 0 {
		return
	}
	if _, err := zindex.LoadAt(in.name, in.file, in.size); err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.warnIgnored(in.name, err)
	}
}

// decodedText returns, for printing with -z and -j above 1, the text of a compressed
// file decoded in order on -j cores where its index or its pieces allow it
// (ztext.Text.Stream), ending with the error a sequential read ends with; nil when the
// engine decodes the input itself: one core, input that is not a compressed file opened
// by name, --stats (whose figures count the compressed bytes the engine reads) and the
// progress bar (which counts them too).
func (c *command) decodedText(in *input) io.ReadCloser {
	t := c.compressedText(in) // also for its warning
	if t == nil || c.cfg.jobs < 2 || c.cfg.stats || c.bar != nil {
		return nil
	}
	return t.Stream()
}

// indexFile implements --index without -z for one named file: it writes FILE.zidx (see
// writeIndex). Nothing is printed but errors.
func (c *command) indexFile(name string) {
	f, err := os.Open(name)
	if err != nil {
		c.fail(name, err)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		c.fail(name, err)
		return
	}
	var src io.ReaderAt = f
	if c.bar != nil && st.Mode().IsRegular() {
		c.bar.Describe(displayName(name))
		p := &progressReaderAt{ra: f, bar: c.bar}
		src = p
		defer func() { c.bar.Add64(max(st.Size()-p.read, 0)) }() // a structure's pieces are not read
	}
	c.writeIndex(name, f, src, st)
}

// writeIndex writes name.zidx, the index of the compressed file f (of FileInfo st),
// read through src (f, or f moving the progress bar), unless the index there matches
// the file already: from its structure when it gives one, else by decoding it once
// (zindex.BuildAt). zindex's Save writes it atomically: a temporary file beside it,
// renamed. --index alone and, with -z, an index made after the read (indexing.go) both
// write it here, so that they agree on what they write and on every error.
func (c *command) writeIndex(name string, f *os.File, src io.ReaderAt, st os.FileInfo) {
	if !st.Mode().IsRegular() {
		c.fail(name, errors.New("not a regular file: only a file can have an index"))
		return
	}
	if _, err := zindex.LoadAt(name, f, st.Size()); err == nil {
		return // up to date
	} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, zindex.ErrStale) &&
		!errors.Is(err, zindex.ErrCorrupt) && !errors.Is(err, zindex.ErrVersion) {
		c.fail(name, err)
		return
	}
	ix, err := zindex.BuildAt(src, st.Size(), 0)
	if errors.Is(err, zindex.ErrFormat) {
		err = errNotIndexable
	}
	if err == nil {
		err = ix.Save(name)
	}
	if err != nil {
		c.fail(name, err)
	}
}

// errNotIndexable is what --index says of a file that has no index.
var errNotIndexable = errors.New("not a file that can be indexed (gzip; BGZF, xz or zstd whose pieces say their sizes)")

// progressReaderAt moves the progress bar by the bytes read through it, as
// progressReader does for a stream; read is their sum (one goroutine reads).
type progressReaderAt struct {
	ra   io.ReaderAt
	bar  *bar
	read int64
}

func (p *progressReaderAt) ReadAt(b []byte, off int64) (int, error) {
	n, err := p.ra.ReadAt(b, off)
	p.read += int64(n)
	p.bar.Add64(int64(n))
	return n, err
}
