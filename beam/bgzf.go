package foreachio

import (
	"encoding/binary"
	"io"
	"sort"
)

// BGZF's structure is a chain of member headers, each giving the member's size: a scan
// reads a few dozen bytes per member, 64 KiB of text. zindex.FromStructure reads the file
// through windows of 256 KiB (on a disk, a few large reads beat a read per member), which
// over an object store would be the whole object once more. bgzfHeaders follows the
// chain with one small ranged read per member and gives FromStructure those bytes alone.

// Bytes read around each member boundary: the ISIZE that ends the member before it and
// the next header with a BC subfield, which BGZF writes as the only one (12 + 6 bytes);
// longer extra fields take one read more.
const (
	bgzfBefore = 4
	bgzfAfter  = 64
	// idBytes is what zindex reads at each end of a file to identify it (its digests).
	idBytes = 64 << 10
	// maxExtra is the most of a member's extra field that the scan looks at
	// (internal/blockz's maxPeek).
	maxExtra = 1024
)

// headerBytes is a file of which only some ranges were read, the rest zero: the ranges a
// scan of the file's structure looks at. Reading elsewhere gives zeros, which no header
// is made of.
type headerBytes struct {
	size int64
	// frags are the ranges read, sorted by offset, disjoint.
	frags []fragment
}

type fragment struct {
	off int64
	b   []byte
}

func (h *headerBytes) ReadAt(p []byte, off int64) (int, error) {
	if off >= h.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), h.size-off))
	clear(p[:n])
	end := off + int64(n)
	i := sort.Search(len(h.frags), func(i int) bool { return h.frags[i].off+int64(len(h.frags[i].b)) > off })
	for ; i < len(h.frags) && h.frags[i].off < end; i++ {
		f := h.frags[i]
		lo, hi := max(off, f.off), min(end, f.off+int64(len(f.b)))
		copy(p[lo-off:hi-off], f.b[lo-f.off:hi-f.off])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// bytes returns the n bytes at off (fewer at the end of the file), reading from ra the
// range [off-before, off+max(n, after)) first unless one fragment holds them.
func (h *headerBytes) bytes(ra io.ReaderAt, off int64, n, before, after int) ([]byte, error) {
	n = int(min(int64(n), h.size-off))
	i := sort.Search(len(h.frags), func(i int) bool { return h.frags[i].off+int64(len(h.frags[i].b)) >= off+int64(n) })
	if i < len(h.frags) && h.frags[i].off <= off {
		f := h.frags[i]
		return f.b[off-f.off:][:n], nil
	}
	lo := max(0, off-int64(before))
	hi := min(h.size, off+int64(max(n, after)))
	b := make([]byte, hi-lo)
	if k, err := ra.ReadAt(b, lo); k < len(b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF // the object is shorter than its size
		}
		return nil, err
	}
	h.add(fragment{lo, b})
	return b[off-lo:][:n], nil
}

// add puts f among the fragments, merged with those it overlaps or touches, so that
// they stay sorted and disjoint.
func (h *headerBytes) add(f fragment) {
	fend := f.off + int64(len(f.b))
	i := sort.Search(len(h.frags), func(i int) bool { return h.frags[i].off+int64(len(h.frags[i].b)) >= f.off })
	j := i
	lo, hi := f.off, fend
	for ; j < len(h.frags) && h.frags[j].off <= fend; j++ {
		lo, hi = min(lo, h.frags[j].off), max(hi, h.frags[j].off+int64(len(h.frags[j].b)))
	}
	if j > i {
		b := make([]byte, hi-lo)
		for _, g := range h.frags[i:j] {
			copy(b[g.off-lo:], g.b)
		}
		copy(b[f.off-lo:], f.b)
		f = fragment{lo, b}
	}
	h.frags = append(h.frags[:i], append([]fragment{f}, h.frags[j:]...)...)
}

// bgzfHeaders returns the bytes of ra[0:size) that a scan of its BGZF structure reads:
// its first and last 64 KiB, every member's header and ISIZE, and the text size the
// ISIZEs add up to. It returns nil when the
// members do not reach the end of the file, or reach it only through more than 64 KiB
// that is not a member (zero padding a scan would accept, or a plain gzip member): the
// file is then not indexed by its structure, or not without reading that much.
func bgzfHeaders(ra io.ReaderAt, size int64) (*headerBytes, int64, error) {
	h := &headerBytes{size: size}
	if length, err := h.member(ra, 0); err != nil || length == 0 {
		return nil, 0, err // a plain gzip member: not worth reading the ends for
	}
	if err := h.readEnds(ra); err != nil {
		return nil, 0, err
	}
	off, total := int64(0), int64(0)
	for off < size {
		length, err := h.member(ra, off)
		if err != nil {
			return nil, 0, err
		}
		if length == 0 {
			break
		}
		isize, err := h.bytes(ra, off+length-4, 4, 0, bgzfBefore+bgzfAfter)
		if err != nil || len(isize) < 4 {
			return nil, 0, err
		}
		total += int64(binary.LittleEndian.Uint32(isize))
		off += length
	}
	if off == 0 || size-off > idBytes {
		return nil, 0, nil // the rest, if any, is in the last 64 KiB read
	}
	return h, total, nil
}

// readEnds reads the file's first and last 64 KiB: what zindex reads to identify a file,
// and where a scan starts.
func (h *headerBytes) readEnds(ra io.ReaderAt) error {
	for _, off := range []int64{0, h.size - min(h.size, idBytes)} {
		if _, err := h.bytes(ra, off, int(min(h.size, idBytes)), 0, 0); err != nil {
			return err
		}
	}
	return nil
}

// member returns the length of the BGZF member at off, from its header, or 0 when there
// is none there.
func (h *headerBytes) member(ra io.ReaderAt, off int64) (int64, error) {
	b, err := h.bytes(ra, off, 12, bgzfBefore, bgzfAfter)
	if err != nil || len(b) < 12 || b[0] != 0x1f || b[1] != 0x8b || b[2] != 8 || b[3]&0x04 == 0 {
		return 0, err
	}
	xlen := int(binary.LittleEndian.Uint16(b[10:]))
	extra, err := h.bytes(ra, off+12, min(xlen, maxExtra), 0, 0)
	if err != nil {
		return 0, err
	}
	for len(extra) >= 4 {
		slen := int(binary.LittleEndian.Uint16(extra[2:]))
		if slen > len(extra)-4 {
			break
		}
		if extra[0] == 'B' && extra[1] == 'C' && slen == 2 {
			length := int64(binary.LittleEndian.Uint16(extra[4:])) + 1
			if off+length > h.size || length < int64(12+xlen+10) {
				return 0, nil
			}
			return length, nil
		}
		extra = extra[4+slen:]
	}
	return 0, nil
}

// zstd's frames are found by walking their blocks' headers (a frame's compressed size is
// in no header), at most 128 KiB of text apart.
const (
	zstdMagic     = 0xFD2FB528
	zstdSkippable = 0x184D2A50 // the low 4 bits are free
	zstdAround    = 32         // bytes read at a frame's or a block's start
	seekableMagic = 0x8F92EAB1 // ends the seekable format's seek table
)

// zstdHeaders returns the bytes of ra[0:size) that a scan of its zstd frames reads: its
// first and last 64 KiB, the seek table when the file ends with one, every frame's
// header and every block's, and the text size the frames' content sizes add up to. It
// returns nil (and the caller scans the file itself) for a frame without a content size
// and for what the walk does not follow.
func zstdHeaders(ra io.ReaderAt, size int64) (*headerBytes, int64, error) {
	h := &headerBytes{size: size}
	if err := h.readEnds(ra); err != nil {
		return nil, 0, err
	}
	if foot, err := h.bytes(ra, size-min(size, 9), 9, 0, 0); err != nil {
		return nil, 0, err
	} else if len(foot) == 9 && binary.LittleEndian.Uint32(foot[5:]) == seekableMagic {
		table := 9 + 12*int64(binary.LittleEndian.Uint32(foot)) + 8
		if _, err := h.bytes(ra, size-min(size, table), int(min(size, table)), 0, 0); err != nil {
			return nil, 0, err
		}
	}
	off, total := int64(0), int64(0)
	for off < size {
		b, err := h.bytes(ra, off, 8, 0, zstdAround)
		if err != nil || len(b) < 8 {
			return nil, 0, err
		}
		switch magic := binary.LittleEndian.Uint32(b); {
		case magic&0xfffffff0 == zstdSkippable:
			off += 8 + int64(binary.LittleEndian.Uint32(b[4:]))
			continue
		case magic != zstdMagic:
			return nil, 0, nil
		}
		end, content, err := h.zstdFrame(ra, off)
		if err != nil || end < 0 {
			return nil, 0, err
		}
		off, total = end, total+content
	}
	return h, total, nil
}

// zstdFrame walks the frame at off: the offset after it and its content size, or -1 for
// a frame the walk does not follow (no content size, a reserved bit or block type).
func (h *headerBytes) zstdFrame(ra io.ReaderAt, off int64) (int64, int64, error) {
	b, err := h.bytes(ra, off, 4+14, 0, zstdAround)
	if err != nil || len(b) < 5 {
		return -1, 0, err
	}
	fhd := b[4]
	single := fhd&0x20 != 0
	fcsLen := []int{0, 2, 4, 8}[fhd>>6]
	if fcsLen == 0 && single {
		fcsLen = 1
	}
	if fhd&0x08 != 0 || fcsLen == 0 {
		return -1, 0, nil
	}
	n := 5 + []int{0, 1, 2, 4}[fhd&3]
	if !single {
		n++
	}
	if len(b) < n+fcsLen {
		return -1, 0, nil
	}
	var fcs [8]byte
	copy(fcs[:], b[n:n+fcsLen])
	content := int64(binary.LittleEndian.Uint64(fcs[:]))
	if fcsLen == 2 {
		content += 256
	}
	pos := off + int64(n+fcsLen)
	for {
		bh, err := h.bytes(ra, pos, 3, 0, zstdAround)
		if err != nil || len(bh) < 3 {
			return -1, 0, err
		}
		v := uint32(bh[0]) | uint32(bh[1])<<8 | uint32(bh[2])<<16
		length := int64(v >> 3)
		switch (v >> 1) & 3 {
		case 1: // RLE: one byte repeated
			length = 1
		case 3:
			return -1, 0, nil
		}
		pos += 3 + length
		if v&1 != 0 {
			break
		}
	}
	if fhd&0x04 != 0 {
		pos += 4 // the content checksum
	}
	if pos > h.size {
		return -1, 0, nil
	}
	return pos, content, nil
}
