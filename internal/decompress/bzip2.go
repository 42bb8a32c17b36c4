package decompress

import (
	"bufio"
	"io"

	"github.com/foreachio/foreach/internal/bzblock"
)

// bzip2Decoder decodes bzip2 streams one block at a time with the
// project's block decoder (internal/bzblock, which also reads the
// randomised blocks of bzip2 0.9.0), so that it knows at each point where
// it is in the stream: a block's end, found by decoding it, is where the
// next block's magic number or the end of stream starts, at any bit. It
// takes out of r only the bytes of the stream (a block is decoded from a
// copy of what r holds, and only the bytes it used are consumed), so that
// when the stream ends r is at the byte after it, and what follows is
// decided as for every format (see afterStream).
//
// A block's bytes are given out only once its CRC has been checked
// (bzblock.Block.Check): a damaged block gives no byte, where the standard
// library's reader and bzip2 -d give its bytes up to the check. A stream
// cut short gives every complete block before the cut. The offsets of its
// errors do not depend on how the input arrives: a damaged block's is the
// byte where its magic number starts, a CRC's that fails the byte after
// what it covers, a cut's the input's length.
//
// Memory: the compressed bytes of one block (at most
// bzblock.MaxBlockBytes, about a quarter of the block's 900 kB at level 9
// on text, as much on incompressible data) plus 64 KiB, and bzblock's
// tables (about 7 MB at level 9).
type bzip2Decoder struct {
	r      *bufio.Reader
	offset func() int64 // the input offset of r's next byte
	in     bzip2Input
	d      bzblock.Decoder

	// level is the open stream's level, 0 between streams: before the
	// first (whose header detection found at r's front) when started is
	// false, after the end of one when it is true.
	level   int
	started bool
	// crc is the open stream's CRC of its blocks so far.
	crc uint32
	// blk is the block being given out (its CRC checked), nil when none.
	blk *bzblock.Block
}

func newBzip2Decoder(r *bufio.Reader, offset func() int64) *bzip2Decoder {
	return &bzip2Decoder{r: r, offset: offset}
}

func (z *bzip2Decoder) Read(p []byte) (int, error) {
	for {
		if z.blk == nil {
			if err := z.step(); err != nil {
				return 0, err
			}
			continue
		}
		n, err := z.blk.Read(p)
		if err == io.EOF {
			z.blk = nil
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

func (z *bzip2Decoder) close() {}

// step reads the next part of the input: a stream's header, a block (made
// z.blk), or a stream's end. It returns io.EOF when the input has ended
// after a complete stream, or only zero padding followed.
func (z *bzip2Decoder) step() error {
	if z.level == 0 {
		if z.started {
			next, err := afterStream(Bzip2, z.r, z.offset())
			if err != nil {
				return err
			}
			if next == endOfInput {
				return io.EOF
			}
		}
		z.started = true
		return z.header()
	}
	// The next block's magic number or the end of stream's.
	if err := z.in.take(z.r, z.in.bytesTo(48)); err != nil {
		return err
	}
	switch bzblock.Bits48(z.in.buf, int64(z.in.at)) {
	case bzblock.BlockMagic:
		return z.block()
	case bzblock.EndMagic:
		return z.end()
	}
	return &Error{Format: Bzip2, Offset: z.in.base, Err: bzblock.StructuralError("bad magic value found")}
}

// header reads a stream's header ("BZh9"), which detection or afterStream
// found at r's front followed by a magic number.
func (z *bzip2Decoder) header() error {
	h, err := z.r.Peek(bzblock.HeaderSize)
	level, ok := bzblock.Level(h)
	if !ok {
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		return bzblock.StructuralError("invalid compression level")
	}
	z.r.Discard(bzblock.HeaderSize)
	z.level, z.crc = level, 0
	z.in.reset(z.offset())
	return nil
}

// block decodes the block whose magic number is at z.in's bit at, with
// more of r each time its bytes run short, checks its CRC and makes it
// z.blk. A damaged block's *Error is at the byte where it starts.
func (z *bzip2Decoder) block() error {
	z.in.peek(z.r)
	b, err := z.d.Decode(z.in.buf, z.in.at, z.level)
	for err == bzblock.ErrShort {
		if len(z.in.buf) > bzblock.MaxBlockBytes(z.level) {
			err = bzblock.StructuralError("data exceeds block size")
			break
		}
		if err := z.in.more(z.r, z.d.Need()); err != nil {
			return err
		}
		b, err = z.d.More(z.in.buf)
	}
	if err != nil {
		return &Error{Format: Bzip2, Offset: z.in.base, Err: err}
	}
	end := int64(z.in.at) + b.End() // in bits from buf[0]
	if err := z.in.take(z.r, int((end+7)/8)); err != nil {
		return err // not expected: the decoder used only bytes buf holds
	}
	if err := b.Check(); err != nil {
		return &Error{Format: Bzip2, Offset: z.in.base + (end+7)/8, Err: err}
	}
	z.crc = bzblock.StreamCRC(z.crc, b.CRC())
	z.in.advance(end)
	z.blk = b
	return nil
}

// end reads the end of stream at z.in's bit at: its magic number, the
// stream's CRC, then the padding to a byte, after which r is at the byte
// after the stream.
func (z *bzip2Decoder) end() error {
	n := z.in.bytesTo(bzblock.EndBits)
	if err := z.in.take(z.r, n); err != nil {
		return err
	}
	if crc := uint32(bzblock.Bits48(z.in.buf, int64(z.in.at)+48) >> 16); crc != z.crc {
		return &Error{Format: Bzip2, Offset: z.in.base + int64(n), Err: bzblock.StructuralError("file checksum mismatch")}
	}
	z.level = 0
	return nil
}

// bzip2Input is the part of the input a block is decoded from: the bytes
// of r from the block's first on, those it has used consumed, and copies
// of those r holds after them.
type bzip2Input struct {
	// buf holds the input from offset base on; buf[:taken] have been
	// consumed from r (base+taken is r's offset), buf[taken:] are copies
	// of r's next bytes, not consumed: the stream may end before them.
	buf   []byte
	taken int
	base  int64
	// at is the bit of buf[0] (0-7) where the block being decoded, or the
	// next magic number, starts.
	at uint
}

// reset empties the input, which goes on at offset base of r.
func (in *bzip2Input) reset(base int64) {
	in.buf, in.taken, in.base, in.at = in.buf[:0], 0, base, 0
}

// bytesTo is how many bytes of buf hold the next n bits from bit at.
func (in *bzip2Input) bytesTo(n int) int { return (int(in.at) + n + 7) / 8 }

// peek appends to buf what r holds beyond it, without reading r's source:
// a pipe is not waited on for bytes that may not be needed.
func (in *bzip2Input) peek(r *bufio.Reader) {
	held, _ := r.Peek(r.Buffered())
	if ahead := len(in.buf) - in.taken; ahead < len(held) {
		in.buf = append(in.buf, held[ahead:]...)
	}
}

// more is called when the decoder has run short of buf: every byte of it
// is the block's, so it is consumed, and so are the bytes up to least
// (bzblock's Need: the block holds them too); then what r has next is
// appended, reading r's source (and waiting on it) only when r holds
// nothing more. The end of the input is io.ErrUnexpectedEOF.
func (in *bzip2Input) more(r *bufio.Reader, least int) error {
	n := len(in.buf)
	if err := in.take(r, max(n, least)); err != nil {
		if err == io.ErrUnexpectedEOF && len(in.buf) > n {
			return nil // a damaged header may be refused before least: decode what there is
		}
		return err
	}
	if len(in.buf) == n {
		if _, err := r.Peek(1); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
	in.peek(r)
	return nil
}

// take consumes r up to byte n of buf, appending what buf does not hold
// yet (a few bytes: a magic number and a CRC). When the input ends first,
// what there is is consumed, and the error is io.ErrUnexpectedEOF.
func (in *bzip2Input) take(r *bufio.Reader, n int) error {
	if n <= in.taken {
		return nil
	}
	if k := n - len(in.buf); k > 0 {
		r.Discard(len(in.buf) - in.taken)
		in.taken = len(in.buf)
		b, err := r.Peek(k)
		in.buf = append(in.buf, b...)
		if len(b) < k {
			r.Discard(len(b))
			in.taken = len(in.buf)
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
	r.Discard(n - in.taken)
	in.taken = n
	return nil
}

// advance drops the bytes before bit end of buf, where the next magic
// number starts (end is within buf[:taken]).
func (in *bzip2Input) advance(end int64) {
	k := int(end / 8)
	in.buf = in.buf[:copy(in.buf, in.buf[k:])]
	in.taken -= k
	in.base += int64(k)
	in.at = uint(end % 8)
}
