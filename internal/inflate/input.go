package inflate

import (
	"bufio"
	"encoding/binary"
	"io"
)

// Source is where a Decoder reads the compressed stream: *bufio.Reader is
// one. The Decoder reads the bytes Source has buffered in place (Peek) and
// discards only the bytes it has consumed, so that when the deflate stream
// ends, the source stands at the byte after it (a gzip trailer, the next
// member), as if the stream had been read byte by byte.
type Source interface {
	Peek(n int) ([]byte, error)
	Discard(n int) (int, error)
	Buffered() int
}

// input is the compressed stream as a Decoder reads it: a window on the
// bytes src has buffered, and a bit buffer loaded from it.
type input struct {
	src Source
	// in is src's buffered bytes as last peeked (in[0] is the next byte src
	// would give), of which in[:ip] are loaded into bits. The bytes loaded
	// but not yet consumed, the last nbits>>3 of in[:ip], are always still
	// in src, so that they can be given back (unload).
	in []byte
	ip int
	// bits holds the next nbits bits of the stream, the first in bit 0. The
	// bits above them are zero or the stream's next bits (the fast refill
	// loads whole words and counts only whole bytes), so that or-ing the
	// next bytes in at nbits is always right.
	bits  uint64
	nbits uint
	// base is the number of bytes discarded from src since the decoder
	// started: in[0] is byte base of the stream.
	base int64
}

func (in *input) reset(src Source) {
	*in = input{src: src}
}

// consumed returns the bits of the stream consumed so far.
func (in *input) consumed() int64 {
	return (in.base+int64(in.ip))*8 - int64(in.nbits)
}

// refill loads bytes from in until bits holds at least 57 bits or in is
// exhausted.
func (in *input) refill() {
	for in.nbits <= 56 && in.ip < len(in.in) {
		in.bits |= uint64(in.in[in.ip]) << in.nbits
		in.ip++
		in.nbits += 8
	}
}

// refillWord is refill when at least 8 bytes of in are left: one load, and
// bits then holds 56 to 63 bits.
func (in *input) refillWord() {
	in.bits |= binary.LittleEndian.Uint64(in.in[in.ip:]) << (in.nbits & 63)
	in.ip += int((63 - in.nbits) >> 3)
	in.nbits |= 56
}

// drop consumes n bits, n <= nbits.
func (in *input) drop(n uint) {
	in.bits >>= n & 63
	in.nbits -= n
}

// unload gives back the whole bytes of bits: afterwards bits holds only the
// rest of a partly consumed byte (fewer than 8 bits), and in[ip] is the
// first byte not consumed at all.
func (in *input) unload() {
	in.ip -= int(in.nbits >> 3)
	in.nbits &= 7
	in.bits &= 1<<in.nbits - 1
}

// align drops the rest of a partly consumed byte, and unloads: the stream
// then stands at in[ip], a byte boundary, with bits empty.
func (in *input) align() {
	in.unload()
	in.bits, in.nbits = 0, 0
}

// fetch discards the consumed bytes from src and peeks at what it has
// buffered, reading more from src when it has none beyond the bytes not
// yet consumed. It returns io.EOF when src has no more, and an error of
// src as it is.
func (in *input) fetch() error {
	in.unload()
	in.src.Discard(in.ip)
	in.base += int64(in.ip)
	in.ip = 0
	buffered := in.src.Buffered()
	_, err := in.src.Peek(buffered + 1)
	in.in, _ = in.src.Peek(in.src.Buffered())
	if len(in.in) > buffered || err == bufio.ErrBufferFull {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// fill loads bits until at least n bits are held or the stream ends, then
// reporting nil with fewer. It returns an error of src.
func (in *input) fill(n uint) error {
	for in.nbits < n {
		if in.ip < len(in.in) {
			in.refill()
			continue
		}
		if err := in.fetch(); err != nil {
			if err == io.EOF {
				in.refill() // the bytes fetch gave back
				return nil
			}
			return err
		}
	}
	return nil
}

// finish consumes the rest of the stream's last byte and gives src back
// the bytes after it: src then stands at the first byte after the stream.
func (in *input) finish() {
	in.align()
	in.src.Discard(in.ip)
	in.base += int64(in.ip)
	in.ip = 0
	in.in = nil
}
