package lzma

import "io"

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
