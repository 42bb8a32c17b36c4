package decompress_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
	"testing/iotest"
)

// xzStored is an xz stream (no check) of one block holding data in LZMA2's
// uncompressed chunks, with filters (their IDs and properties) before LZMA2: what xz
// would write if LZMA2 did not compress, so that a filter chain can be put on any
// bytes.
func xzStored(data []byte, filters [][]byte) []byte {
	flags := []byte{0, 0}
	s := append([]byte{0xfd, '7', 'z', 'X', 'Z', 0}, flags...)
	s = binary.LittleEndian.AppendUint32(s, crc32.ChecksumIEEE(flags))
	h := []byte{0, byte(len(filters))} // the size byte, set below; the number of filters, less one
	for _, f := range filters {
		h = append(h, f...)
	}
	h = append(h, 0x21, 1, 0) // LZMA2, a 4 KiB dictionary
	for (len(h)+4)%4 != 0 {
		h = append(h, 0) // header padding
	}
	h[0] = byte((len(h)+4)/4 - 1)
	h = binary.LittleEndian.AppendUint32(h, crc32.ChecksumIEEE(h))
	block := h
	control := byte(1)
	for rest := data; len(rest) > 0; control = 2 {
		n := min(len(rest), 1<<16)
		block = append(block, control, byte((n-1)>>8), byte(n-1))
		block = append(block, rest[:n]...)
		rest = rest[n:]
	}
	block = append(block, 0)
	unpadded := len(block)
	for len(block)%4 != 0 {
		block = append(block, 0)
	}
	s = append(s, block...)
	index := []byte{0, 1}
	index = binary.AppendUvarint(index, uint64(unpadded))
	index = binary.AppendUvarint(index, uint64(len(data)))
	for len(index)%4 != 0 {
		index = append(index, 0)
	}
	index = binary.LittleEndian.AppendUint32(index, crc32.ChecksumIEEE(index))
	s = append(s, index...)
	foot := binary.LittleEndian.AppendUint32(nil, uint32(len(index)/4-1))
	foot = append(foot, flags...)
	s = binary.LittleEndian.AppendUint32(s, crc32.ChecksumIEEE(foot))
	return append(append(s, foot...), 'Y', 'Z')
}

// FuzzXzFilters puts the fuzzer's bytes through a chain of one to three of xz's
// filters (IDs 0x03-0x0b, each chosen by a byte of chain, with a start offset or a
// delta distance): the Reader yields as many bytes as went in, the same whole and
// read one byte at a time (a converter's output must not depend on how its input is
// split), and never an error.
func FuzzXzFilters(f *testing.F) {
	f.Add([]byte{0xe8, 1, 2, 3, 0, 0xe8, 0, 0, 0, 0xff, 0xeb, 0x17, 0x81, 0, 0, 0xef, 0}, []byte{4}, uint32(0))
	f.Add(bytes.Repeat([]byte{0x94, 0x90, 0x48, 0x01, 0x40, 0x7f, 0xc0, 0xf0, 0xf8}, 50), []byte{0x0a, 0x05, 0x03}, uint32(7))
	f.Fuzz(func(t *testing.T, data, chain []byte, start uint32) {
		if len(chain) == 0 || len(chain) > 3 {
			return
		}
		var filters [][]byte
		for i, c := range chain {
			id := 3 + c%9
			switch {
			case id == 3:
				filters = append(filters, []byte{3, 1, byte(start >> (8 * i))})
			case start%3 == 0:
				filters = append(filters, []byte{id, 0})
			default:
				filters = append(filters, binary.LittleEndian.AppendUint32([]byte{id, 4}, start))
			}
		}
		stream := xzStored(data, filters)
		whole, err, _ := decode(t, stream, nil)
		if err != nil || len(whole) != len(data) {
			t.Fatalf("%d of %d bytes, %v", len(whole), len(data), err)
		}
		bytewise, err, _ := decode(t, stream, iotest.OneByteReader)
		if err != nil || !bytes.Equal(bytewise, whole) {
			t.Fatalf("one byte at a time: %d bytes, %v; whole: %d", len(bytewise), err, len(whole))
		}
	})
}
