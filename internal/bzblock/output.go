package bzblock

import "io"

// Block is a decoded block, read by Read: its bytes after the final
// run-length decoding, the block's CRC checked when the last has been read.
type Block struct {
	// pieces are the block before the final run-length decoding, size bytes
	// in runs; the next byte is pieces[0][i].
	pieces [][]byte
	size   int
	i      int
	// The run-length decoding, as the standard library's reader does it:
	// after four equal bytes the next is a count of further copies. last is
	// the last byte value (-1 for none), equal how many bytes after the
	// first of its run equalled it (3: the next byte is a count), repeats
	// the copies of last still to write.
	last    int
	equal   int
	repeats int
	crc     crc // of the bytes written
	want    uint32
	end     int64 // the bit after the block, from the block's first
	// checked: Check found the CRC right, and Read does not compute it
	// again.
	checked bool
}

func (b *Block) reset() {
	b.i, b.last, b.equal, b.repeats = 0, -1, 0, 0
	b.crc = newCRC()
}

// End is where the block ends: the offset in bits of the bit after it from
// the block's first bit (its magic number's). The next block's magic
// number, or the stream's end, starts there.
func (b *Block) End() int64 { return b.end }

// CRC is the block's CRC, as its header gives it: what its bytes are
// checked against, and what the stream's CRC combines.
func (b *Block) CRC() uint32 { return b.want }

// Len is the block's length before its final run-length decoding (what
// the stream's level bounds).
func (b *Block) Len() int { return b.size }

// Read writes the block's next bytes into p. After the last, it returns
// io.EOF if the block's CRC is right, an error if not.
func (b *Block) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if b.repeats > 0 {
			k := min(b.repeats, len(p)-n)
			for i := range k {
				p[n+i] = byte(b.last)
			}
			n += k
			b.repeats -= k
			if b.repeats == 0 {
				b.last = -1
			}
			continue
		}
		src := b.pieces[0]
		if b.i == len(src) {
			if len(b.pieces) == 1 {
				break
			}
			b.pieces, b.i = b.pieces[1:], 0
			continue
		}
		if b.equal == 3 { // a count
			b.repeats = int(src[b.i])
			b.i++
			b.equal = 0
			continue
		}
		k := b.literals(src[b.i:min(len(src), b.i+len(p)-n)])
		copy(p[n:], src[b.i:b.i+k])
		n += k
		b.i += k
	}
	if !b.checked {
		b.crc.update(p[:n])
	}
	if n > 0 || len(p) == 0 {
		return n, nil
	}
	if !b.checked && b.crc.sum() != b.want {
		return 0, StructuralError("block checksum mismatch")
	}
	return 0, io.EOF
}

// Check reads the block's bytes once, to check its CRC, and rewinds it, so
// that a reader that must not give out a byte of a damaged block can call
// it before Read. Read then does not compute the CRC again: the second pass
// costs only the final run-length decoding, where holding the block's
// output instead would take up to 46 MB (a block of 900,000 runs of 259
// bytes). It returns Read's error for a CRC that does not match. Call it
// before the first Read.
func (b *Block) Check() error {
	var buf [8 << 10]byte
	pieces := b.pieces // Read takes them off as it goes
	for {
		_, err := b.Read(buf[:])
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	b.pieces = pieces
	b.reset()
	b.checked = true
	return nil
}

// literals returns how many bytes of src are written as they are: up to
// the end of src, or the fourth byte of a run (after which comes a count),
// keeping last and equal up to date.
func (b *Block) literals(src []byte) int {
	last, equal := b.last, b.equal
	for i, c := range src {
		if int(c) != last {
			last, equal = int(c), 0
			continue
		}
		if equal++; equal == 3 {
			b.last, b.equal = last, equal
			return i + 1
		}
	}
	b.last, b.equal = last, equal
	return len(src)
}
