package lzma

import "io"

// lzma2Chunk says what a Reader2 is in.
type lzma2Chunk uint8

const (
	lzma2Control      lzma2Chunk = iota // a control byte comes next
	lzma2LZMA                           // an LZMA chunk is being decoded
	lzma2Uncompressed                   // an uncompressed chunk is being copied
	lzma2End                            // the end marker was read
)

// Reader2 decodes LZMA2 data (the chunks of one xz block) from in. An LZMA chunk's
// compressed bytes (at most 64 KiB) are read whole before it is decoded, so that the
// range decoder reads a slice; a chunk cut short by the end of the input is decoded
// as far as its bytes go, every byte of it given out, and then the error.
// Invariants: kind says what comes next; left is an uncompressed chunk's bytes still
// to copy; needReset and needProps are LZMA2's rules (the first chunk resets the
// dictionary; an LZMA chunk after a dictionary reset sets new properties); cut is set
// when the chunk being decoded is all the input had.
type Reader2 struct {
	in        io.Reader
	dict      lzDict
	state     lzmaState
	chunk     lzmaChunk
	kind      lzma2Chunk
	left      int
	needReset bool
	needProps bool
	cut       bool
	cbuf      []byte // the LZMA chunk's compressed bytes, capacity 64 KiB
	err       error  // what ends the data once what is decoded is given out
}

// Reset starts r on LZMA2 data (the chunks of an xz block) read from in, with a dictionary of size bytes.
func (r *Reader2) Reset(in io.Reader, size int) {
	r.in, r.kind, r.needReset, r.needProps, r.cut, r.err = in, lzma2Control, true, true, false, nil
	r.dict.resize(size)
	if r.cbuf == nil {
		r.cbuf = make([]byte, 1<<16)
	}
}

// Read gives out the decoded bytes: io.EOF at the end marker, another error once
// everything decoded before it is given out.
func (r *Reader2) Read(p []byte) (int, error) {
	for {
		if n := r.dict.read(p); n > 0 {
			return n, nil
		}
		if r.err != nil {
			return 0, r.err
		}
		r.dict.room(len(p))
		r.err = r.step()
	}
}

// step decodes what it can into the dictionary, up to its limit.
func (r *Reader2) step() error {
	switch r.kind {
	case lzma2Control:
		return r.control()
	case lzma2LZMA:
		c := &r.chunk
		if err := c.decode(&r.state, &r.dict); err != nil {
			if err == errEndMarker {
				return errLZMAData // LZMA2 has no use for it
			}
			return err
		}
		switch {
		case c.rc.short && r.cut:
			return io.ErrUnexpectedEOF
		case c.rc.short:
			return errLZMAData // the chunk's bytes did not hold its data
		case c.left == 0 && c.pending == 0:
			if !c.rc.finished() {
				return errLZMAData
			}
			r.kind = lzma2Control
		}
		return nil
	case lzma2Uncompressed:
		n, err := r.dict.readFrom(r.in, r.left)
		if r.left -= n; r.left == 0 {
			r.kind = lzma2Control
		}
		return truncation(err)
	}
	return io.EOF
}

// control reads a chunk's header, and an LZMA chunk's compressed bytes.
func (r *Reader2) control() error {
	var h [6]byte
	if _, err := io.ReadFull(r.in, h[:1]); err != nil {
		return truncation(err)
	}
	c := h[0]
	switch {
	case c == 0:
		r.kind = lzma2End
		return io.EOF
	case c == 1 || c >= 0xe0:
		r.dict.reset()
		r.needReset, r.needProps = false, true
	case r.needReset || c > 2 && c < 0x80:
		return errLZMA2Control
	}
	if c < 0x80 { // uncompressed: its size less one
		if _, err := io.ReadFull(r.in, h[1:3]); err != nil {
			return truncation(err)
		}
		r.kind, r.left = lzma2Uncompressed, int(h[1])<<8|int(h[2])+1
		return nil
	}
	n := 4
	if c >= 0xc0 {
		n = 5 // new properties
	} else if r.needProps {
		return errLZMA2Control
	}
	if _, err := io.ReadFull(r.in, h[1:1+n]); err != nil {
		return truncation(err)
	}
	if c >= 0xc0 {
		lc, lp, pb, ok := lzmaProps(h[5])
		if !ok {
			return errLZMA2Control
		}
		r.state.reset(lc, lp, pb)
		r.needProps = false
	} else if c >= 0xa0 {
		r.state.reset(r.state.lc, r.state.lp, r.state.pb)
	}
	size := int(c&0x1f)<<16 | int(h[1])<<8 | int(h[2]) + 1
	packed := int(h[3])<<8 | int(h[4]) + 1
	got, err := io.ReadFull(r.in, r.cbuf[:packed])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return err
	}
	r.cut = err != nil
	if err := r.chunk.rc.init(r.cbuf[:got]); err != nil {
		return err
	}
	r.chunk.left, r.chunk.pending = size, 0
	r.kind = lzma2LZMA
	return nil
}

// lzmaProps reads LZMA's properties byte, (pb*5+lp)*9+lc, with LZMA2's limit lc+lp <= 4.
func lzmaProps(b byte) (lc, lp, pb uint, ok bool) {
	if b >= 9*5*5 {
		return 0, 0, 0, false
	}
	lc, lp, pb = uint(b%9), uint(b/9%5), uint(b/45)
	return lc, lp, pb, lc+lp <= 4
}

// truncation is err as the decoder reports it: the end of the input inside the data
// is io.ErrUnexpectedEOF.
func truncation(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
