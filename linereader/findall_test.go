package linereader

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// refEnds is appendEnds written plainly: base plus the index just past every c in p.
func refEnds(p []byte, c byte, base int, ends []int) []int {
	for i, b := range p {
		if b == c {
			ends = append(ends, base+i+1)
		}
	}
	return ends
}

// refReverse is reverseRecords written plainly.
func refReverse(data []byte, ends []int, end int) []byte {
	var out []byte
	for i := len(ends) - 1; i >= 0; i-- {
		out = append(out, data[ends[i]:end]...)
		end = ends[i]
	}
	return out
}

func checkFindAll(t *testing.T, p []byte, c byte, base int) {
	t.Helper()
	prefix := []int{-7, -8} // appendEnds appends after what ends holds
	got := appendEnds(p, c, base, slices.Clone(prefix))
	want := refEnds(p, c, base, slices.Clone(prefix))
	if !slices.Equal(got, want) {
		t.Fatalf("appendEnds(%q, %q, %d) = %v, want %v", p, c, base, got, want)
	}
	// The records between the boundaries, last first, with the data around them
	// untouched and nothing written past what the records need.
	ends := want[len(prefix):]
	if len(ends) == 0 {
		return
	}
	starts := make([]int, len(ends))
	for i, e := range ends {
		starts[i] = e - base - 1 // the separators' own offsets in p: records of one byte and more
	}
	end := len(p)
	dst := bytes.Repeat([]byte{0xAA}, end-starts[0]+20)
	n := reverseRecords(dst[:end-starts[0]], p, starts, end)
	if w := refReverse(p, starts, end); n != len(w) || !bytes.Equal(dst[:n], w) {
		t.Fatalf("reverseRecords(%q, %v, %d) = %q, want %q", p, starts, end, dst[:n], w)
	}
	if !bytes.Equal(dst[n:], bytes.Repeat([]byte{0xAA}, 20)) {
		t.Fatalf("reverseRecords wrote past %d bytes: %q", n, dst[n:])
	}
}

// Every length up to a few blocks, with the byte at every density: a differential
// test of the vectorised scan and copy against the plain loops.
func TestFindAllAndReverseAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(60, 1))
	for n := range 200 {
		for _, density := range []int{1, 2, 3, 7, 16, 40, 1000} {
			p := make([]byte, n)
			for i := range p {
				p[i] = 'a'
				if rng.IntN(density) == 0 {
					p[i] = '\n'
				}
			}
			checkFindAll(t, p, '\n', rng.IntN(1000))
		}
	}
	// Offsets into a larger slice, so that unaligned starts are covered.
	big := make([]byte, 4096)
	for i := range big {
		big[i] = "ab\n"[rng.IntN(3)]
	}
	for range 2000 {
		lo := rng.IntN(len(big))
		hi := lo + rng.IntN(len(big)-lo+1)
		checkFindAll(t, big[lo:hi], 'b', lo)
	}
}

func FuzzFindAll(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), byte('\n'), 0)
	f.Add(bytes.Repeat([]byte("x\n"), 40), byte('x'), 5)
	f.Fuzz(func(t *testing.T, p []byte, c byte, base int) {
		checkFindAll(t, p, c, base%(1<<20))
	})
}

func TestReverseRecordsRefusesBadBounds(t *testing.T) {
	data := []byte("abcdef")
	for _, tc := range []struct {
		dst  int
		ends []int
		end  int
	}{
		{dst: 6, ends: []int{0, 3}, end: 7},  // end past the data
		{dst: 2, ends: []int{0, 3}, end: 6},  // dst too short
		{dst: 6, ends: []int{-1, 3}, end: 6}, // before the data
		{dst: 6, ends: []int{3, 1}, end: 6},  // not ascending
		{dst: 6, ends: []int{0, 5}, end: 4},  // an end past end
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("reverseRecords(%d bytes, %v, %d) did not panic", tc.dst, tc.ends, tc.end)
				}
			}()
			reverseRecords(make([]byte, tc.dst), data, tc.ends, tc.end)
		}()
	}
}
