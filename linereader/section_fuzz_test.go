package linereader

// FuzzSection cuts arbitrary input into arbitrary sections and compares their records with
// one sequential read, and countParallel with a Next loop. Crashers found by
// `go test -fuzz=FuzzSection ./linereader/` belong in testdata/fuzz/FuzzSection/, where
// plain `go test` replays them.

import (
	"bytes"
	"testing"
)

// The arguments: sep picks a separator of splittableSeps (modulo its length); each byte of
// cuts is a cut point, scaled to [0, len(in)]; bufSize 0 is the default buffer, else
// 1 + bufSize%64.
func FuzzSection(f *testing.F) {
	seeds := []struct {
		in      string
		sep     uint8
		cuts    []byte
		bufSize uint8
		chomp   bool
	}{
		{"one\r\ntwo\r\nthree", 1, []byte{4 * 255 / 15}, 0, false},
		{"one\r\ntwo\r\nthree", 0, []byte{3 * 255 / 15, 5 * 255 / 15}, 1, true},
		{"1abc22abcabc333", 3, []byte{17, 34, 51, 68}, 2, false},
		{"abababab", 2, []byte{0, 0, 128, 255, 255}, 3, true},
		{"\x00\x00x\x00", 5, []byte{64, 64}, 0, false},
		{"", 0, []byte{0}, 0, false},
		{"no separator at all", 0, []byte{10, 200}, 5, false},
	}
	for _, s := range seeds {
		f.Add([]byte(s.in), s.sep, s.cuts, s.bufSize, s.chomp)
	}
	f.Fuzz(func(t *testing.T, in []byte, sep uint8, cutBytes []byte, bufSize uint8, chomp bool) {
		if len(in) > 1<<12 || len(cutBytes) > 16 {
			return
		}
		s := splittableSeps[int(sep)%len(splittableSeps)]
		opt := Options{Sep: []byte(s), Chomp: chomp}
		if bufSize > 0 {
			opt.BufferSize = 1 + int(bufSize%64)
		}
		size := int64(len(in))
		cuts := []int64{0, size}
		for _, c := range cutBytes {
			cuts = append(cuts, int64(c)*size/255)
		}
		sortCuts(cuts)
		if diff := partitionDiff(in, cuts, opt); diff != "" {
			t.Fatal(diff)
		}
		// Count's parallel path, with the cuts' spacing as its section size.
		want := sequentialCount(t, in, opt)
		pol := countPolicy{minSection: max(1, cuts[1]), readSize: 1 + int(bufSize%9)}
		got, err := countParallel(bytes.NewReader(in), size, newConfig(opt), 2, pol)
		if err != nil || got != want {
			t.Fatalf("countParallel(%q, sep %q, %+v) = %d, %v; want %d", in, s, pol, got, err, want)
		}
	})
}
