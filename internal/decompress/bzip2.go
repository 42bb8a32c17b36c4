package decompress

import (
	"bufio"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"io"
)

// bzip2Decoder decodes bzip2 streams with the standard library's reader,
// which reads concatenated streams on its own. Where a stream ends is only
// known by decoding it (its end-of-stream marker is bit-aligned, after
// Huffman-coded blocks), so the end of the last stream is recognised after
// the fact, from the reader's error and the last bytes it read (see
// pastEnd), and what follows it is then decided as for every format (see
// afterStream).
type bzip2Decoder struct {
	d      io.Reader
	in     *bzip2Input
	offset func() int64 // the input offset of the next byte of in.r
}

func newBzip2Decoder(r *bufio.Reader, offset func() int64) *bzip2Decoder {
	in := &bzip2Input{r: r}
	return &bzip2Decoder{d: bzip2.NewReader(in), in: in, offset: offset}
}

func (b *bzip2Decoder) Read(p []byte) (int, error) {
	n, err := b.d.Read(p)
	if err == nil || err == io.EOF {
		return n, err
	}
	k, ok := b.in.pastEnd(err)
	if !ok {
		return n, err
	}
	next, ferr := afterStream(Bzip2, b.in.r, b.in.last(k), b.offset()-int64(k))
	switch {
	case ferr != nil:
		return n, ferr
	case next == endOfInput:
		return n, io.EOF
	}
	return n, err // another stream's magic number, damaged after it
}

func (b *bzip2Decoder) close() {}

// bzip2Input is what the bzip2 reader reads: r, a byte at a time (the
// reader takes an io.ByteReader as it is), with the last bytes kept.
type bzip2Input struct {
	r    *bufio.Reader
	ring [32]byte // the last bytes read: byte i of the input at ring[i%32]
	n    uint64   // bytes read
}

func (in *bzip2Input) ReadByte() (byte, error) {
	c, err := in.r.ReadByte()
	if err == nil {
		in.ring[in.n%uint64(len(in.ring))] = c
		in.n++
	}
	return c, err
}

func (in *bzip2Input) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	for _, c := range p[:n] {
		in.ring[in.n%uint64(len(in.ring))] = c
		in.n++
	}
	return n, err
}

// last returns the last k bytes read (k <= 32, and no more than were read).
func (in *bzip2Input) last(k int) []byte {
	b := make([]byte, k)
	for i := range b {
		b[i] = in.ring[(in.n-uint64(k)+uint64(i))%uint64(len(in.ring))]
	}
	return b
}

// The errors of the standard library's bzip2 reader after the end of a
// complete stream (its checksum verified), when the next bytes do not
// start another: it reads two bytes for the magic number "BZ", then one
// for 'h', then the level, and then six for the first block's magic number.
const (
	errNotBZ      = "bad magic value in continuation file" // 2 bytes read past the end
	errNotH       = "non-Huffman entropy encoding"         // 3
	errNotLevel   = "invalid compression level"            // 4
	errNotABlock  = "bad magic value found"                // 10, or a damaged stream
	bzip2EOSMagic = 0x177245385090                         // the end-of-stream marker's 48 bits
)

// pastEnd reports whether err, an error of the bzip2 reader, came from
// reading past the end of a complete stream, and if so how many bytes past
// it the reader had read. The first three errors above arise nowhere else
// (the first stream's header was checked by detection). "bad magic value
// found" also comes from a damaged stream, and io.ErrUnexpectedEOF from a
// stream cut short: there the last bytes tell, when an end-of-stream
// marker ends k bytes before them (a 48-bit pattern, which compressed data
// matches by chance at one position in about 2^45).
func (in *bzip2Input) pastEnd(err error) (int, bool) {
	var se bzip2.StructuralError
	if errors.As(err, &se) {
		switch string(se) {
		case errNotBZ:
			return 2, true
		case errNotH:
			return 3, true
		case errNotLevel:
			return 4, true
		case errNotABlock:
			return 10, in.endsStream(10)
		}
		return 0, false
	}
	if err == io.ErrUnexpectedEOF {
		for k := 1; k < 10; k++ {
			if in.endsStream(k) {
				return k, true
			}
		}
	}
	return 0, false
}

// endsStream reports whether the bytes read, but the last k, end with an
// end-of-stream marker: its 48-bit magic number and 32-bit checksum, then
// 0 to 7 bits of padding to a byte boundary.
func (in *bzip2Input) endsStream(k int) bool {
	const n = 11 // bytes that hold the marker, the checksum and the padding
	if in.n < uint64(k+n) {
		return false
	}
	b := in.last(k + n)[:n]
	// With p bits of padding the magic number starts 8-p bits into b, and
	// so lies within its first 8 bytes.
	w := binary.BigEndian.Uint64(b)
	for p := 0; p < 8; p++ {
		if w>>(8+p)&(1<<48-1) == bzip2EOSMagic {
			return true
		}
	}
	return false
}
