package zindex

import (
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"fmt"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
)

// Build reads the compressed stream r once, as a sequential decode does and
// at nearly its speed, and returns its index, with an access point about
// every span decompressed bytes (span <= 0: DefaultSpan), and one or two
// within the last 1 MiB or so, so that the last records are quick to reach. The stream is a
// gzip file: one member or many (cat a.gz b.gz, BGZF), read by the rules
// internal/decompress reads it by (zero padding after the last member is
// ignored; other bytes after it are trailing data, which the index records:
// TrailingData). A stream that is not gzip is refused with an error
// wrapping ErrFormat; a damaged one with the decoder's error, which says
// where the damage is.
func Build(r io.Reader, span int64) (*Index, error) {
	if span <= 0 {
		span = DefaultSpan
	}
	b := &builder{id: newIDReader(r), span: span}
	b.src = bufio.NewReaderSize(b.id, 64<<10)
	b.ix = &Index{format: "gzip", span: span, trailing: -1}
	head, _ := b.src.Peek(10)
	if f := decompress.Detect(head); f != decompress.Gzip {
		if f == decompress.None {
			return nil, fmt.Errorf("%w: not compressed", ErrFormat)
		}
		return nil, fmt.Errorf("%w: %s", ErrFormat, f)
	}
	if err := b.members(); err != nil {
		return nil, fmt.Errorf("zindex: %w", err)
	}
	b.ix.file = b.id.fileID()
	return b.ix, nil
}

// builder is the state of one Build.
type builder struct {
	ix   *Index
	id   *idReader
	src  *bufio.Reader // id, buffered: the decoders read it in place
	span int64
	m    inflate.Member
	// memberIn is the compressed offset (in bytes) of the current member's
	// deflate stream, memberOut the decompressed offset of its first byte.
	memberIn, memberOut int64
	out                 int64 // the decompressed bytes so far
	// near are the last two block boundaries taken every tailGap bytes,
	// the later last, with their windows: those that are far enough past
	// the last point when the file ends become points too, so that the
	// file's last records cost little to reach.
	near [2]candidate
	zw   *flate.Writer
	err  error // of the block function, which cannot return one
}

// tailGap is the spacing of the near-the-end candidates: the last
// records of a file are reached through at most about twice that.
const tailGap = 512 << 10

// candidate is a block boundary that may become a point.
type candidate struct {
	in, out int64
	window  []byte // a copy; reused from candidate to candidate
	ok      bool
}

// consumed returns the compressed offset of the next byte the decoders read.
func (b *builder) consumed() int64 { return b.id.n - int64(b.src.Buffered()) }

// members reads the members one after another, adding their points.
func (b *builder) members() error {
	buf := make([]byte, 64<<10)
	b.m.Decoder().SetBlockFunc(b.block)
	for {
		at := b.consumed()
		if len(b.ix.points) == 0 || b.out-b.last() >= b.span {
			b.ix.points = append(b.ix.points, point{kind: memberStart, in: at * 8, out: b.out})
		}
		if _, err := inflate.ReadHeader(b.src); err != nil {
			return gzipError(err, b.consumed())
		}
		b.memberIn, b.memberOut = b.consumed(), b.out
		b.m.Reset(b.src)
		for {
			n, err := b.m.Read(buf)
			b.out += int64(n)
			if b.err != nil {
				return b.err
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return gzipError(err, b.consumed())
			}
		}
		more, err := decompress.GzipFollows(b.src, b.consumed())
		if off, ok := trailingAt(err); ok {
			b.ix.trailing = off
			break
		}
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	b.ix.size = b.out
	return b.nearEnd()
}

// last returns the decompressed offset of the last point.
func (b *builder) last() int64 { return b.ix.points[len(b.ix.points)-1].out }

// block is the decoder's block function: at a block boundary a span past
// the last point, a point with the window before it; every tailGap bytes,
// a candidate for the end.
func (b *builder) block(blk inflate.Block) {
	out, in := b.memberOut+blk.Out, b.memberIn*8+blk.Bit
	if out-b.last() >= b.span {
		b.point(in, out, b.m.Decoder().Window())
		return
	}
	if out-b.near[1].out >= tailGap {
		c := b.near[0]
		c.in, c.out, c.ok = in, out, true
		c.window = append(c.window[:0], b.m.Decoder().Window()...)
		b.near[0], b.near[1] = b.near[1], c
	}
}

// point adds a point at a block boundary, with the window before it.
func (b *builder) point(in, out int64, window []byte) {
	if b.err != nil {
		return
	}
	z, err := b.compress(window)
	if err != nil {
		b.err = err
		return
	}
	b.ix.points = append(b.ix.points, point{kind: deflateBlock, in: in, out: out, window: z, windowLen: len(window)})
}

// nearEnd adds the candidates that are a tailGap past the last point.
func (b *builder) nearEnd() error {
	for _, c := range b.near {
		if c.ok && c.out-b.last() >= tailGap {
			b.point(c.in, c.out, c.window)
		}
	}
	return b.err
}

// compress returns window compressed as a raw deflate stream, at the
// fastest level: a window is compressed for every point, during the pass.
func (b *builder) compress(window []byte) ([]byte, error) {
	var z bytes.Buffer
	if b.zw == nil {
		w, err := flate.NewWriter(&z, flate.BestSpeed)
		if err != nil {
			return nil, err
		}
		b.zw = w
	} else {
		b.zw.Reset(&z)
	}
	if _, err := b.zw.Write(window); err != nil {
		return nil, err
	}
	if err := b.zw.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}

// gzipError returns an error of the gzip decoding at compressed offset at
// as internal/decompress words it ("gzip: ... at compressed byte N"), an
// error of the source as it is.
func gzipError(err error, at int64) error {
	switch err {
	case inflate.ErrHeader, inflate.ErrChecksum, io.ErrUnexpectedEOF:
	default:
		if _, ok := err.(*inflate.CorruptError); !ok {
			return err
		}
	}
	return &decompress.Error{Format: decompress.Gzip, Offset: at, Err: err}
}

// trailingAt reports whether err is trailing data after the last member,
// and where it starts.
func trailingAt(err error) (int64, bool) {
	if e, ok := err.(*decompress.Error); ok && e.Err == decompress.ErrTrailingData {
		return e.Offset, true
	}
	return 0, false
}

// idBytes is how many of a file's first and last bytes identify it, beside
// its size.
const idBytes = 64 << 10

// fileID is what identifies a compressed file: its size and the SHA-256
// digests of its first and last idBytes (all of it if it is shorter).
type fileID struct {
	size       int64
	head, tail [sha256.Size]byte
}

// idReader reads r, keeping what makes its fileID: its length and its
// first and last idBytes.
type idReader struct {
	r    io.Reader
	n    int64
	head []byte // the first idBytes, or all of r if shorter
	ring []byte // the last idBytes read: byte i of r at ring[i%idBytes]
}

func newIDReader(r io.Reader) *idReader {
	return &idReader{r: r, head: make([]byte, 0, idBytes), ring: make([]byte, idBytes)}
}

func (t *idReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	b := p[:n]
	if k := min(len(b), idBytes-len(t.head)); k > 0 {
		t.head = append(t.head, b[:k]...)
	}
	for len(b) > 0 {
		// Only the last idBytes of b can stay in the ring.
		if len(b) > idBytes {
			t.n += int64(len(b) - idBytes)
			b = b[len(b)-idBytes:]
		}
		k := copy(t.ring[t.n%idBytes:], b)
		t.n += int64(k)
		b = b[k:]
	}
	return n, err
}

func (t *idReader) fileID() fileID {
	id := fileID{size: t.n, head: sha256.Sum256(t.head)}
	tail := make([]byte, 0, idBytes)
	if t.n <= idBytes {
		tail = append(tail, t.ring[:t.n]...)
	} else {
		i := t.n % idBytes
		tail = append(append(tail, t.ring[i:]...), t.ring[:i]...)
	}
	id.tail = sha256.Sum256(tail)
	return id
}
