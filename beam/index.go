package foreachio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/foreachio/foreach/beam/objstore"
	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/zindex"
)

// textIndex is the index of a compressed file whose decompressed text is cut into
// sections: the restriction of such a file counts text bytes, [0, Size()).
type textIndex struct {
	ix *zindex.Index
	// text and comp are the access points' decompressed offsets and the compressed byte
	// offsets where decoding starts for them (zindex.Index.Point), ascending in both
	// (text[0] == 0).
	text, comp []int64
}

// newTextIndex returns ix with its points, or nil when its text is not to be cut: it is
// empty or has one access point, or a sequential read of the file ends with an error
// (trailing data after the last gzip member) that a read through the index would not
// report.
func newTextIndex(ix *zindex.Index) *textIndex {
	if ix == nil || ix.Size() == 0 || ix.Points() < 2 {
		return nil // every section would decode from the start
	}
	if _, ok := ix.TrailingData(); ok {
		return nil
	}
	t := &textIndex{ix: ix, text: make([]int64, ix.Points()), comp: make([]int64, ix.Points())}
	for i := range t.text {
		t.text[i], t.comp[i] = ix.Point(i)
	}
	return t
}

// Size is the decompressed size: the end of the file's text restriction.
func (t *textIndex) Size() int64 { return t.ix.Size() }

// compressedEnd is about the compressed offset at which the decoding of the text up to
// textEnd can stop: the offset as far into the piece (or span) holding textEnd as textEnd
// is into its text, and a margin, but not past the piece's end (the next access point's
// start). The reads of a section do not stop there (its decoder asks for what it needs,
// and a last record may run on): only the section's GETs stop growing there.
func (t *textIndex) compressedEnd(textEnd int64) int64 {
	i := sort.Search(len(t.text), func(i int) bool { return t.text[i] > textEnd })
	if i == 0 {
		return t.ix.CompressedSize()
	}
	nextText, nextComp := t.ix.Size(), t.ix.CompressedSize()
	if i < len(t.text) {
		nextText, nextComp = t.text[i], t.comp[i]+1 // a deflate block's first byte may hold the last bits before it
	}
	j := i - 1
	if nextText <= t.text[j] {
		return nextComp
	}
	into := float64(textEnd-t.text[j]) / float64(nextText-t.text[j])
	return min(nextComp, t.comp[j]+int64(into*float64(nextComp-t.comp[j]))+endMargin)
}

// endMargin is how far past the estimated offset of a section's last byte its GETs reach:
// text is not compressed evenly within a piece.
const endMargin = 64 << 10

// cuts returns the offsets of start + k*size for k >= 1 below end, each moved forward to
// sep bytes past the next access point: a section that does not start at 0 reads from sep
// bytes before its start (linereader.NewSection, sep the separator's length), which is
// then the access point, so that it decodes nothing before it. The records that start in
// those sep bytes are the section before's, read on from where it stopped.
func (t *textIndex) cuts(start, end, size, sep int64) []int64 {
	var cuts []int64
	for c := start + size; c < end; c += size {
		i := sort.Search(len(t.text), func(i int) bool { return t.text[i]+sep >= c })
		if i == len(t.text) || t.text[i]+sep >= end {
			break
		}
		c = t.text[i] + sep
		cuts = append(cuts, c)
	}
	return cuts
}

// indexes keeps the indexes a worker process has found, so that the sections of one file
// that it reads, and the restrictions it makes for it, find (or make) the index once.
var indexes = &indexCache{entries: map[string]*indexEntry{}}

// maxIndexes bounds the indexes kept: a job reads its files one after another, and an
// index is about 1% of its compressed file at most.
const maxIndexes = 64

// indexCache is the indexes of files, keyed by what identifies a file's bytes (see
// indexKey); safe for concurrent use.
type indexCache struct {
	mu sync.Mutex
	// entries holds at most maxIndexes entries; order is their keys, oldest first.
	entries map[string]*indexEntry
	order   []string
}

// indexEntry is one file's index, made once: done is set when ti holds the answer (nil
// for a file without an index). A failed attempt leaves done unset: the next one tries
// again.
type indexEntry struct {
	mu   sync.Mutex
	done bool
	ti   *textIndex
}

// get returns the entry of key, made by build the first time.
func (c *indexCache) get(key string, build func() (*textIndex, error)) (*textIndex, error) {
	c.mu.Lock()
	e := c.entries[key]
	if e == nil {
		e = &indexEntry{}
		c.entries[key] = e
		c.order = append(c.order, key)
		if len(c.order) > maxIndexes {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.done {
		ti, err := build()
		if err != nil {
			return nil, err
		}
		e.ti, e.done = ti, true
	}
	return e.ti, nil
}

// decompresses reports whether the records of path are those of its decompressed text:
// its name ends in .gz (fileio's rule), or the options decompress what they find.
func (s Sections) decompresses(path string) bool {
	return gzipName(path) || s.Options.Decompress
}

// localIndex returns the index of the text of a local file (one of a filesystem whose
// files are io.ReaderAts) and the file, or a nil index when it has none: no fresh
// NAME.zidx beside it and no structure that indexes it. The caller closes the file.
func localIndex(ctx context.Context, file fileio.ReadableFile) (*textIndex, io.ReadCloser, error) {
	path := file.Metadata.Path
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	defer fsys.Close()
	rc, err := fsys.OpenRead(ctx, path) // the compressed bytes: fileio's Open would decompress
	if err != nil {
		return nil, nil, err
	}
	ra, ok := rc.(io.ReaderAt)
	if !ok {
		return nil, rc, nil
	}
	size := file.Metadata.Size
	key := fmt.Sprintf("%s\x00%d\x00%d", path, size, file.Metadata.LastModified.UnixNano())
	ti, err := indexes.get(key, func() (*textIndex, error) {
		if ix, err := zindex.LoadAt(path, ra, size); err == nil {
			return newTextIndex(ix), nil
		}
		return structureIndex(ra, ra, size)
	})
	if err != nil {
		rc.Close()
		return nil, nil, err
	}
	return ti, rc, nil
}

// structureIndex returns the index the structure of ra[0:size) gives (zindex.FromStructure),
// or nil when it gives none. Only the formats whose structure can index them are scanned
// (bzip2's would be a search of the whole file for its block magic, and give no sizes):
// head, the file's first bytes, tell. scan is the file as the scan reads it: ra, or the
// bytes of the file's headers (bgzfHeaders).
func structureIndex(head, scan io.ReaderAt, size int64) (*textIndex, error) {
	switch decompress.FormatAt(io.NewSectionReader(head, 0, size)) {
	case decompress.Gzip, decompress.Xz, decompress.Zstd:
	default:
		return nil, nil
	}
	ix, err := zindex.FromStructure(scan, size)
	if errors.Is(err, zindex.ErrNoStructure) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return newTextIndex(ix), nil
}

// objectIndex returns the index of the text of obj, or nil when it has none: from a fresh
// NAME.zidx object beside it, else from its structure, read by ranged GETs of its
// headers.
func objectIndex(ctx context.Context, obj *objstore.Object) (*textIndex, error) {
	key := fmt.Sprintf("%s\x00%d\x00%s", obj.URI, obj.Size, obj.Version())
	return indexes.get(key, func() (*textIndex, error) {
		exact := exactReader{ctx: ctx, obj: obj}
		if ix, err := loadObjectIndex(ctx, obj, exact); err == nil {
			return newTextIndex(ix), nil
		} else if !errors.Is(err, objstore.ErrNotFound) && !errors.Is(err, zindex.ErrStale) &&
			!errors.Is(err, zindex.ErrCorrupt) && !errors.Is(err, zindex.ErrVersion) {
			return nil, err
		}
		return objectStructure(exact, obj.Size)
	})
}

// objectStructure returns the index the structure of an object gives, or nil. BGZF and
// zstd frames are scanned over the bytes of their headers alone (bgzfHeaders,
// zstdHeaders), each read by a small ranged GET, since the scan over the object itself
// reads it in windows; an index made so must have the text size the headers add up to,
// else (a header the walk does not read as the scan does) the object is scanned whole.
func objectStructure(exact io.ReaderAt, size int64) (*textIndex, error) {
	var h *headerBytes
	var total int64
	var err error
	switch decompress.FormatAt(io.NewSectionReader(exact, 0, size)) {
	case decompress.Gzip:
		if h, total, err = bgzfHeaders(exact, size); h == nil || err != nil {
			return nil, err // not BGZF: a gzip member is decoded from its start
		}
	case decompress.Zstd:
		if h, total, err = zstdHeaders(exact, size); err != nil {
			return nil, err
		}
	}
	if h != nil {
		ti, err := structureIndex(exact, h, size)
		if err != nil || ti == nil || ti.Size() == total {
			return ti, err
		}
	}
	return structureIndex(exact, exact, size)
}

// loadObjectIndex reads the NAME.zidx object beside obj and checks it against obj.
func loadObjectIndex(ctx context.Context, obj *objstore.Object, ra io.ReaderAt) (*zindex.Index, error) {
	zo, err := objstore.Open(ctx, obj.URI+".zidx")
	if err != nil {
		return nil, err
	}
	rc, err := zo.NewStream(ctx)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	ix, err := zindex.Read(rc)
	if err != nil {
		return nil, err
	}
	if err := ix.CheckAt(ra, obj.Size); err != nil {
		return nil, err
	}
	return ix, nil
}

// exactReader reads an object's bytes by one ranged GET of exactly the bytes asked for:
// the few scattered reads of an index's checks and of a structure scan.
type exactReader struct {
	ctx context.Context
	obj *objstore.Object
}

func (e exactReader) ReadAt(p []byte, off int64) (int, error) {
	r := e.obj.ReaderAt(e.ctx, off+int64(len(p)))
	defer r.Close()
	return r.ReadAt(p, off)
}

// compressedSource is a compressed object as a decoder reads it through an index: pieces
// and their headers, some read again (a piece is found again from its header before it
// is decoded, and reads go back within about a MiB), some skipped ahead. Every read is
// served from the blocks of the object fetched last, each fetched by one GET of exactly
// its bytes: a GET is read to its end, never abandoned with bytes in flight, so the bytes
// sent are the bytes fetched. Blocks grow while reads go on where the last fetch ended,
// up to maxFetch, and the first fetches stop at end, where the section's reads should
// end; past it they start small again.
type compressedSource struct {
	ctx context.Context
	obj *objstore.Object
	end int64 // where the section's reads should end: a fetch before it stops there

	mu sync.Mutex
	// blocks are the fetched blocks, the most recent first, cached bytes in all (at most
	// maxCached, and the last block however large). next is where the last fetch ended;
	// window is its size.
	blocks []fragment
	cached int64
	next   int64
	window int64
}

const (
	firstFetch = 256 << 10
	tailFetch  = 64 << 10
	maxFetch   = 16 << 20
	maxCached  = 8 << 20
)

func (c *compressedSource) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("foreachio: %s: read at negative offset %d", c.obj.URI, off)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for n < len(p) && off < c.obj.Size {
		b, ok := c.find(off)
		if !ok {
			var err error
			if b, err = c.fetch(off, len(p)-n); err != nil {
				return n, err
			}
		}
		k := copy(p[n:], b.b[off-b.off:])
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// find returns the fetched block that holds the byte at off.
func (c *compressedSource) find(off int64) (fragment, bool) {
	for _, b := range c.blocks {
		if off >= b.off && off < b.off+int64(len(b.b)) {
			return b, true
		}
	}
	return fragment{}, false
}

// fetch reads the block at off for a read of want bytes, and keeps it.
func (c *compressedSource) fetch(off int64, want int) (fragment, error) {
	sequential := off == c.next && c.window > 0
	switch {
	case off >= c.end && (!sequential || c.next == c.end):
		c.window = tailFetch // past the section: its last record usually ends soon
	case sequential:
		c.window = min(2*c.window, maxFetch)
	default:
		c.window = firstFetch
	}
	n := max(c.window, int64(want))
	if off < c.end {
		n = min(n, c.end-off)
	}
	n = min(n, c.obj.Size-off)
	for _, held := range c.blocks {
		if held.off > off {
			n = min(n, held.off-off) // no byte is fetched twice while it is kept
		}
	}
	b := fragment{off, make([]byte, n)}
	if k, err := (exactReader{c.ctx, c.obj}).ReadAt(b.b, off); k < len(b.b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return fragment{}, err
	}
	c.next = off + n
	c.blocks = append([]fragment{b}, c.blocks...)
	for c.cached += n; c.cached > maxCached && len(c.blocks) > 1; c.blocks = c.blocks[:len(c.blocks)-1] {
		c.cached -= int64(len(c.blocks[len(c.blocks)-1].b))
	}
	return b, nil
}
