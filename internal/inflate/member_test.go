package inflate_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"hash/crc32"
	"io"
	"testing"

	"github.com/foreachio/foreach/internal/inflate"
)

// TestMemberResetAt starts a gzip member at each of its deflate blocks with
// the CRC-32 and length of its text before the block (what an index keeps
// at an access point): the rest of the text follows and the trailer
// matches; a CRC-32 or a length off by one bit is ErrChecksum at the
// member's end. Sum gives what the trailer is checked against.
func TestMemberResetAt(t *testing.T) {
	data := samples(t)["mixed"]
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, 6)
	for rest := data; len(rest) > 0; rest = rest[min(len(rest), 20000):] {
		zw.Write(rest[:min(len(rest), 20000)])
		zw.Flush() // a block boundary every 20000 bytes at least
	}
	zw.Close()
	gz := z.Bytes()
	src := bufio.NewReader(bytes.NewReader(gz))
	hdr, err := inflate.ReadHeader(src)
	if err != nil {
		t.Fatal(err)
	}
	type start struct {
		inflate.Block
		window []byte
	}
	var m inflate.Member
	var starts []start
	m.Decoder().SetBlockFunc(func(b inflate.Block) {
		starts = append(starts, start{b, bytes.Clone(m.Decoder().Window())})
	})
	m.Reset(src)
	if got, err := io.ReadAll(&m); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the member: %d bytes, %v", len(got), err)
	}
	if crc, size := m.Sum(); crc != crc32.ChecksumIEEE(data) || size != uint32(len(data)) {
		t.Fatalf("Sum: %08x, %d", crc, size)
	}
	if len(starts) < 5 {
		t.Fatalf("%d blocks", len(starts))
	}
	for i, s := range starts {
		crc, size := crc32.ChecksumIEEE(data[:s.Out]), uint32(s.Out)
		for _, c := range []struct {
			crc, size uint32
			want      error
		}{{crc, size, nil}, {crc ^ 1, size, inflate.ErrChecksum}, {crc, size + 1, inflate.ErrChecksum}} {
			from := gz[int64(hdr)+s.Bit/8:]
			var r inflate.Member
			r.ResetAt(bufio.NewReader(bytes.NewReader(from)), uint(s.Bit%8), s.window, c.crc, c.size)
			got, err := io.ReadAll(&r)
			if !bytes.Equal(got, data[s.Out:]) || !errors.Is(err, c.want) {
				t.Fatalf("from block %d (text %d): %d bytes, %v; want %d bytes, %v", i, s.Out, len(got), err, len(data)-int(s.Out), c.want)
			}
		}
	}
}
