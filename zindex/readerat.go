package zindex

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/foreachio/foreach/internal/inflate"
)

// ReaderAt returns the decompressed bytes of src (the compressed file the
// index was built from) as an io.ReaderAt of Size bytes: a ReadAt decodes
// from the access point at or before its offset. Every linereader function
// that takes an io.ReaderAt (NewSection, CountAt, NewTail, NewBackward,
// Partition's spans) then works on the text of a compressed file, and so
// does parallel work over its sections.
//
// ReadAt is safe for concurrent use, as io.ReaderAt requires. Consecutive
// reads of one sequential reader are cheap: a decoder that stops where a
// ReadAt ends is kept (a few are, the most recently used) and the next
// ReadAt that starts there, or a little after, goes on from it instead of
// from an access point. Each kept decoder holds about 300 KiB. So are reads
// that go backwards (NewTail's and NewBackward's): a read that starts a
// decoder at an access point before a place already read keeps what it
// decodes on the way (about a span), and a later read within those bytes is
// served from them.
//
// What a read decodes is checked as a sequential read checks it, and
// against the index: a gzip member's text against its trailer's CRC-32 and
// length, and at every access point against the CRC-32 and length of its
// member's text before it, which the index recorded; each piece of an index
// of pieces with its own checks (a BGZF member's CRC-32, an xz block's
// check, a zstd frame's checksum when it has one). So a src that is not the
// file the index was built from (Load checks its size, ends and
// modification time; this finds a change anywhere in what a read decodes)
// gives the error a sequential read of it would give: a *decompress.Error
// of the damage or of a checksum that does not match, at a compressed
// offset; where it does not decode as the index says (a member that ends
// elsewhere), an error wrapping ErrStale. A read returns the bytes before
// the check that fails, as a sequential read does; the text of an access
// point's span is checked when a read reaches the point after it, or the
// end. An error of src is returned as it is.
func (ix *Index) ReaderAt(src io.ReaderAt) io.ReaderAt {
	return &readerAt{ix: ix, src: src}
}

// maxIdle is the number of decoders a readerAt keeps between reads: enough
// for a few sequential readers at once (the sections of a parallel count).
// cacheMax is the most a read keeps of the bytes it decoded before its
// offset: all of them, up to the largest distance between two access points
// (which an index built with a span of more than 64 MiB exceeds).
const (
	maxIdle  = 8
	cacheMax = 64 << 20
)

// readerAt is what ReaderAt returns.
type readerAt struct {
	ix  *Index
	src io.ReaderAt
	mu  sync.Mutex
	// idle are the decoders not in use, the most recently used last; each
	// is at its decompressed offset pos, ready to go on. Under mu.
	idle []*cursor
	// cache holds the decompressed bytes from cacheAt on that the last read
	// to start a decoder decoded; spare is a buffer for the next, which no
	// read refers to. Both under mu, and copied from under it.
	cache, spare []byte
	cacheAt      int64
}

// ReadAt reads len(p) decompressed bytes from offset off.
func (ra *readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("zindex: ReadAt at a negative offset")
	}
	if off >= ra.ix.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	want := p[:min(int64(len(p)), ra.ix.size-off)]
	n, err := ra.read(want, off)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

// read fills p (within the size) with the bytes at off: those the cache
// holds from it, and the rest from a cursor, which is kept for a later read
// unless it failed. (The cursor that filled the cache stands at its end.)
func (ra *readerAt) read(p []byte, off int64) (int, error) {
	k := ra.cached(p, off)
	if k == len(p) {
		return k, nil
	}
	p, off = p[k:], off+int64(k)
	c, fresh, backward, err := ra.take(off)
	if err != nil {
		return k, err
	}
	var n int
	if fresh && backward && c.pos < off {
		n, err = ra.fill(c, p, off)
	} else {
		n, err = c.readAt(p, off)
	}
	if err != nil {
		return k + n, err // the cursor is dropped: it stands nowhere known
	}
	ra.put(c)
	return k + n, nil
}

// cached copies into p the bytes from off on that the cache holds, and
// returns how many.
func (ra *readerAt) cached(p []byte, off int64) int {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if off < ra.cacheAt || off >= ra.cacheAt+int64(len(ra.cache)) {
		return 0
	}
	return copy(p, ra.cache[off-ra.cacheAt:])
}

// fill reads p at off with a cursor just started at an access point before
// off, keeping as the cache the bytes it decodes on the way (up to cacheMax
// of them, the last before off), p's, and up to ahead bytes after them (a
// reader going backwards reads its last block, then from the start of the
// records it found there, a little further).
func (ra *readerAt) fill(c *cursor, p []byte, off int64) (int, error) {
	const ahead = 64 << 10
	keep := min(off-c.pos, cacheMax)
	end := min(off+int64(len(p))+ahead, ra.ix.size)
	ra.mu.Lock()
	buf := ra.spare
	ra.spare = nil
	ra.mu.Unlock()
	if int64(cap(buf)) < end-(off-keep) {
		buf = make([]byte, end-(off-keep))
	}
	buf = buf[:end-(off-keep)]
	n, err := c.readAt(buf, off-keep)
	k := copy(p, buf[min(int64(n), keep):n])
	if err != nil {
		return k, err
	}
	ra.mu.Lock()
	ra.spare, ra.cache, ra.cacheAt = ra.cache, buf, off-keep
	ra.mu.Unlock()
	return k, nil
}

// take returns a cursor at or before off from which decoding to off costs no
// more than from the access point before off: an idle one if there is such,
// else one started at that point (fresh). It also says whether reads are
// going backwards in off's span: an idle cursor or the cache stands past
// off in it, so that what is decoded on the way to off is worth keeping.
func (ra *readerAt) take(off int64) (c *cursor, fresh, backward bool, err error) {
	i := ra.ix.pointAt(off)
	pt := &ra.ix.points[i]
	next := ra.ix.size
	if i+1 < len(ra.ix.points) {
		next = ra.ix.points[i+1].out
	}
	ra.mu.Lock()
	best := -1
	backward = len(ra.cache) > 0 && ra.cacheAt > off && ra.cacheAt <= next
	for i, c := range ra.idle {
		if c.pos <= off && c.pos >= pt.out && (best < 0 || c.pos > ra.idle[best].pos) {
			best = i
		}
		backward = backward || c.pos > off && c.pos <= next
	}
	if best >= 0 {
		c := ra.idle[best]
		ra.idle = append(ra.idle[:best], ra.idle[best+1:]...)
		ra.mu.Unlock()
		return c, false, backward, nil
	}
	if n := len(ra.idle); n == maxIdle {
		// Reuse the least recently used one's buffers.
		c = ra.idle[0]
		ra.idle = ra.idle[1:]
	}
	ra.mu.Unlock()
	if c == nil {
		c = &cursor{}
	}
	return c, true, backward, c.start(ra.src, ra.ix, i)
}

// put keeps c for a later read.
func (ra *readerAt) put(c *cursor) {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if len(ra.idle) == maxIdle {
		ra.idle = ra.idle[1:]
	}
	ra.idle = append(ra.idle, c)
}

// cursor is a decoder positioned in the decompressed bytes of a file.
type cursor struct {
	ix  *Index
	sec io.SectionReader // the compressed file from byte base on
	src *bufio.Reader    // sec, buffered
	m   inflate.Member
	// base is the compressed offset of sec's first byte: the point's.
	base int64
	// inMember: m is decoding a member's deflate stream; otherwise the next
	// bytes of src are a member's header.
	inMember bool
	pos      int64 // the decompressed offset of the next byte
	// next is the first point after pos (len(points) past the last one):
	// where the text decoded is checked against what the index recorded
	// (reached). A cursor decodes no byte past it without checking it.
	next   int
	window []byte // scratch for a point's window
	skip   []byte // scratch for the text a read drops before its offset
	// piece is the cursor's state in an index of pieces (Index.pieces),
	// which it reads instead of sec, src and m.
	piece pieceState
}

// start positions c at the access point i.
func (c *cursor) start(src io.ReaderAt, ix *Index, i int) error {
	pt := &ix.points[i]
	c.ix, c.pos, c.next = ix, pt.out, i+1
	if pt.kind == pieceStart {
		return c.piece.start(src, ix, i)
	}
	c.base = pt.in / 8
	c.sec = *io.NewSectionReader(src, c.base, ix.file.size-c.base)
	if c.src == nil {
		c.src = bufio.NewReaderSize(&c.sec, 64<<10)
	} else {
		c.src.Reset(&c.sec)
	}
	switch pt.kind {
	case memberStart:
		c.inMember = false
		return nil
	case deflateBlock:
		w, err := c.windowOf(pt)
		if err != nil {
			return err
		}
		c.m.ResetAt(c.src, uint(pt.in%8), w, pt.crc, uint32(pt.member))
		c.inMember = true
		return nil
	}
	return fmt.Errorf("%w: an access point of kind %d", ErrCorrupt, pt.kind)
}

// windowOf decompresses pt's window into c's scratch.
func (c *cursor) windowOf(pt *point) ([]byte, error) {
	if cap(c.window) < inflate.WindowSize {
		c.window = make([]byte, inflate.WindowSize)
	}
	w := c.window[:pt.windowLen]
	d := inflate.NewReader(bytes.NewReader(pt.window))
	if _, err := io.ReadFull(d, w); err != nil {
		return nil, fmt.Errorf("%w: an access point's window: %v", ErrCorrupt, err)
	}
	return w, nil
}

// readAt fills p with the decompressed bytes at off (c.pos <= off, and
// off+len(p) <= the size).
func (c *cursor) readAt(p []byte, off int64) (int, error) {
	if c.piece.dec != nil {
		return c.piece.readAt(&c.pos, p, off)
	}
	for c.pos < off {
		if c.skip == nil {
			c.skip = make([]byte, 32<<10)
		}
		if _, err := c.read(c.skip[:min(int64(len(c.skip)), off-c.pos)]); err != nil {
			return 0, err
		}
	}
	done := 0
	for done < len(p) {
		n, err := c.read(p[done:])
		done += n
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// read reads text into p, up to the next point at most, through the
// member's decoder, which sums it (and checks a member's trailer at its
// end); at the point, it checks what it decoded (reached). It returns 0
// bytes and no error at the end of a member.
func (c *cursor) read(p []byte) (int, error) {
	if err := c.member(); err != nil {
		return 0, err
	}
	limit := c.ix.size
	if c.next < len(c.ix.points) {
		limit = c.ix.points[c.next].out
	}
	n, err := c.m.Read(p[:min(int64(len(p)), limit-c.pos)])
	c.pos += int64(n)
	switch {
	case err == io.EOF:
		c.inMember = false
	case err != nil:
		return n, c.fault(err)
	}
	if c.pos == limit {
		return n, c.reached()
	}
	return n, nil
}

// member starts the next member's deflate stream when c is between members.
func (c *cursor) member() error {
	if c.inMember {
		return nil
	}
	if _, err := inflate.ReadHeader(c.src); err != nil {
		return c.fault(err)
	}
	c.m.Reset(c.src)
	c.inMember = true
	return nil
}

// reached checks, where the text reaches the next point (or its end), that
// the file still decodes as it did when the index was made: at a deflate
// block point, the member's text so far has the length and the CRC-32 the
// index recorded (a sequential read would find the difference at the
// member's trailer: the same error, found earlier); at a member's start or
// the end of the text, the member before ends there, its trailer checked,
// and the next member starts where the index says.
func (c *cursor) reached() error {
	if c.next == len(c.ix.points) {
		return c.memberEnds()
	}
	pt := &c.ix.points[c.next]
	c.next++
	switch pt.kind {
	case memberStart:
		if err := c.memberEnds(); err != nil {
			return err
		}
		if at := c.consumed(); at != pt.in/8 {
			return fmt.Errorf("%w: a gzip member ends at compressed byte %d, not %d", ErrStale, at, pt.in/8)
		}
	case deflateBlock:
		crc, size := c.m.Sum()
		if !c.inMember || size != uint32(pt.member) || crc != pt.crc {
			return c.fault(inflate.ErrChecksum)
		}
	}
	return nil
}

// memberEnds reads the end of the member c is in, if it is in one: its
// trailer, which the member's decoder checks. More text is not the file's.
func (c *cursor) memberEnds() error {
	if !c.inMember {
		return nil
	}
	var one [1]byte
	n, err := c.m.Read(one[:])
	switch {
	case err == io.EOF && n == 0:
		c.inMember = false
		return nil
	case err != nil && err != io.EOF:
		return c.fault(err)
	}
	return fmt.Errorf("%w: a gzip member goes on past decompressed byte %d", ErrStale, c.pos)
}

// consumed returns the compressed offset of the next byte the decoder reads.
func (c *cursor) consumed() int64 {
	read, _ := c.sec.Seek(0, io.SeekCurrent)
	return c.base + read - int64(c.src.Buffered())
}

// fault returns the error of bytes that do not decode as they did when the
// index was made: the error a sequential read gives there (a
// *decompress.Error at the compressed offset where the decoder stopped),
// an error of the source as it is.
func (c *cursor) fault(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return gzipError(err, c.consumed())
}
