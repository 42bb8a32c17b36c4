package decompress

import (
	"bufio"
	"encoding/binary"

	"github.com/pierrec/lz4/v4"
)

// lz4Decoder decodes lz4 frames (and skips skippable frames) through a
// framing, which tells where the last frame ended.
type lz4Decoder struct {
	d   *lz4.Reader
	w   *framing
	cut cutTail // what lz4 -dc prints of a stored block the input ends in
}

func newLz4Decoder(r *bufio.Reader, offset func() int64) *lz4Decoder {
	w := newFraming(r, Lz4, &lz4Frames{}, offset)
	// The library's default decodes in the calling goroutine (concurrency
	// 1); it reads concatenated frames and skips skippable ones.
	return &lz4Decoder{d: lz4.NewReader(w), w: w}
}

func (z *lz4Decoder) Read(p []byte) (int, error) {
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

// close gives the decoder's block buffers back to the library's pool.
func (z *lz4Decoder) close() { z.d.Reset(nil) }

// lz4Frames is the structure of lz4 frames (the LZ4 Frame Format
// Description, version 1.6): a magic number; a descriptor of two
// flag bytes, an optional 8-byte content size and 4-byte dictionary ID,
// and a header checksum byte; blocks of a 4-byte size (0 ends the frame)
// and that many bytes, each followed by a 4-byte checksum when the flags ask
// for it; then a 4-byte content checksum when they ask for it. A skippable
// frame is a magic number, a 4-byte size and that many bytes. A legacy
// frame (lz4 -l) has no end marker: it ends with the input or at the next
// frame's magic number, which only decoding tells from a block, so the
// framing stops following there and leaves its end to the decoder.
type lz4Frames struct {
	state           lz4State
	blockChecksum   bool
	contentChecksum bool
}

type lz4State uint8

const (
	lz4Magic      lz4State = iota // the 4-byte magic number
	lz4SkipSize                   // a skippable frame's size
	lz4SkipData                   // its bytes
	lz4Flags                      // the descriptor's two flag bytes
	lz4Descriptor                 // the rest of the descriptor
	lz4BlockSize                  // a block's 4-byte size
	lz4BlockData                  // its bytes (and checksum)
	lz4StoredData                 // the bytes of a block stored uncompressed
	lz4Checksum                   // the frame's content checksum
)

var lz4FrameMagic = []byte{0x04, 0x22, 0x4d, 0x18}

func (z *lz4Frames) start() unit {
	z.state = lz4Magic
	return unit{collect, 4}
}

func (z *lz4Frames) parsed(h []byte, _ int64) (unit, error) {
	switch z.state {
	case lz4Magic:
		switch {
		case string(h) == string(lz4FrameMagic):
			z.state = lz4Flags
			return unit{collect, 2}, nil
		case matches(skippable, h):
			z.state = lz4SkipSize
			return unit{collect, 4}, nil
		}
	case lz4SkipSize:
		z.state = lz4SkipData
		return unit{skip, int64(binary.LittleEndian.Uint32(h))}, nil
	case lz4SkipData, lz4Checksum:
		return unit{kind: boundary}, nil
	case lz4Flags:
		flg := h[0]
		if flg>>6 != 1 { // the version, 01
			break
		}
		z.blockChecksum = flg&0x10 != 0
		z.contentChecksum = flg&0x04 != 0
		n := int64(1) // the header checksum
		if flg&0x08 != 0 {
			n += 8 // content size
		}
		if flg&0x01 != 0 {
			n += 4 // dictionary ID
		}
		z.state = lz4Descriptor
		return unit{collect, n}, nil
	case lz4Descriptor, lz4BlockData:
		z.state = lz4BlockSize
		return unit{collect, 4}, nil
	case lz4BlockSize:
		return z.blockSize(int64(binary.LittleEndian.Uint32(h))), nil
	case lz4StoredData:
		if z.blockChecksum {
			z.state = lz4BlockData
			return unit{skip, 4}, nil
		}
		z.state = lz4BlockSize
		return unit{collect, 4}, nil
	}
	return unit{kind: lost}, nil
}

// blockSize acts on a block's 4-byte size: the end mark (0), a block stored
// uncompressed (the high bit set: its bytes are kept as they pass), or a compressed
// block.
func (z *lz4Frames) blockSize(size int64) unit {
	if size == 0 { // the end mark
		if z.contentChecksum {
			z.state = lz4Checksum
			return unit{skip, 4}
		}
		return unit{kind: boundary}
	}
	if size&0x80000000 != 0 {
		z.state = lz4StoredData
		return unit{verbatim, size & 0x7fffffff}
	}
	if z.blockChecksum {
		size += 4
	}
	z.state = lz4BlockData
	return unit{skip, size}
}
