package inflate

import (
	"bufio"
	"errors"
	"io"
)

// Sizes of the output buffer.
const (
	// WindowSize is the most history a deflate distance reaches back.
	WindowSize = 1 << 15
	// burst is the most a Read decodes at once past the window.
	burst = 1 << 17
	// slack is the room after the decoding limit: a symbol that starts
	// before the limit ends within it, with the few bytes a copy by 8-byte
	// words writes past a match's end.
	slack = maxMatch + 16
	// outSize is the length of the output buffer.
	outSize = WindowSize + burst + slack

	maxMatch = 258
	// maxHeader is the most bytes a block header can take (3 bits, the
	// counts, the code-length code and 316 code lengths of 7+7 bits).
	maxHeader = 600
)

// ErrCorrupt is wrapped by the error of a stream that is not valid deflate.
var ErrCorrupt = errors.New("invalid deflate data")

// CorruptError is the error of a stream that is not valid deflate: what is
// wrong and where it was found.
type CorruptError struct {
	Bit    int64  // the offset in the stream, in bits, at which decoding stopped
	Reason string // what is wrong, such as "distance too far back"
}

func (e *CorruptError) Error() string { return ErrCorrupt.Error() + ": " + e.Reason }

// Unwrap returns ErrCorrupt.
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// Block is where a deflate block starts.
type Block struct {
	// Bit is its offset in the compressed stream, in bits from the first
	// byte the decoder read (bit 0 is that byte's least significant bit).
	Bit int64
	// Out is the number of decompressed bytes before it, from where the
	// decoder started (a window given to ResetAt not counted).
	Out int64
}

// state is where a Decoder is in the stream.
type state uint8

const (
	atHeader  state = iota // at a block boundary: the block's header is next
	inHuffman              // inside a block of Huffman-coded symbols
	inStored               // inside a stored block, with stored bytes left
	atEnd                  // the final block has ended
)

// Decoder decodes a raw deflate stream (RFC 1951) read from a Source. It
// holds a 32 KiB window of history and a buffer of the bytes decoded and not
// yet read, about 160 KiB in all, however long the stream.
//
// It reports where each block starts, if asked (SetBlockFunc), and can start
// at a block boundary given the history before it (ResetAt): what an index
// of a compressed file needs.
//
// A corrupt stream gives every byte decoded before the damage, then a
// *CorruptError; a stream cut short, every byte whose symbol is whole, then
// io.ErrUnexpectedEOF. An error of the source is returned as it is. A
// Decoder is not safe for concurrent use.
type Decoder struct {
	in  input
	out output

	// lit and dist are the current block's tables: fixedTables' two,
	// or dynLit and dynDist.
	lit     *[litlenEnough]uint32
	dist    *[distEnough]uint32
	dynLit  [litlenEnough]uint32
	dynDist [distEnough]uint32

	state  state
	final  bool // the current block is the stream's last
	stored int  // inStored: the stored bytes not yet copied
	// hooked is set once the current header's block has been reported.
	hooked  bool
	onBlock func(Block)
	err     error // the error that stopped decoding, returned once the output is read
}

// NewReader returns a Decoder of the deflate stream r holds. It reads r
// through a bufio.Reader of 64 KiB unless r is a Source, and then reads no
// byte past the stream's end.
func NewReader(r io.Reader) *Decoder {
	src, ok := r.(Source)
	if !ok {
		src = bufio.NewReaderSize(r, 64<<10)
	}
	d := new(Decoder)
	d.Reset(src)
	return d
}

// Reset makes d decode the deflate stream that starts at src's next byte,
// keeping its buffers and its block function.
func (d *Decoder) Reset(src Source) {
	d.ResetAt(src, 0, nil)
}

// ResetAt makes d decode from a block boundary in the middle of a stream:
// the boundary is bit skip (0 to 7) of src's next byte, and window holds the
// decompressed bytes before it (the last 32 KiB of them suffice; fewer at
// the start of a stream). Block offsets then count from src's next byte,
// bit 0, and decompressed offsets from the boundary.
func (d *Decoder) ResetAt(src Source, skip uint, window []byte) {
	d.in.reset(src)
	d.out.reset(window)
	d.state, d.final, d.stored, d.hooked, d.err = atHeader, false, 0, false, nil
	if skip > 0 {
		if err := d.in.fill(skip); err != nil {
			d.err = err
		} else if d.in.nbits < skip {
			d.err = io.ErrUnexpectedEOF
		} else {
			d.in.drop(skip & 7)
		}
	}
}

// SetBlockFunc makes d call fn at every block boundary, before it reads the
// block's header, from inside Read; nil for none. Window, called from fn,
// gives the history before the boundary.
func (d *Decoder) SetBlockFunc(fn func(Block)) { d.onBlock = fn }

// Window returns the last decompressed bytes, up to 32 KiB: the history a
// block that starts here may refer to. The slice is d's own, valid until
// the next Read.
func (d *Decoder) Window() []byte {
	return d.out.buf[max(0, d.out.w-WindowSize):d.out.w]
}

// InputBits returns the bits of the stream the decoder has consumed.
func (d *Decoder) InputBits() int64 { return d.in.consumed() }

// Output returns the number of bytes decoded so far (from the boundary,
// after a ResetAt), read or not.
func (d *Decoder) Output() int64 { return d.out.offset() }

// Read reads decompressed bytes into p. It returns io.EOF after the final
// block, the source then standing at the byte after the stream.
func (d *Decoder) Read(p []byte) (int, error) {
	for {
		if d.out.r < d.out.w {
			n := copy(p, d.out.buf[d.out.r:d.out.w])
			d.out.r += n
			return n, nil
		}
		if d.err != nil {
			return 0, d.err
		}
		if d.state == atEnd {
			return 0, io.EOF
		}
		if len(p) == 0 {
			return 0, nil
		}
		d.decode()
	}
}

// Discard decodes the next n bytes and drops them, without copying them
// out, and returns how many it dropped: fewer than n only with an error
// (io.EOF at the end of the stream).
func (d *Decoder) Discard(n int64) (int64, error) {
	var done int64
	for done < n {
		if d.out.r < d.out.w {
			k := int(min(int64(d.out.w-d.out.r), n-done))
			d.out.r += k
			done += int64(k)
			continue
		}
		if d.err != nil {
			return done, d.err
		}
		if d.state == atEnd {
			return done, io.EOF
		}
		d.decode()
	}
	return done, nil
}

// WriteTo writes the rest of the decompressed stream to w, without copying
// it through a buffer of the caller's.
func (d *Decoder) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if d.out.r < d.out.w {
			n, err := w.Write(d.out.buf[d.out.r:d.out.w])
			d.out.r += n
			total += int64(n)
			if err != nil {
				return total, err
			}
			continue
		}
		if d.err != nil {
			return total, d.err
		}
		if d.state == atEnd {
			return total, nil
		}
		d.decode()
	}
}

// decode decodes into the output buffer, all of whose bytes have been
// read, until the burst is full, the stream ends or fails, or the input
// runs out with bytes decoded (they go out before the source is asked for
// more, which on a pipe may wait).
func (d *Decoder) decode() {
	d.out.makeRoom()
	for d.err == nil && d.state != atEnd && d.out.w < d.out.limit {
		var ok bool
		switch d.state {
		case atHeader:
			ok = d.header()
		case inHuffman:
			ok = d.huffman()
		case inStored:
			ok = d.copyStored()
		}
		if ok {
			continue
		}
		if d.out.w > d.out.r {
			return
		}
		if err := d.in.fetch(); err != nil {
			d.fail(err)
		}
	}
}

// fail stops decoding with err: io.EOF is a stream cut short, after which
// every byte of the source has been consumed.
func (d *Decoder) fail(err error) {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
		d.in.finish()
		d.in.src.Discard(d.in.src.Buffered())
	}
	d.err = err
}

// corrupt stops decoding at invalid data. The source is left at the byte
// where it was found, so that a caller counting the bytes consumed knows
// where that is.
func (d *Decoder) corrupt(reason string) {
	d.err = &CorruptError{Bit: d.in.consumed(), Reason: reason}
	d.in.finish()
}

// endBlock goes on after a block's end.
func (d *Decoder) endBlock() {
	if d.final {
		d.state = atEnd
		d.in.finish()
		return
	}
	d.state, d.hooked = atHeader, false
}
