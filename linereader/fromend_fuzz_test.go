package linereader

// FuzzTail and FuzzBackward compare reading from the end with a forward read on arbitrary
// input. Crashers found by `go test -fuzz=FuzzTail ./linereader/` (or FuzzBackward)
// belong in testdata/fuzz/, where plain `go test` replays them.

import (
	"bytes"
	"errors"
	"testing"
)

// fromEndSeeds are inputs both targets start from: separators at block edges, CRLF, an
// unterminated last record, nothing but separators.
var fromEndSeeds = []string{"one\r\ntwo\r\nthree", "1abc22abcabc333", "\x00\x00x\x00", "", "no separator at all", "a\nb\n\n"}

// fuzzOptions decodes the fuzzed option bytes: sep picks one of splittableSeps, bufSize
// 0 is the default buffer, else 1 + bufSize%64.
func fuzzOptions(sep, bufSize uint8, chomp bool) Options {
	opt := Options{Sep: []byte(splittableSeps[int(sep)%len(splittableSeps)]), Chomp: chomp}
	if bufSize > 0 {
		opt.BufferSize = 1 + int(bufSize%64)
	}
	return opt
}

func FuzzTail(f *testing.F) {
	for i, s := range fromEndSeeds {
		f.Add([]byte(s), uint8(i), uint8(i), i%2 == 0, i)
	}
	f.Fuzz(func(t *testing.T, in []byte, sep, bufSize uint8, chomp bool, n int) {
		if len(in) > 1<<12 {
			return
		}
		n %= 1 << 10
		if diff := tailDiff(in, n, fuzzOptions(sep, bufSize, chomp), "Next"); diff != "" {
			t.Fatal(diff)
		}
	})
}

// FuzzBackward also puts a bad byte at offset bad (none when it is past the input).
func FuzzBackward(f *testing.F) {
	for i, s := range fromEndSeeds {
		f.Add([]byte(s), uint8(i), uint8(i), i%2 == 0, uint16(i*3))
	}
	f.Fuzz(func(t *testing.T, in []byte, sep, bufSize uint8, chomp bool, bad uint16) {
		if len(in) > 1<<12 {
			return
		}
		opt := fuzzOptions(sep, bufSize, chomp)
		all := reversed(in, opt)
		var want []Seen
		var wantErr error
		boom := errors.New("bad byte")
		for _, s := range all {
			if s.Off-int64(len(opt.Sep)) > int64(bad) {
				want = append(want, s)
			}
		}
		if int(bad) >= len(in) {
			want = all
		} else {
			wantErr = boom
		}
		src := badByteReaderAt{data: in, bad: int64(bad), err: boom}
		if diff := backwardDiff(src, int64(len(in)), opt, "Next", want, wantErr); diff != "" {
			t.Fatalf("input %q bad %d: %s", in, bad, diff)
		}
		if diff := backwardDiff(bytes.NewReader(in), int64(len(in)), opt, "Views", all, nil); diff != "" {
			t.Fatalf("input %q: %s", in, diff)
		}
	})
}
