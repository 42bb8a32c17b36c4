package main

import (
	"io"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/ztext"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/zindex"
)

// --index with -z: each file is read as the other flags say, and its index written
// beside it once that read has reached the end without an error. How the index is
// made is chosen when the file is opened (startIndex), from how -z reads it:
//
//   - a gzip file read as one sequential decode (no up-to-date index, no BGZF pieces:
//     ztext.Streamed) is read through a zindex.Builder, which is that decode and
//     leaves the index behind: one pass, not two. Every mode that reads such a file
//     reads it to its end anyway (printing, -n, -H, -c, --stats, and --last and
//     --reverse, which read a stream forward), so none loses a speed class;
//   - a file with an up-to-date index is read through it, and the index left as it is;
//   - anything else (BGZF, xz or zstd pieces with sizes, which are read in parallel
//     through the index their headers make; formats that have no index; a file that
//     is not compressed) is read as without --index, and then indexed as --index alone
//     indexes it (writeIndex): from its headers, without decoding, or reported as a
//     file that cannot be indexed.
//
// The read's output is the same in every case: the Builder gives exactly the text,
// and the error, of the sequential decoder it replaces.

// indexing is what --index with -z does for the input being read.
type indexing struct {
	// b is non-nil when the input's text is read through it (in.decoded); read counts
	// the compressed bytes it took, and r is the Reader of its text, whose figures
	// get them (stats): the engine does not decode, so does not see them.
	b    *zindex.Builder
	read *countingReader
	r    *linereader.Reader
	// fresh: the file's index is up to date, and the read goes through it.
	fresh bool
	// failures is the command's count of failed inputs when the read began: any more
	// at its end means this one failed, and no index is written.
	failures int
}

// startIndex returns the indexing of one open input under --index with -z, nil
// without. A gzip file read as a stream has in.src replaced by a Builder over it.
func (c *command) startIndex(in *input) *indexing {
	if !c.cfg.index || !c.cfg.opt.Decompress {
		return nil
	}
	ix := &indexing{failures: c.failures}
	t := c.compressedText(in)
	switch {
	case t == nil:
	case t.How == ztext.Indexed:
		ix.fresh = true
	case t.How == ztext.Streamed && t.Format == decompress.Gzip:
		ix.read = &countingReader{r: in.src}
		ix.b = zindex.NewBuilder(ix.read, 0)
		in.src, in.decoded = ix.b, true
	}
	return ix
}

// finishIndex writes the index of the input just read, when its read went to the end
// without an error: the Builder's (through zindex's Save, as writeIndex saves), or one
// made as --index alone makes it. A failed read, or output that has stopped, leaves
// the file without one (and an older one as it was).
func (c *command) finishIndex(in *input) {
	ix := c.ix
	c.ix = nil
	if ix == nil || ix.fresh || !in.opened || c.stopped || c.failures != ix.failures {
		return
	}
	if ix.b == nil {
		c.writeIndex(in.name, in.file, in.file, in.info)
		return
	}
	x, err := ix.b.Index()
	if err == nil {
		err = x.Save(in.name)
	}
	if err != nil {
		c.fail(in.name, err)
	}
}

// options returns the options the records of in are read with: the command's, with
// Decompress off when in.src gives the text already (a Builder's).
func (c *command) options(in *input) linereader.Options {
	opt := c.cfg.opt
	if in.decoded {
		opt.Decompress = false
	}
	return opt
}

// readerOf returns a Reader of in's records from in.src: the command's own, reused,
// or for text read through a Builder a Reader of its own, made with Decompress off
// (Reset would keep the command's options) and known to stats.
func (c *command) readerOf(in *input) *linereader.Reader {
	if !in.decoded {
		return c.reader(in.src)
	}
	r := linereader.New(in.src, c.options(in))
	if c.ix != nil {
		c.ix.r = r
	}
	return r
}

// compressedStats gives st, the figures of r, the compressed side the engine would
// have seen had it decoded the input itself: the format and the bytes read from the
// file, as --stats reports them.
func (ix *indexing) compressedStats(r *linereader.Reader, st *linereader.Stats) {
	if ix != nil && ix.b != nil && ix.r == r {
		st.Format, st.CompressedBytes = string(decompress.Gzip), ix.read.n
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
