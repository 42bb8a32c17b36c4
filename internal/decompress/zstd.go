package decompress

import (
	"bufio"
	"encoding/binary"

	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/zstdframe"
)

// zstdDecoder decodes zstd frames (and skips skippable frames) through a
// framing, which tells where the last frame ended, and, when the input ends
// inside a raw block, gives out what there is of it as zstd -dc does (the
// library decodes a block whole or not at all).
type zstdDecoder struct {
	d   *zstd.Decoder
	w   *framing
	cut cutTail
}

func newZstdDecoder(r *bufio.Reader, offset func() int64) (*zstdDecoder, error) {
	w := newFraming(r, Zstd, &zstdFrames{}, offset)
	d, err := zstdframe.NewDecoder(w, maxWindow)
	if err != nil {
		return nil, err
	}
	return &zstdDecoder{d: d, w: w}, nil
}

func (z *zstdDecoder) Read(p []byte) (int, error) {
	if z.cut.active() {
		return z.cut.Read(p)
	}
	n, err := z.d.Read(p)
	if err != nil {
		err = z.cut.start(z.w, z.w.result(err))
		if z.cut.active() { // the stored block's bytes, then the error
			if n > 0 {
				return n, nil
			}
			return z.cut.Read(p)
		}
	}
	return n, err
}

func (z *zstdDecoder) close() { z.d.Close() }

// zstdFrames is the structure of zstd frames (RFC 8878, section 3.1): a
// magic number, a frame header whose size its first byte gives, blocks of
// a 3-byte header and a size given there, the last one marked, and a
// 4-byte checksum when the header asks for it; or a skippable frame, a
// magic number, a 4-byte size and that many bytes.
type zstdFrames struct {
	state    zstdState
	checksum bool // the frame ends with a checksum
	last     bool // the block being skipped is the frame's last
}

type zstdState uint8

const (
	zstdMagic       zstdState = iota // the 4-byte magic number
	zstdSkipSize                     // a skippable frame's size
	zstdSkipData                     // its bytes
	zstdDescriptor                   // the frame header's first byte
	zstdHeader                       // the rest of the frame header
	zstdBlockHeader                  // a block's 3-byte header
	zstdBlockData                    // its bytes
	zstdChecksum                     // the frame's checksum
)

var zstdFrameMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

func (z *zstdFrames) start() unit {
	z.state = zstdMagic
	return unit{collect, 4}
}

// descriptor reads a frame header descriptor: the header bytes that follow it (dictionary
// ID, window descriptor, content size) are collected next.
func (z *zstdFrames) descriptor(d byte) unit {
	n, err := zstdframe.HeaderLen(d)
	if err != nil { // the reserved bit
		return unit{kind: lost}
	}
	z.checksum = d&0x04 != 0
	z.state = zstdHeader
	return unit{collect, int64(n - 5)} // after the magic and the descriptor
}

// blockHeader reads a block header: the block's bytes are skipped next.
func (z *zstdFrames) blockHeader(h []byte) unit {
	b, err := zstdframe.ParseBlock(h)
	if err != nil { // the reserved type
		return unit{kind: lost}
	}
	z.last = b.Last
	z.state = zstdBlockData
	if b.Type == zstdframe.Raw { // its bytes are the output
		return unit{verbatim, b.Bytes()}
	}
	return unit{skip, b.Bytes()}
}

func (z *zstdFrames) parsed(h []byte, _ int64) (unit, error) {
	switch z.state {
	case zstdMagic:
		switch {
		case string(h) == string(zstdFrameMagic):
			z.state = zstdDescriptor
			return unit{collect, 1}, nil
		case matches(skippable, h):
			z.state = zstdSkipSize
			return unit{collect, 4}, nil
		}
	case zstdSkipSize:
		z.state = zstdSkipData
		return unit{skip, int64(binary.LittleEndian.Uint32(h))}, nil
	case zstdSkipData, zstdChecksum:
		return unit{kind: boundary}, nil
	case zstdDescriptor:
		return z.descriptor(h[0]), nil
	case zstdHeader:
		z.state = zstdBlockHeader
		return unit{collect, 3}, nil
	case zstdBlockHeader:
		return z.blockHeader(h), nil
	case zstdBlockData:
		switch {
		case !z.last:
			z.state = zstdBlockHeader
			return unit{collect, 3}, nil
		case z.checksum:
			z.state = zstdChecksum
			return unit{skip, 4}, nil
		}
		return unit{kind: boundary}, nil
	}
	return unit{kind: lost}, nil
}
