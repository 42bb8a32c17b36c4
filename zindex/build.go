package zindex

import (
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
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
// where the damage is. Build is a Builder read to its end.
func Build(r io.Reader, span int64) (*Index, error) {
	b := NewBuilder(r, span)
	buf := make([]byte, 64<<10)
	for {
		if _, err := b.Read(buf); err != nil {
			break
		}
	}
	return b.Index()
}

// Builder indexes a gzip stream as it is read through it: a first read of
// a file leaves its index behind. Read gives the stream's text, exactly as
// a sequential read gives it (internal/decompress, as gzip -d reads it):
// the members' text one after another, then io.EOF, or the error a
// sequential read ends with: trailing data after the last member (a
// *decompress.Error wrapping decompress.ErrTrailingData, which zcat takes
// for a warning) or damage, at its compressed offset, after every byte
// decoded before it. Once Read has returned io.EOF or trailing data, Index
// returns the stream's index (Build's). Input that is not gzip is an error
// wrapping ErrFormat at the first Read.
//
// The indexing costs little beside the decoding: a look at each deflate
// block boundary, a copy of the 32 KiB window every 512 KiB of text, that
// window compressed at each access point, and the CRC-32 of the text up to
// each point, mostly the member's own CRC, which the decoder computes
// anyway. A Builder is not safe for concurrent use.
type Builder struct {
	ix   *Index
	id   *idReader
	src  *bufio.Reader // id, buffered: the decoders read it in place
	span int64
	m    inflate.Member
	// state is where the stream stands; err, once set, is what every Read
	// returns (io.EOF, trailing data, damage).
	state builderState
	err   error
	// memberIn is the compressed offset (in bytes) of the current member's
	// deflate stream, memberOut the decompressed offset of its first byte.
	memberIn, memberOut int64
	out                 int64 // the decompressed bytes read so far
	// near are the last two block boundaries taken every tailGap bytes,
	// the later last, with their windows: those that are far enough past
	// the last point when the stream ends become points too, so that the
	// file's last records cost little to reach.
	near [2]candidate
	// unsummed is the first point whose CRC-32 is not known yet: a point is
	// found at a block boundary before the text up to it has been read.
	unsummed int
	zw       *flate.Writer
	blockErr error // of the block function, which cannot return one
}

// builderState is where a Builder's stream stands.
type builderState uint8

const (
	beforeStream  builderState = iota // nothing read yet
	inMember                          // m is decoding a member
	betweenMember                     // a member has ended; what follows is not known yet
	streamEnded                       // the stream has ended (err is io.EOF or trailing data): the index is whole
)

// NewBuilder returns a Builder of the gzip stream r, indexing it with an
// access point about every span decompressed bytes (span <= 0:
// DefaultSpan), as Build does. It reads nothing until the first Read.
func NewBuilder(r io.Reader, span int64) *Builder {
	if span <= 0 {
		span = DefaultSpan
	}
	b := &Builder{id: newIDReader(r), span: span}
	b.src = bufio.NewReaderSize(b.id, 64<<10)
	b.ix = &Index{format: "gzip", span: span, trailing: -1}
	b.m.Decoder().SetBlockFunc(b.block)
	return b
}

// Read reads the stream's text into p.
func (b *Builder) Read(p []byte) (int, error) {
	for b.err == nil {
		if b.state != inMember {
			b.err = b.nextMember()
			continue
		}
		crc, _ := b.m.Sum()
		n, err := b.m.Read(p)
		b.sum(p[:n], crc)
		b.out += int64(n)
		switch {
		case b.blockErr != nil:
			b.err = b.blockErr
		case err == io.EOF:
			b.state = betweenMember
			if n == 0 {
				continue
			}
		case err != nil:
			b.err = gzipError(err, b.consumed())
		}
		if n > 0 || err == nil {
			return n, nil
		}
	}
	return 0, b.err
}

// Index returns the index of the stream once Read has returned io.EOF or
// the error of trailing data after the last member; before that, the error
// Read returned (wrapped), or an error saying the stream was not read to its
// end.
func (b *Builder) Index() (*Index, error) {
	switch {
	case b.state == streamEnded:
		return b.ix, nil
	case b.err == nil:
		return nil, errors.New("zindex: the stream was not read to its end")
	case errors.Is(b.err, ErrFormat):
		return nil, b.err
	}
	return nil, fmt.Errorf("zindex: %w", b.err)
}

// consumed returns the compressed offset of the next byte the decoders read.
func (b *Builder) consumed() int64 { return b.id.n - int64(b.src.Buffered()) }

// nextMember starts the stream's next member, adding its point when it is a
// span past the last; at the end of the stream it finishes the index and
// returns io.EOF, or the error of trailing data.
func (b *Builder) nextMember() error {
	at := b.consumed()
	if b.state == beforeStream {
		head, _ := b.src.Peek(10)
		if f := decompress.Detect(head); f != decompress.Gzip {
			if f == decompress.None {
				return fmt.Errorf("%w: not compressed", ErrFormat)
			}
			return fmt.Errorf("%w: %s", ErrFormat, f)
		}
	} else {
		more, err := decompress.GzipFollows(b.src, at)
		if off, ok := trailingAt(err); ok {
			b.ix.trailing = off
			return b.end(err)
		}
		if err != nil {
			return err
		}
		if !more {
			return b.end(io.EOF)
		}
	}
	if len(b.ix.points) == 0 || b.out-b.last() >= b.span {
		b.ix.points = append(b.ix.points, point{kind: memberStart, in: at * 8, out: b.out})
	}
	if _, err := inflate.ReadHeader(b.src); err != nil {
		return gzipError(err, b.consumed())
	}
	b.memberIn, b.memberOut = b.consumed(), b.out
	b.m.Reset(b.src)
	b.state = inMember
	return nil
}

// end finishes the index at the end of the stream, where Read returns err.
func (b *Builder) end(err error) error {
	b.ix.size = b.out
	if e := b.nearEnd(); e != nil {
		return e
	}
	b.ix.file = b.id.fileID()
	b.state = streamEnded
	return err
}

// last returns the decompressed offset of the last point.
func (b *Builder) last() int64 { return b.ix.points[len(b.ix.points)-1].out }

// block is the decoder's block function: at a block boundary a span past
// the last point, a point with the window before it; every tailGap bytes,
// a candidate for the end. The text before the boundary has been decoded
// but not all read: its CRC-32 is summed as it is read (sum).
func (b *Builder) block(blk inflate.Block) {
	out, in := b.memberOut+blk.Out, b.memberIn*8+blk.Bit
	if out-b.last() >= b.span {
		b.point(candidate{in: in, out: out, member: blk.Out}, b.m.Decoder().Window())
		return
	}
	if out-b.near[1].out >= tailGap {
		c := b.near[0]
		c.in, c.out, c.member, c.ok, c.summed = in, out, blk.Out, true, false
		c.window = append(c.window[:0], b.m.Decoder().Window()...)
		b.near[0], b.near[1] = b.near[1], c
	}
}

// sum sets the CRC-32 of the points and candidates whose text ends within
// q, the text read last, from its offset b.out on; crc is that of the
// member's text before q.
func (b *Builder) sum(q []byte, crc uint32) {
	end := b.out + int64(len(q))
	for ; b.unsummed < len(b.ix.points); b.unsummed++ {
		p := &b.ix.points[b.unsummed]
		if p.kind != deflateBlock {
			continue
		}
		if p.out > end {
			break
		}
		p.crc = crc32.Update(crc, crc32.IEEETable, q[:p.out-b.out])
	}
	for i := range b.near {
		if c := &b.near[i]; c.ok && !c.summed && c.out <= end {
			c.crc, c.summed = crc32.Update(crc, crc32.IEEETable, q[:c.out-b.out]), true
		}
	}
}

// point adds a point at a block boundary, with the window before it.
func (b *Builder) point(c candidate, window []byte) {
	if b.blockErr != nil {
		return
	}
	z, err := b.compress(window)
	if err != nil {
		b.blockErr = err
		return
	}
	b.ix.points = append(b.ix.points, point{kind: deflateBlock, in: c.in, out: c.out, window: z,
		windowLen: len(window), member: c.member, crc: c.crc})
}

// nearEnd adds the candidates that are a tailGap past the last point.
func (b *Builder) nearEnd() error {
	for _, c := range b.near {
		if c.ok && c.out-b.last() >= tailGap {
			b.point(c, c.window)
		}
	}
	return b.blockErr
}

// tailGap is the spacing of the near-the-end candidates: the last
// records of a file are reached through at most about twice that.
const tailGap = 512 << 10

// candidate is a block boundary that may become a point: its offsets, the
// text of its member before it, and the CRC-32 of that text once summed.
type candidate struct {
	in, out, member int64
	crc             uint32
	summed          bool
	window          []byte // a copy; reused from candidate to candidate
	ok              bool
}

// compress returns window compressed as a raw deflate stream, at the
// fastest level: a window is compressed for every point, during the pass.
func (b *Builder) compress(window []byte) ([]byte, error) {
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
// digests of its first and last idBytes (all of it if it is shorter), and
// its modification time.
type fileID struct {
	size       int64
	head, tail [sha256.Size]byte
	// modTime is the file's modification time in nanoseconds since 1970,
	// which Save records; 0 when it is not known (an index made from a
	// stream or a file's structure and not saved, or of version 2).
	modTime int64
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
