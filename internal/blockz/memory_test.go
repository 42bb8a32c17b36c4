package blockz_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/foreachio/foreach/internal/blockz"
)

// sparse writes a file of size bytes, holes but for the given bytes at their offsets,
// and returns it open: a file that claims a huge size and holds next to nothing.
func sparse(t *testing.T, size int64, parts map[int64][]byte) *os.File {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("files are not sparse by default on Windows")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := f.Truncate(size); err != nil {
		t.Skipf("no file of %d bytes here: %v", size, err)
	}
	for off, b := range parts {
		if _, err := f.WriteAt(b, off); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestCraftedHeadersMemory: headers that claim huge counts and sizes, in sparse files
// that make the claims cost nothing to write, cost the structure scan and the first
// reads of a Reader a bounded memory (a few windows and jobs), not the sizes claimed: a
// seek table of 2^28 frames (2 GiB of entries), a zstd frame whose blocks span 48 MiB
// of holes (its compressed bytes, more than are read at once), frames and BGZF members
// that declare terabytes of text.
func TestCraftedHeadersMemory(t *testing.T) {
	frame := zstdFrames(t, []byte("a line\n"), 100, false, false, false)
	const bound = 16 << 20 // what the scan and the Reader hold of their own, with room
	cases := []struct {
		name string
		size int64
		file map[int64][]byte
	}{
		{"a seek table of 2^28 frames", 3 << 30, seekTable(append(bytes.Repeat(frame, 2), "trailing data"...), 1<<28, 3<<30)},
		{"a frame over 24 MiB of empty blocks", 32 << 20, map[int64][]byte{
			0:              emptyBlocksFrame(),
			24 << 20:       lastBlock(), // the holes before it are empty blocks, three zero bytes each
			24<<20 + 3:     emptyBlocksFrame(),
			24<<20 + 3 + 9: lastBlock(), // a second frame: pieces to read in parallel
		}},
		{"frames of a terabyte", 1 << 40, map[int64][]byte{0: append(hugeFrame(), hugeFrame()...)}},
		{"BGZF members of 4 GiB", 1 << 40, map[int64][]byte{0: hugeMembers(t)}},
	}
	for _, c := range cases {
		if raceEnabled && c.name == "a frame over 24 MiB of empty blocks" {
			continue // 8 million blocks walked and decoded: a minute under the race detector
		}
		f := sparse(t, c.size, c.file)
		n := allocated(func() {
			if _, err := blockz.Scan(f, c.size); err != nil {
				t.Errorf("%s: Scan: %v", c.name, err)
			}
			r, err := blockz.NewReader(f, c.size, blockz.Options{Workers: 2})
			if err != nil {
				return
			}
			io.CopyN(io.Discard, r, 1<<20)
			r.Close()
		})
		if n > bound {
			t.Errorf("%s: %d bytes allocated, more than %d", c.name, n, bound)
		}
	}
}

// seekTable is a sparse file of size bytes with frames at its start (and bytes that
// end their reading, so that a sequential read does not go through the holes) and the
// header and footer of a seek table of n entries at its end: the entries are holes.
func seekTable(frames []byte, n uint32, size int64) map[int64][]byte {
	table := int64(n)*8 + 9
	head := binary.LittleEndian.AppendUint32(nil, 0x184D2A5E)
	head = binary.LittleEndian.AppendUint32(head, uint32(table))
	foot := binary.LittleEndian.AppendUint32(nil, n)
	foot = append(foot, 0)
	foot = binary.LittleEndian.AppendUint32(foot, 0x8F92EAB1)
	return map[int64][]byte{0: frames, size - table - 8: head, size - 9: foot}
}

// emptyBlocksFrame is the header of a zstd frame with a content size of 0 (so that its
// bound is 0, and it is a whole job), 6 bytes, followed in the file by holes: raw blocks
// of no bytes, three zero bytes each, which the format allows (24 MiB is a multiple of
// three: the last block, there, is on their grid).
func emptyBlocksFrame() []byte {
	return []byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0, 0, 0, 0} // single segment, size 0; a block
}

// lastBlock is an empty raw block that ends its frame.
func lastBlock() []byte { return []byte{1, 0, 0} }

// hugeFrame is a zstd frame whose header claims 2^40 bytes of text, with one raw block
// of 7 bytes.
func hugeFrame() []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x50} // an 8-byte content size, a window
	b = binary.LittleEndian.AppendUint64(b, 1<<40)
	return append(append(b, 7<<3|1, 0, 0), "a line\n"...)
}

// hugeMembers are BGZF members whose trailers claim 4 GiB - 1 of text each.
func hugeMembers(t *testing.T) []byte {
	m := bgzf(t, []byte("a line\n"), 100, false)
	binary.LittleEndian.PutUint32(m[len(m)-4:], 1<<32-1)
	return append(bytes.Clone(m), m...)
}
