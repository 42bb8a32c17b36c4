package decompress

import (
	"bufio"
	"errors"
	"io"
)

// framing is the input of a decoder that reads a format's streams one after
// another on its own (zstd's frames, lz4's, xz's streams). It follows the
// container structure of the format in the bytes the decoder reads (frame
// headers, block sizes, checksums; see framer) without decoding them, for
// what the decoders do not do:
//
//   - at the end of every stream it decides what follows (see afterStream) before
//     the decoder sees a byte of it: another stream is handed on; zero
//     padding or the end of the input, and trailing data, end the input for
//     the decoder (io.EOF), so that it delivers everything; end then says
//     which it was;
//   - an input that ends inside a stream is cut short, whatever the decoder
//     thinks of it (the xz package takes some cuts for a clean end);
//   - the framer may refuse a header before the decoder acts on it (an xz
//     dictionary beyond maxWindow, which the decoder would allocate).
//
// It reads the bytes in the order the decoder consumes them, and never
// more than the rest of the current unit in one read, so its state does not
// depend on how the decoder's reads are sized, and no byte after a stream
// is read before afterStream has seen it. Input the framer cannot follow (what
// the decoder itself will reject, or a format variant without an end
// marker) makes it stop watching: the decoder's word is then taken.
type framing struct {
	r      *bufio.Reader
	format Format
	frames framer
	offset func() int64 // the input offset of r's next byte

	// The unit the decoder is reading: kind, and need, the bytes of it still
	// to read (need > 0 while kind is collect or skip). hdr holds a collected
	// unit's bytes so far, in hdrBuf. pos counts the bytes of the current
	// stream read so far.
	kind   unitKind
	need   int64
	hdr    []byte
	pos    int64
	hdrBuf [maxUnit]byte
	// kept holds the bytes of the verbatim unit read so far; cut is set when the
	// input ended inside one.
	kept []byte
	cut  bool

	// done: at a boundary, afterStream found the end of the input (or padding,
	// or trailing data: then err is set). err is what ends the input other
	// than cleanly: trailing data, a magic number cut short, an error of the
	// source, or a header the framer refused. Once the framer refuses, every
	// read returns err.
	done    bool
	err     error
	refused bool
}

// unitKind says how the framing reads the next bytes.
type unitKind uint8

const (
	collect  unitKind = iota // gather need bytes, then the framer parses them
	skip                     // hand need bytes on unseen, then ask the framer
	boundary                 // a stream has ended: afterStream decides what comes next
	lost                     // the structure cannot be followed: hand everything on
	// verbatim: hand need bytes on as skip does, keeping them: they are a block
	// stored as it is (a zstd raw block, an lz4 block stored uncompressed), which
	// the format's tool prints up to where the input ends (see Cut).
	verbatim
)

// maxUnit is the longest unit a framer collects: an xz block header.
const maxUnit = 1024

// unit is what a framer expects next.
type unit struct {
	kind unitKind
	n    int64 // bytes to collect or skip
}

// A framer knows one format's container structure.
type framer interface {
	// start returns the first unit of a stream (the stream's magic number is
	// known to be there).
	start() unit
	// parsed returns the unit after one read in full: h holds its bytes for
	// a collected unit, nil for a skipped one; pos is the bytes of the stream
	// read so far. A non-nil error refuses the stream.
	parsed(h []byte, pos int64) (unit, error)
}

// newFraming returns a framing at the start of the input, which is taken as a
// boundary: afterStream checks the first stream's magic number like any other.
func newFraming(r *bufio.Reader, f Format, frames framer, offset func() int64) *framing {
	return &framing{r: r, format: f, frames: frames, offset: offset, kind: boundary}
}

// ready decides, at a boundary, what follows, and starts the next stream if
// there is one. It returns io.EOF when the decoder's input has ended.
func (w *framing) ready() error {
	if w.refused {
		return w.err
	}
	if w.kind == boundary && !w.done {
		next, err := afterStream(w.format, w.r, w.offset())
		switch {
		case err != nil:
			w.done, w.err = true, err
		case next == endOfInput:
			w.done = true
		default:
			w.pos = 0
			w.begin(w.frames.start())
		}
	}
	if w.done {
		return io.EOF
	}
	return nil
}

// begin enters unit u, acting at once on units of no bytes.
func (w *framing) begin(u unit) {
	for {
		w.kind, w.need, w.hdr, w.kept = u.kind, u.n, w.hdrBuf[:0], w.kept[:0]
		if !w.counting() || u.n > 0 {
			return
		}
		u = w.parse()
		if w.refused {
			return
		}
	}
}

// parse asks the framer for the unit after the current one.
func (w *framing) parse() unit {
	var h []byte
	if w.kind == collect {
		h = w.hdr
	}
	u, err := w.frames.parsed(h, w.pos)
	if err != nil {
		w.refused, w.err = true, err
		return unit{kind: lost}
	}
	if u.kind == collect && u.n > maxUnit {
		return unit{kind: lost}
	}
	return u
}

// counting reports whether the unit is a number of bytes (collect, skip, verbatim).
func (w *framing) counting() bool {
	return w.kind == collect || w.kind == skip || w.kind == verbatim
}

// see takes in b, bytes just read, which are at most the rest of the unit.
func (w *framing) see(b []byte) {
	switch w.kind {
	case collect:
		w.hdr = append(w.hdr, b...)
	case verbatim:
		w.kept = append(w.kept, b...)
	case skip:
	default:
		return
	}
	w.need -= int64(len(b))
	w.pos += int64(len(b))
	if w.need == 0 {
		w.begin(w.parse())
	}
}

func (w *framing) Read(p []byte) (int, error) {
	if err := w.ready(); err != nil {
		return 0, err
	}
	if w.counting() && int64(len(p)) > w.need {
		p = p[:w.need]
	}
	n, err := w.r.Read(p)
	w.see(p[:n])
	if err == io.EOF && w.kind == verbatim {
		w.cut = true
	}
	if w.refused {
		return 0, w.err
	}
	return n, err
}

func (w *framing) ReadByte() (byte, error) {
	if err := w.ready(); err != nil {
		return 0, err
	}
	b, err := w.r.ReadByte()
	if err != nil {
		if err == io.EOF && w.kind == verbatim {
			w.cut = true
		}
		return 0, err
	}
	if w.kind == skip && w.need > 1 {
		w.need-- // the common case, kept short: a byte inside compressed data
		w.pos++
		return b, nil
	}
	w.see([]byte{b})
	if w.refused {
		return 0, w.err
	}
	return b, nil
}

// Cut returns, when the input ended inside a block stored as it is, the bytes of it
// that were read: what the format's tool prints of it (zstd -dc, lz4 -dc), and the
// decoder, which decodes a block whole, does not.
func (w *framing) Cut() []byte {
	if !w.cut {
		return nil
	}
	return w.kept
}

// result turns the error the decoder returned into the Reader's: a refused
// header; at the decoder's io.EOF, what end says; otherwise the decoder's
// error.
func (w *framing) result(err error) error {
	if w.refused {
		return w.err
	}
	if err == io.EOF {
		return w.end()
	}
	return err
}

// end reports how the input ended, once the decoder has reported io.EOF:
// io.EOF when every stream was complete and nothing but padding followed;
// the trailing data or the cut magic number afterStream found after the last
// stream; io.ErrUnexpectedEOF when the input ended inside a stream. A framing
// that lost the structure takes the decoder's word.
func (w *framing) end() error {
	if err := w.ready(); err != io.EOF && err != nil {
		return err
	}
	switch {
	case w.err != nil:
		return w.err
	case w.done, w.kind == lost:
		return io.EOF
	}
	return io.ErrUnexpectedEOF
}

// cutTail gives out, after a decoder's error, the bytes of a block stored as it is
// that the input ended in (framing.Cut), then the error. Invariants: err is nil until
// start finds such bytes; then tail holds those not yet given out.
type cutTail struct {
	tail []byte
	err  error
}

// start takes the decoder's error err: when the input ended inside a stored block, the
// tail to give out before it. It returns err.
func (c *cutTail) start(w *framing, err error) error {
	if tail := w.Cut(); len(tail) > 0 && errors.Is(err, io.ErrUnexpectedEOF) {
		c.tail, c.err = tail, err
	}
	return err
}

func (c *cutTail) active() bool { return c.err != nil }

func (c *cutTail) Read(p []byte) (int, error) {
	if len(c.tail) == 0 {
		return 0, c.err
	}
	n := copy(p, c.tail)
	c.tail = c.tail[n:]
	return n, nil
}
