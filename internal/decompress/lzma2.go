package decompress

import (
	"errors"
	"io"
)

// lzDict is LZMA's dictionary: the bytes decoded last, which matches copy from, and the
// bytes decoded not yet given out. It starts small and grows up to size as it fills,
// so that a small input does not allocate a large dictionary; once it is size bytes it
// wraps. Invariants: start <= pos <= limit <= len(buf) <= size; buf[start:pos] are
// decoded and not yet given out; full is the bytes of history (at most size, the
// distance a match may reach); total counts the bytes since the last reset (the
// position LZMA's contexts are taken from).
type lzDict struct {
	buf   []byte
	size  int
	start int
	pos   int
	limit int
	full  int
	total uint64
}

// initialDict is the dictionary's first allocation, at most its size.
const initialDict = 64 << 10

// resize makes d a dictionary of size bytes, emptied (nothing left to give out).
func (d *lzDict) resize(size int) {
	n := min(size, initialDict)
	if cap(d.buf) < n || cap(d.buf) > size {
		d.buf = make([]byte, n)
	}
	*d = lzDict{buf: d.buf[:cap(d.buf)], size: size}
}

// reset forgets the history (an LZMA2 dictionary reset); what is not yet given out
// stays.
func (d *lzDict) reset() { d.full, d.total = 0, 0 }

// room prepares d, all given out, to take at most want more bytes: it grows the
// buffer when it is full and smaller than size, wraps it when it is size bytes, and
// sets limit.
func (d *lzDict) room(want int) {
	if d.pos == len(d.buf) {
		if len(d.buf) < d.size {
			n := min(d.size, 2*len(d.buf))
			grown := make([]byte, n)
			copy(grown, d.buf)
			d.buf = grown
		} else {
			d.start, d.pos = 0, 0
		}
	}
	d.limit = min(len(d.buf), d.pos+max(want, 1))
}

// read gives out what is decoded, into p.
func (d *lzDict) read(p []byte) int {
	n := copy(p, d.buf[d.start:d.pos])
	d.start += n
	return n
}

func (d *lzDict) put(b byte) {
	d.buf[d.pos] = b
	d.pos++
	d.total++
	if d.full < d.size {
		d.full++
	}
}

// back is the byte dist+1 bytes back, 0 before the first.
func (d *lzDict) back(dist int) byte {
	if dist >= d.full {
		return 0
	}
	i := d.pos - dist - 1
	if i < 0 {
		i += len(d.buf)
	}
	return d.buf[i]
}

// repeat writes n bytes copied from dist+1 bytes back (dist < full; pos+n <= limit).
func (d *lzDict) repeat(dist, n int) {
	src := d.pos - dist - 1
	if src < 0 {
		src += len(d.buf)
	}
	if src < d.pos && d.pos-src >= n || src >= d.pos+n && src+n <= len(d.buf) {
		copy(d.buf[d.pos:d.pos+n], d.buf[src:src+n]) // apart: the common case
	} else {
		// The copy overlaps what it writes (a run repeating itself), or its source
		// wraps around the end of the buffer: byte by byte.
		for i := range n {
			d.buf[d.pos+i] = d.buf[src]
			if src++; src == len(d.buf) {
				src = 0
			}
		}
	}
	d.pos += n
	d.total += uint64(n)
	d.full = min(d.size, d.full+n)
}

// readFrom reads at most n bytes of an uncompressed chunk from in, up to limit.
func (d *lzDict) readFrom(in io.Reader, n int) (int, error) {
	k, err := io.ReadFull(in, d.buf[d.pos:min(d.limit, d.pos+n)])
	d.pos += k
	d.total += uint64(k)
	d.full = min(d.size, d.full+k)
	return k, err
}

var errLZMA2Control = errors.New("xz: compressed data is corrupt (an LZMA2 chunk header)")

// lzma2Chunk says what an lzma2Reader is in.
type lzma2Chunk uint8

const (
	lzma2Control      lzma2Chunk = iota // a control byte comes next
	lzma2LZMA                           // an LZMA chunk is being decoded
	lzma2Uncompressed                   // an uncompressed chunk is being copied
	lzma2End                            // the end marker was read
)

// lzma2Reader decodes LZMA2 data (the chunks of one xz block) from in. An LZMA chunk's
// compressed bytes (at most 64 KiB) are read whole before it is decoded, so that the
// range decoder reads a slice; a chunk cut short by the end of the input is decoded
// as far as its bytes go, every byte of it given out, and then the error.
// Invariants: kind says what comes next; left is an uncompressed chunk's bytes still
// to copy; needReset and needProps are LZMA2's rules (the first chunk resets the
// dictionary; an LZMA chunk after a dictionary reset sets new properties); cut is set
// when the chunk being decoded is all the input had.
type lzma2Reader struct {
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

// reset starts r on the LZMA2 data of a new block, with a dictionary of size bytes.
func (r *lzma2Reader) reset(in io.Reader, size int) {
	r.in, r.kind, r.needReset, r.needProps, r.cut, r.err = in, lzma2Control, true, true, false, nil
	r.dict.resize(size)
	if r.cbuf == nil {
		r.cbuf = make([]byte, 1<<16)
	}
}

// Read gives out the decoded bytes: io.EOF at the end marker, another error once
// everything decoded before it is given out.
func (r *lzma2Reader) Read(p []byte) (int, error) {
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
func (r *lzma2Reader) step() error {
	switch r.kind {
	case lzma2Control:
		return r.control()
	case lzma2LZMA:
		c := &r.chunk
		if err := c.decode(&r.state, &r.dict); err != nil {
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
func (r *lzma2Reader) control() error {
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
