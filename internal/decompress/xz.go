package decompress

import (
	"bufio"
	"fmt"
)

// xzWatch is the xz decoder's input. It follows the container structure of
// the xz format (streams, blocks, LZMA2 chunks, index, footer and padding)
// in the bytes the decoder reads, without decoding them, for two things
// the xz package does not do:
//
//   - refuse a block whose LZMA2 dictionary is larger than maxWindow before
//     the decoder allocates it (a 100-byte file may declare 4 GiB);
//   - tell an input that ends after a complete stream from one cut short:
//     the xz package reports a stream cut inside a block header, or right
//     before one, as a clean end (io.EOF).
//
// It reads the bytes in the order the decoder consumes them, so its state
// does not depend on how the decoder's reads are sized. Input it cannot
// follow (what the decoder itself will reject) makes it stop watching.
type xzWatch struct {
	r   *bufio.Reader
	err error // a refused dictionary: returned by every later read

	state xzState
	next  xzState // the state after a skip
	pos   int64   // bytes of the current stream read, for 4-byte alignment
	need  int     // bytes still to collect into hdr, or to skip
	hdr   []byte  // the header being collected, in hdrBuf
	check int     // size of the current stream's check field
	// varint is the index field being read, shift its bits so far;
	// records counts the index fields still to read after it, once the
	// first (their number) is counted.
	varint, records uint64
	shift           uint
	counted         bool
	pad             int64 // stream padding bytes since the last footer

	hdrBuf [1024]byte
}

type xzState uint8

const (
	xzStreamHeader xzState = iota // collecting the 12-byte stream header
	xzBlockStart                  // a block header's size byte, or 0 for the index
	xzBlockHeader                 // collecting a block header
	xzChunk                       // an LZMA2 chunk's control byte
	xzChunkHeader                 // collecting the rest of a chunk header
	xzSkip                        // skipping need bytes, then next
	xzIndex                       // reading the index's varints
	xzFooter                      // collecting the 12-byte stream footer
	xzAfter                       // after a footer: padding or another stream
	xzLost                        // input the watch cannot follow
)

func newXzWatch(r *bufio.Reader) *xzWatch {
	x := &xzWatch{r: r}
	x.collect(xzStreamHeader, 12, nil)
	return x
}

// complete reports whether the bytes read so far end with a complete
// stream and its padding (or could not be followed, in which case the
// decoder's word is taken).
func (x *xzWatch) complete() bool {
	return x.state == xzLost || x.state == xzAfter && x.pad%4 == 0
}

func (x *xzWatch) ReadByte() (byte, error) {
	if x.err != nil {
		return 0, x.err
	}
	b, err := x.r.ReadByte()
	if err == nil {
		if x.state == xzSkip && x.need > 1 {
			x.need--
			x.pos++
		} else {
			x.see([]byte{b})
		}
		if x.err != nil {
			return 0, x.err
		}
	}
	return b, err
}

func (x *xzWatch) Read(p []byte) (int, error) {
	if x.err != nil {
		return 0, x.err
	}
	n, err := x.r.Read(p)
	x.see(p[:n])
	if x.err != nil {
		return 0, x.err
	}
	return n, err
}

// collect starts collecting a header of n bytes in state s, first holding
// the bytes in first.
func (x *xzWatch) collect(s xzState, n int, first []byte) {
	x.state = s
	x.hdr = append(x.hdrBuf[:0], first...)
	x.need = n - len(first)
}

// skip skips n bytes, then enters state s.
func (x *xzWatch) skip(n int, s xzState) {
	if n == 0 {
		x.enter(s)
		return
	}
	x.state, x.need, x.next = xzSkip, n, s
}

// enter goes to state s, which after a skip is xzBlockStart, xzChunk or
// xzFooter.
func (x *xzWatch) enter(s xzState) {
	if s == xzFooter {
		x.collect(xzFooter, 12, nil)
		return
	}
	x.state = s
}

// alignThen skips the padding to the next multiple of four bytes of the
// stream, then n bytes (a check field), then goes to state s.
func (x *xzWatch) alignThen(n int, s xzState) {
	x.skip(int((4-x.pos%4)%4)+n, s)
}

func (x *xzWatch) see(p []byte) {
	for len(p) > 0 && x.state != xzLost && x.err == nil {
		switch x.state {
		case xzSkip:
			k := min(x.need, len(p))
			x.need -= k
			x.pos += int64(k)
			p = p[k:]
			if x.need == 0 {
				x.enter(x.next)
			}
			continue
		case xzStreamHeader, xzBlockHeader, xzChunkHeader, xzFooter:
			k := min(x.need, len(p))
			x.hdr = append(x.hdr, p[:k]...)
			x.need -= k
			x.pos += int64(k)
			p = p[k:]
			if x.need == 0 {
				x.parsed()
			}
			continue
		}
		b := p[0]
		p = p[1:]
		x.pos++
		switch x.state {
		case xzBlockStart:
			if b == 0 {
				x.state, x.varint, x.shift, x.counted = xzIndex, 0, 0, false
			} else {
				x.collect(xzBlockHeader, (int(b)+1)*4, []byte{b})
			}
		case xzChunk:
			switch {
			case b == 0: // the end of the LZMA2 data: padding and check follow
				x.alignThen(x.check, xzBlockStart)
			case b == 1 || b == 2: // an uncompressed chunk: 2 bytes of size
				x.collect(xzChunkHeader, 3, []byte{b})
			case b >= 0x80: // an LZMA chunk: sizes, then properties on a reset
				n := 5
				if b>>5&3 >= 2 {
					n = 6
				}
				x.collect(xzChunkHeader, n, []byte{b})
			default:
				x.state = xzLost
			}
		case xzIndex:
			if x.shift > 63 {
				x.state = xzLost
				break
			}
			x.varint |= uint64(b&0x7f) << x.shift
			x.shift += 7
			if b&0x80 != 0 {
				break
			}
			if !x.counted {
				// The first varint is the number of records, each of
				// two varints.
				x.counted = true
				if x.varint > 1<<40 {
					x.state = xzLost
					break
				}
				x.records = 2 * x.varint
			} else {
				x.records--
			}
			x.varint, x.shift = 0, 0
			if x.records == 0 {
				x.alignThen(4, xzFooter) // padding, then the index's CRC32
			}
		case xzAfter:
			if b == 0 {
				x.pad++
				break
			}
			if x.pad%4 != 0 {
				x.state = xzLost
				break
			}
			x.pos = 1
			x.collect(xzStreamHeader, 12, []byte{b})
		}
	}
}

// parsed acts on a header collected in full.
func (x *xzWatch) parsed() {
	h := x.hdr
	switch x.state {
	case xzStreamHeader:
		id := int(h[7] & 0x0f)
		x.check = 0
		if id > 0 {
			x.check = 4 << ((id - 1) / 3) // 4, 8, 16, 32 or 64 bytes
		}
		x.state = xzBlockStart
	case xzBlockHeader:
		x.blockHeader(h)
	case xzChunkHeader:
		if h[0] < 0x80 {
			x.skip(int(h[1])<<8|int(h[2])+1, xzChunk)
		} else {
			x.skip(int(h[3])<<8|int(h[4])+1, xzChunk)
		}
	case xzFooter:
		if h[10] != 'Y' || h[11] != 'Z' {
			x.state = xzLost
			return
		}
		x.state, x.pad, x.pos = xzAfter, 0, 0
	}
}

// blockHeader reads the filters of a block header and refuses an LZMA2
// dictionary larger than maxWindow.
func (x *xzWatch) blockHeader(h []byte) {
	x.state = xzLost
	i := 2
	uvarint := func() (uint64, bool) {
		var v uint64
		for s := uint(0); i < len(h)-4 && s < 63; s += 7 {
			b := h[i]
			i++
			v |= uint64(b&0x7f) << s
			if b&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	flags := h[1]
	for _, present := range []bool{flags&0x40 != 0, flags&0x80 != 0} {
		if present {
			if _, ok := uvarint(); !ok {
				return
			}
		}
	}
	for range flags&3 + 1 {
		id, ok1 := uvarint()
		size, ok2 := uvarint()
		if !ok1 || !ok2 || size > uint64(len(h)-4-i) {
			return
		}
		props := h[i : i+int(size)]
		i += int(size)
		if id == 0x21 && size == 1 && props[0] <= 40 {
			dict := uint64(0xffffffff)
			if props[0] < 40 {
				dict = uint64(2|props[0]&1) << (props[0]/2 + 11)
			}
			if dict > maxWindow {
				x.err = fmt.Errorf("xz: dictionary of %d bytes is larger than the limit of %d", dict, maxWindow)
				return
			}
		}
	}
	x.state = xzChunk
}
