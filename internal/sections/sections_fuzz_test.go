package sections

import (
	"slices"
	"testing"
)

// FuzzAtPoints checks AtPoints' bounds for any size, section count, points and past: from 0
// to size, increasing, no more sections than asked for, and every cut between them just
// past one of the points (past bytes), inside the input.
func FuzzAtPoints(f *testing.F) {
	f.Add(uint32(100), uint8(4), []byte{0, 20, 30, 30}, uint8(1))
	f.Add(uint32(0), uint8(3), []byte{0}, uint8(2))
	f.Add(uint32(1<<20), uint8(16), []byte{0, 255, 1, 7, 200}, uint8(0))
	f.Fuzz(func(t *testing.T, size uint32, n uint8, gaps []byte, past uint8) {
		if len(gaps) > 64 {
			return
		}
		var points []int64
		p := int64(0)
		for i, g := range gaps { // increasing offsets, the first 0, as an index's
			if i > 0 {
				p += 1 + int64(g)*int64(size)/256
			}
			if p >= int64(size) && i > 0 {
				break
			}
			points = append(points, p)
		}
		sz, sections := int64(size), max(int(n), 1)
		b := AtPoints(sz, sections, points, int64(past))
		if b[0] != 0 || b[len(b)-1] != sz || len(b)-1 > sections || len(b) < 2 {
			t.Fatalf("AtPoints(%d, %d, %v, %d) = %v", sz, sections, points, past, b)
		}
		for i, cut := range b[1 : len(b)-1] {
			if cut <= b[i] || cut >= sz || !slices.Contains(points, cut-int64(past)) {
				t.Fatalf("AtPoints(%d, %d, %v, %d) = %v: cut %d", sz, sections, points, past, b, cut)
			}
		}
	})
}
