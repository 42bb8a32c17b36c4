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
// and read patterns: Pieces and Runs (their pieces joined), and Lines and Batches with
// read-ahead forced. Next itself is compared with the reference splitter by FuzzReader.
// Crashers found by `go test -fuzz=FuzzIterators ./linereader/` belong in
// testdata/fuzz/FuzzIterators/, where plain `go test` replays them.
//
// The option bits are FuzzReader's; bits 11-12 pick the iterator.
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
	}
	for _, s := range seeds {
		f.Add([]byte(s.in), s.bits, s.limit, s.bufSize)
	}
	f.Fuzz(func(t *testing.T, in []byte, bits uint16, limit uint8, bufSize uint8) {
		if len(in) > 1<<12 {
			return
		}
		opt := optionsFor(int(bits&15), int(limit%17), bits&(1<<4) != 0, bits&(1<<5) != 0, int(bufSize%70))
		want := records(linereader.New(bytes.NewReader(in), opt), "Next")
		src, pattern := wrapSource(in, int(bits>>8&7), uint64(bits))
		kind := []string{"Lines", "Pieces", "Runs", "Batches"}[bits>>11&3]
		r := linereader.New(src, opt)
		if kind == "Lines" || kind == "Batches" {
			linereader.ForceReadAhead(r)
		}
		got := records(r, kind)
		if kind == "Runs" || kind == "Batches" {
			// A run may hold several records, and a batch's records have the line number
			// of its last: compare the bytes, the last line number and the error.
			want, got = want.joined(), got.joined()
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("input %q options %s source %s via %s:\n got %v\nwant %v", in, describeOptions(opt), pattern, kind, got, want)
		}
	})
}

// yielded is what an iterator yielded: each record (pieces joined) with the line number
// after it, and the error.
type yielded struct {
	recs  []string
	lines []int64
	err   string
}

func (y yielded) joined() yielded {
	j := yielded{recs: []string{strings.Join(y.recs, "")}, lines: []int64{0}, err: y.err}
	if n := len(y.lines); n > 0 {
		j.lines[0] = y.lines[n-1]
	}
	return j
}

// records runs one iterator to the end.
func records(r *linereader.Reader, kind string) yielded {
	var y yielded
	var rec []byte
	add := func(p []byte) {
		rec = append(rec, p...)
		if !r.Partial() {
			y.recs = append(y.recs, string(rec))
			y.lines = append(y.lines, r.LineNo())
			rec = rec[:0]
		}
	}
	switch kind {
	case "Next":
		for r.Next() {
			add(r.Bytes())
		}
	case "Lines":
		for p := range r.Lines() {
			add(p)
		}
	case "Pieces":
		for p := range r.Pieces() {
			add(p)
		}
	case "Runs":
		for p := range r.Runs() {
			add(p)
		}
	case "Batches":
		for batch := range r.Batches() {
			for _, p := range batch {
				add(p)
			}
		}
	}
	y.err = fmt.Sprint(r.Err())
	return y
}
