package linereader_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// FuzzIterators compares every iterator with the Next loop on arbitrary input, options
// and read patterns: Lines and Views record by record, Pieces with its pieces joined,
// Runs and Batches by their bytes, last line number and error. Next itself is compared
// with the reference splitter by FuzzReader. Crashers found by
// `go test -fuzz=FuzzIterators ./linereader/` belong in testdata/fuzz/FuzzIterators/,
// where plain `go test` replays them.
//
// The option bits are FuzzReader's; bits 11-13 pick the iterator.
func FuzzIterators(f *testing.F) {
	seeds := []struct {
		in      string
		bits    uint16
		limit   uint8
		bufSize uint8
	}{
		{"a\nb", 0, 0, 0},
		{"aaaaa", 4 | 1<<11, 0, 1},
		{"ababababa", 5 | 2<<11, 0, 2},
		{"\n\n\na\n\n\n\nb\n", 9 | 3<<11, 0, 3},
		{"xxabyyab", 3 | 1<<11, 3, 1},
		{"a\xE3\x81bcd", 1<<5 | 1<<11, 2, 1},
		{"x\r\r\n\r\n", 1<<4 | 1<<11, 0, 1},
		{"a long record in pieces\nand another one\n", 1<<4 | 1<<11, 0, 2},
		{"a long record in pieces\nand another one\n", 2 << 11, 0, 3},
		{"many\nshort\nlines\n\nand one longer than the buffer\n", 4 << 11, 0, 8},
	}
	for _, s := range seeds {
		f.Add([]byte(s.in), s.bits, s.limit, s.bufSize)
	}
	kinds := []string{"Lines", "Views", "Pieces", "Runs", "Batches"}
	f.Fuzz(func(t *testing.T, in []byte, bits uint16, limit uint8, bufSize uint8) {
		if len(in) > 1<<12 {
			return
		}
		opt := optionsFor(int(bits&15), int(limit%17), bits&(1<<4) != 0, bits&(1<<5) != 0, int(bufSize%70))
		want, wantErr := linereader.ReadAll(linereader.New(bytes.NewReader(in), opt), "Next")
		src, pattern := wrapSource(in, int(bits>>8&7), uint64(bits))
		kind := kinds[int(bits>>11&7)%len(kinds)]
		got, gotErr := linereader.ReadAll(linereader.New(src, opt), kind)
		switch kind {
		case "Pieces":
			got = linereader.Joined(got)
		case "Runs", "Batches":
			// A run may hold several records, and only a batch's last record has its
			// line number and offset: compare the bytes and the last line number.
			want, got = joinedBytes(want), joinedBytes(got)
		}
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("input %q options %s source %s via %s:\n got %v %v\nwant %v %v", in, describeOptions(opt), pattern, kind, got, gotErr, want, wantErr)
		}
	})
}

// joinedBytes is one record holding all the bytes of s, with the line number after its
// last record.
func joinedBytes(s []linereader.Seen) []linereader.Seen {
	var b strings.Builder
	var line int64
	for _, x := range s {
		b.WriteString(x.Rec)
		line = x.LineNo
	}
	return []linereader.Seen{{Rec: b.String(), LineNo: line}}
}
