package inflate

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// The gzip framing of deflate streams (RFC 1952): a member is a header, a
// deflate stream and a trailer holding the CRC-32 and the length (modulo
// 2^32) of the decompressed bytes. What follows a member (another member,
// padding, trailing data) is the caller's business: a Member reads one.

var (
	// ErrHeader is the error of a gzip header that is not valid. Its text
	// is compress/gzip's.
	ErrHeader = errors.New("gzip: invalid header")
	// ErrChecksum is the error of a member whose trailer does not match
	// its decompressed bytes. Its text is compress/gzip's.
	ErrChecksum = errors.New("gzip: invalid checksum")
)

// Header flags.
const (
	flagText     = 1 << 0
	flagHeadCRC  = 1 << 1
	flagExtra    = 1 << 2
	flagName     = 1 << 3
	flagComment  = 1 << 4
	flagReserved = 0xe0
)

// ReadHeader reads a gzip member's header from src, leaving src at the
// first byte of its deflate stream, and returns the header's length. A
// header cut short is io.ErrUnexpectedEOF, one that is not valid ErrHeader
// (as gzip(1), which refuses reserved flags, and compress/gzip, which checks
// the header's CRC when there is one); an error of src is returned as it
// is.
func ReadHeader(src Source) (int, error) {
	h := header{src: src}
	var b [10]byte
	if !h.read(b[:]) {
		return h.n, h.err
	}
	if b[0] != 0x1f || b[1] != 0x8b || b[2] != 8 || b[3]&flagReserved != 0 {
		return h.n, ErrHeader
	}
	flags := b[3]
	if flags&flagExtra != 0 {
		if !h.read(b[:2]) || !h.skip(int(binary.LittleEndian.Uint16(b[:2]))) {
			return h.n, h.err
		}
	}
	for _, f := range []byte{flagName, flagComment} {
		if flags&f != 0 && !h.string() {
			return h.n, h.err
		}
	}
	if flags&flagHeadCRC != 0 {
		sum := h.crc
		if !h.read(b[:2]) {
			return h.n, h.err
		}
		if binary.LittleEndian.Uint16(b[:2]) != uint16(sum) {
			return h.n, ErrHeader
		}
	}
	return h.n, nil
}

// header reads the fields of a header or a trailer, keeping their CRC-32.
type header struct {
	src Source
	n   int    // bytes read
	crc uint32 // of the bytes read
	err error  // why the last read failed
}

// read reads len(dst) bytes into dst, or reports false with err set.
func (h *header) read(dst []byte) bool {
	for k := 0; k < len(dst); {
		b, err := h.src.Peek(min(len(dst)-k, max(1, h.src.Buffered())))
		k += copy(dst[k:], b)
		if !h.consume(b, err, k < len(dst)) {
			return false
		}
	}
	return true
}

// skip reads n bytes, or reports false with err set.
func (h *header) skip(n int) bool {
	for n > 0 {
		b, err := h.src.Peek(min(n, max(1, h.src.Buffered())))
		n -= len(b)
		if !h.consume(b, err, n > 0) {
			return false
		}
	}
	return true
}

// consume takes b, just peeked with err, out of src; short says that more
// bytes are needed after it.
func (h *header) consume(b []byte, err error, short bool) bool {
	h.src.Discard(len(b))
	h.n += len(b)
	h.crc = crc32.Update(h.crc, crc32.IEEETable, b)
	if err != nil && short {
		h.err = noEOF(err)
		return false
	}
	return true
}

// string reads a zero-terminated field.
func (h *header) string() bool {
	var b [1]byte
	for {
		if !h.read(b[:]) {
			return false
		}
		if b[0] == 0 {
			return true
		}
	}
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Member decodes one gzip member, its header already read (ReadHeader):
// its deflate stream, and then its trailer, checked against the bytes
// decoded. Read returns io.EOF once the trailer has been read and matches,
// src then standing at the byte after the member.
type Member struct {
	dec     Decoder
	crc     uint32 // of the bytes read so far
	size    uint32 // the bytes read so far, modulo 2^32
	checked bool   // the trailer has been read and matched
}

// Reset makes m decode the member whose deflate stream starts at src's next
// byte.
func (m *Member) Reset(src Source) {
	m.dec.Reset(src)
	m.crc, m.size, m.checked = 0, 0, false
}

// ResetAt makes m decode its member from a block boundary inside the
// member's deflate stream (Decoder.ResetAt: bit skip of src's next byte,
// window the text before it), the member's text before the boundary having
// the CRC-32 crc and the length size (modulo 2^32): the trailer is then
// checked as if m had decoded the member from its start. An index that
// keeps both at each access point (package zindex) checks its reads so.
func (m *Member) ResetAt(src Source, skip uint, window []byte, crc, size uint32) {
	m.dec.ResetAt(src, skip, window)
	m.crc, m.size, m.checked = crc, size, false
}

// Sum returns the CRC-32 and the length (modulo 2^32) of the member's text
// read so far: what its trailer is checked against at its end.
func (m *Member) Sum() (crc, size uint32) { return m.crc, m.size }

// Decoder returns m's deflate decoder, for its block function and window.
// Reading from it directly skips the member's checks.
func (m *Member) Decoder() *Decoder { return &m.dec }

// Read reads the member's decompressed bytes.
func (m *Member) Read(p []byte) (int, error) {
	if m.checked {
		return 0, io.EOF
	}
	n, err := m.dec.Read(p)
	m.crc = crc32.Update(m.crc, crc32.IEEETable, p[:n])
	m.size += uint32(n)
	if err == io.EOF {
		err = m.trailer()
	}
	return n, err
}

// trailer reads and checks the member's trailer.
func (m *Member) trailer() error {
	h := header{src: m.dec.in.src}
	var t [8]byte
	if !h.read(t[:]) {
		return h.err
	}
	if binary.LittleEndian.Uint32(t[:]) != m.crc || binary.LittleEndian.Uint32(t[4:]) != m.size {
		return ErrChecksum
	}
	m.checked = true
	return io.EOF
}
