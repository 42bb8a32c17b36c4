package decompress

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/foreachio/foreach/internal/lzma"
)

// lzmaDecoder decodes .lzma files (LZMA_Alone, the format of LZMA Utils and the LZMA
// SDK, which xz reads too): a 13-byte header (the properties byte, the dictionary
// size, the uncompressed size or all ones when it is not known) and one LZMA stream,
// decoded by the project's engine (internal/lzma). The format has no magic number:
// detection takes a header xz-utils would take for one (lzmaHeader). Files of
// several .lzma streams, which the format does not define, are read one after
// another as the other formats' are.
type lzmaDecoder struct {
	r      *bufio.Reader
	offset func() int64
	lz     lzma.Reader1
	// between: a stream has ended and what follows it is not yet known.
	between bool
}

// lzmaHeaderSize is the size of a .lzma file's header.
const lzmaHeaderSize = 13

func newLzmaDecoder(r *bufio.Reader, offset func() int64) (*lzmaDecoder, error) {
	d := &lzmaDecoder{r: r, offset: offset}
	return d, d.start()
}

// start reads a stream's header and starts the engine on its data.
func (d *lzmaDecoder) start() error {
	var h [lzmaHeaderSize]byte
	if _, err := io.ReadFull(d.r, h[:]); err != nil {
		return truncation(err)
	}
	dict := binary.LittleEndian.Uint32(h[1:])
	if dict > maxWindow {
		return fmt.Errorf("lzma: dictionary of %d bytes is larger than the limit of %d", dict, maxWindow)
	}
	size := int64(binary.LittleEndian.Uint64(h[5:])) // -1 (all ones): not known
	if h[0]%9+h[0]/9%5 > 4 {
		return fmt.Errorf("lzma: unsupported properties (lc %d + lp %d > 4, as xz reads them)", h[0]%9, h[0]/9%5)
	}
	return d.lz.Reset(d.r, h[0], int(dict), size)
}

func (d *lzmaDecoder) Read(p []byte) (int, error) {
	for {
		if d.between {
			next, err := afterStream(Lzma, d.r, d.offset())
			if err != nil {
				return 0, err
			}
			if next == endOfInput {
				return 0, io.EOF
			}
			if err := d.start(); err != nil {
				return 0, err
			}
			d.between = false
		}
		n, err := d.lz.Read(p)
		if err == io.EOF {
			d.between = true
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

func (d *lzmaDecoder) close() {}

// lzmaDicts are the dictionary sizes xz-utils takes for a .lzma header's when it
// looks for one (2^n and 2^n + 2^(n-1), and all ones), little-endian.
var lzmaDicts = func() [][4]byte {
	var dicts [][4]byte
	add := func(d uint32) { dicts = append(dicts, [4]byte(binary.LittleEndian.AppendUint32(nil, d))) }
	for n := range 32 {
		add(1 << n)
		if n > 0 && n < 31 {
			add(1<<n | 1<<(n-1))
		}
	}
	add(0xffffffff)
	return dicts
}()

// lzmaHeader reports whether h starts as a .lzma file does, with what xz-utils
// checks when it tries the format (the properties with lc + lp <= 4, a dictionary
// size of lzmaDicts, an uncompressed size below 2^38 or not known) and the first
// byte of LZMA data, which is 0: matched when the 14 bytes are there, more when the
// bytes there could still start one. Text never does beyond its second or third byte
// (a dictionary size holds zero bytes).
func lzmaHeader(h []byte) (matched, more bool) {
	if len(h) == 0 {
		return false, true
	}
	if h[0] >= 225 || h[0]%9+h[0]/9%5 > 4 {
		return false, false
	}
	dict := h[1:min(len(h), 5)]
	ok := false
	for _, d := range lzmaDicts {
		if string(d[:len(dict)]) == string(dict) {
			ok = true
			break
		}
	}
	if !ok {
		return false, false
	}
	if size := h[min(len(h), 5):min(len(h), lzmaHeaderSize)]; !allOnes(size) {
		for i, c := range size {
			if i == 4 && c >= 0x40 || i > 4 && c != 0 {
				return false, false // neither below 2^38 nor all ones
			}
		}
	}
	if len(h) > lzmaHeaderSize && h[lzmaHeaderSize] != 0 {
		return false, false
	}
	if len(h) <= lzmaHeaderSize {
		return false, true
	}
	return true, false
}

func allOnes(b []byte) bool {
	for _, c := range b {
		if c != 0xff {
			return false
		}
	}
	return true
}
