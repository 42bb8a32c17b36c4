package decompress

import (
	"encoding/binary"
	"fmt"
	"io"
)

// xzFilter is a filter of a block header's chain other than the last (LZMA2): its ID
// and properties.
type xzFilter struct {
	id    uint64
	props []byte
}

// The filter IDs of the .xz format: delta, the branch converters, LZMA2.
const (
	xzDelta   = 0x03
	xzX86     = 0x04
	xzRISCV   = 0x0b
	xzLZMA2   = 0x21
	maxFilter = 4 // a chain's length, LZMA2 included
)

// xzFilterNames name the filters in messages.
var xzFilterNames = map[uint64]string{xzDelta: "delta", xzX86: "x86", 0x05: "PowerPC", 0x06: "IA-64",
	0x07: "ARM", 0x08: "ARM-Thumb", 0x09: "SPARC", 0x0a: "ARM64", xzRISCV: "RISC-V", xzLZMA2: "LZMA2"}

// checkChain refuses a chain xz-utils refuses: one whose last filter is not LZMA2, or
// with LZMA2 before its end, or with a filter it does not know, or properties not of
// the filter's size (a BCJ filter's 0 or 4 bytes, delta's 1).
func checkChain(filters []xzFilter, last uint64) error {
	if last != xzLZMA2 {
		return fmt.Errorf("xz: unsupported filter chain (it ends with %s, not LZMA2)", filterName(last))
	}
	for _, f := range filters {
		switch {
		case f.id == xzLZMA2:
			return fmt.Errorf("xz: unsupported filter chain (LZMA2 before its end)")
		case f.id < xzDelta || f.id > xzRISCV:
			return fmt.Errorf("xz: unsupported filter %s", filterName(f.id))
		case f.id == xzDelta && len(f.props) != 1, f.id != xzDelta && len(f.props) != 0 && len(f.props) != 4:
			return errXzBlock
		}
	}
	return nil
}

func filterName(id uint64) string {
	if name, ok := xzFilterNames[id]; ok {
		return name
	}
	return fmt.Sprintf("0x%x", id)
}

// newConverter is the converter that undoes f, checked by checkChain.
func newConverter(f xzFilter) converter {
	if f.id == xzDelta {
		return &delta{dist: int(f.props[0]) + 1}
	}
	var start uint32
	if len(f.props) == 4 {
		start = binary.LittleEndian.Uint32(f.props)
	}
	switch f.id {
	case xzX86:
		return newBcjX86(start)
	case 0x05:
		return &bcjPowerPC{pos: start}
	case 0x06:
		return &bcjIA64{pos: start}
	case 0x07:
		return &bcjARM{pos: start}
	case 0x08:
		return &bcjARMThumb{pos: start}
	case 0x09:
		return &bcjSPARC{pos: start}
	case 0x0a:
		return &bcjARM64{pos: start}
	}
	return &bcjRISCV{pos: start}
}

// filterReader undoes a filter on what src yields. Invariants: buf[start:done] is
// converted and not yet given out, buf[done:end] read and not yet converted; err is
// the error src returned, after which nothing more is read from it. At src's io.EOF
// the bytes left unconverted are given out as they are, as xz-utils gives them; at any
// other error they are not.
type filterReader struct {
	src              io.Reader
	conv             converter
	buf              []byte
	start, done, end int
	err              error
}

// filterBuf is the size of a filterReader's buffer.
const filterBuf = 64 << 10

func (f *filterReader) reset(src io.Reader, conv converter) {
	if f.buf == nil {
		f.buf = make([]byte, filterBuf)
	}
	*f = filterReader{src: src, conv: conv, buf: f.buf}
}

func (f *filterReader) Read(p []byte) (int, error) {
	for {
		if f.start < f.done {
			n := copy(p, f.buf[f.start:f.done])
			f.start += n
			return n, nil
		}
		if f.err != nil {
			if f.err == io.EOF && f.done < f.end {
				f.done = f.end // the last bytes, which no conversion reaches
				continue
			}
			return 0, f.err
		}
		f.end = copy(f.buf, f.buf[f.done:f.end])
		f.start, f.done = 0, 0
		n, err := f.src.Read(f.buf[f.end:])
		f.end += n
		f.err = err
		f.done = f.conv.convert(f.buf[:f.end])
	}
}
