package decompress

import (
	"bufio"
	"fmt"

	"github.com/ulikunitz/xz"
)

// xzDecoder decodes xz streams through a watch, which tells where the last
// stream ended, tells a stream cut short from a complete one (the xz
// package takes a stream cut inside a block header, or right before one,
// for a clean end) and refuses a dictionary larger than maxWindow before
// the decoder allocates it (a 100-byte file may declare 4 GiB).
//
// github.com/ulikunitz/xz is the maintained pure-Go xz decoder. A port of XZ
// Embedded (github.com/xi2/xz) decodes faster and reads the BCJ and delta
// filters that xz applies to executables, but it has not changed since 2017,
// and a decoder of untrusted input has to be one that is kept: those filters
// are an error here (TestToolsXzFilters), and the speed is what it is (the
// measurements are in docs/performance.md).
type xzDecoder struct {
	d *xz.Reader
	w *watch
}

func newXzDecoder(r *bufio.Reader, offset func() int64) (*xzDecoder, error) {
	w := newWatch(r, Xz, &xzFrames{}, offset)
	// The watch consumes stream padding itself, so the decoder sees streams
	// one after another; the xz package reads the stream header here.
	d, err := xz.NewReader(w)
	if err != nil {
		return nil, w.result(err)
	}
	return &xzDecoder{d: d, w: w}, nil
}

func (z *xzDecoder) Read(p []byte) (int, error) {
	n, err := z.d.Read(p)
	if err != nil {
		err = z.w.result(err)
	}
	return n, err
}

func (z *xzDecoder) close() {}

// xzFrames is the structure of an xz stream (the .xz File Format, version
// 1.2.1): a 12-byte stream header; blocks, each a header whose first byte
// gives its size, LZMA2 chunks (a control byte, sizes, the chunk's
// bytes; control byte 0 ends them), padding to four bytes and the check
// that the stream header names; the index (a 0 byte, a count of records,
// two varints per record, padding and a CRC32); and a 12-byte footer.
type xzFrames struct {
	state   xzState
	check   int64  // size of the current stream's check field
	block   []byte // the first byte of the block header being collected
	control byte   // the control byte of the chunk whose header is collected
	// varint is the index field being read, shift its bits so far; records
	// counts the index fields still to read after it, once the first (their
	// number) is read, as counted says.
	varint, records uint64
	shift           uint
	counted         bool
	next            xzState // the state after a skip
}

type xzState uint8

const (
	xzStreamHeader xzState = iota // the 12-byte stream header
	xzBlockStart                  // a block header's size byte, or 0 for the index
	xzBlockHeader                 // the rest of a block header
	xzChunk                       // an LZMA2 chunk's control byte
	xzChunkHeader                 // the rest of a chunk header
	xzSkip                        // bytes skipped, then next
	xzIndex                       // a byte of the index's varints
	xzFooter                      // the 12-byte stream footer
)

func (x *xzFrames) start() unit {
	x.state = xzStreamHeader
	return unit{collect, 12}
}

// skipThen skips n bytes, then reads in state s.
func (x *xzFrames) skipThen(n int64, s xzState) unit {
	x.state, x.next = xzSkip, s
	return unit{skip, n}
}

// alignThen skips the padding from pos to the next multiple of four bytes
// of the stream and then n more (a check field), then reads in state s.
func (x *xzFrames) alignThen(pos, n int64, s xzState) unit {
	return x.skipThen((4-pos%4)%4+n, s)
}

// unitOf is the unit read in state s.
func unitOf(s xzState) unit {
	if s == xzFooter {
		return unit{collect, 12}
	}
	return unit{collect, 1}
}

func (x *xzFrames) parsed(h []byte, pos int64) (unit, error) {
	switch x.state {
	case xzStreamHeader:
		x.check = 0
		if id := int(h[7] & 0x0f); id > 0 {
			x.check = 4 << ((id - 1) / 3) // 4, 8, 16, 32 or 64 bytes
		}
		x.state = xzBlockStart
		return unit{collect, 1}, nil
	case xzBlockStart:
		if h[0] == 0 {
			x.state, x.varint, x.shift, x.counted = xzIndex, 0, 0, false
			return unit{collect, 1}, nil
		}
		x.state, x.block = xzBlockHeader, append(x.block[:0], h[0])
		return unit{collect, (int64(h[0])+1)*4 - 1}, nil
	case xzBlockHeader:
		return x.blockHeader(append(x.block, h...))
	case xzChunk:
		return x.chunk(h[0], pos), nil
	case xzChunkHeader:
		x.state = xzChunk
		if x.control < 0x80 { // uncompressed: 2 bytes of size - 1
			return x.skipThen(int64(h[0])<<8|int64(h[1])+1, xzChunk), nil
		}
		return x.skipThen(int64(h[2])<<8|int64(h[3])+1, xzChunk), nil
	case xzSkip:
		x.state = x.next
		return unitOf(x.next), nil
	case xzIndex:
		return x.index(h[0], pos), nil
	case xzFooter:
		if h[10] == 'Y' && h[11] == 'Z' {
			return unit{kind: boundary}, nil
		}
	}
	return unit{kind: lost}, nil
}

// chunk acts on an LZMA2 chunk's control byte.
func (x *xzFrames) chunk(b byte, pos int64) unit {
	x.control = b
	switch {
	case b == 0: // the end of the LZMA2 data: padding and check follow
		return x.alignThen(pos, x.check, xzBlockStart)
	case b == 1 || b == 2: // an uncompressed chunk: 2 bytes of size
		x.state = xzChunkHeader
		return unit{collect, 2}
	case b >= 0x80: // an LZMA chunk: sizes, then properties on a reset
		x.state = xzChunkHeader
		if b>>5&3 >= 2 {
			return unit{collect, 5}
		}
		return unit{collect, 4}
	}
	return unit{kind: lost}
}

// index acts on a byte of the index's varints.
func (x *xzFrames) index(b byte, pos int64) unit {
	if x.shift > 63 {
		return unit{kind: lost}
	}
	x.varint |= uint64(b&0x7f) << x.shift
	x.shift += 7
	if b&0x80 != 0 {
		return unit{collect, 1}
	}
	if !x.counted {
		// The first varint is the number of records, each of two varints.
		x.counted = true
		if x.varint > 1<<40 {
			return unit{kind: lost}
		}
		x.records = 2 * x.varint
	} else {
		x.records--
	}
	x.varint, x.shift = 0, 0
	if x.records == 0 {
		return x.alignThen(pos, 4, xzFooter) // padding, then the index's CRC32
	}
	return unit{collect, 1}
}

// blockHeader reads the filters of a block header and refuses an LZMA2
// dictionary larger than maxWindow.
func (x *xzFrames) blockHeader(h []byte) (unit, error) {
	lost := unit{kind: lost}
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
				return lost, nil
			}
		}
	}
	for range flags&3 + 1 {
		id, ok1 := uvarint()
		size, ok2 := uvarint()
		if !ok1 || !ok2 || size > uint64(len(h)-4-i) {
			return lost, nil
		}
		props := h[i : i+int(size)]
		i += int(size)
		if id == 0x21 && size == 1 && props[0] <= 40 {
			dict := uint64(0xffffffff)
			if props[0] < 40 {
				dict = uint64(2|props[0]&1) << (props[0]/2 + 11)
			}
			if dict > maxWindow {
				return lost, fmt.Errorf("xz: dictionary of %d bytes is larger than the limit of %d", dict, maxWindow)
			}
		}
	}
	x.state = xzChunk
	return unit{collect, 1}, nil
}
