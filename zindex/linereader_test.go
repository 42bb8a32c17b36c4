package zindex_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// record is a record with its offset, as a sequential read yields it.
type record struct {
	off int64
	rec string
}

func recordsOf(r *linereader.Reader) ([]record, error) {
	var out []record
	for r.Next() {
		out = append(out, record{r.Offset(), string(r.Bytes())})
	}
	return out, r.Err()
}

// TestLinereaderOverIndex reads the text of every fixture through
// ix.ReaderAt with linereader's functions over an io.ReaderAt: sections of
// every partition, counts with 1, 2 and 4 workers, the last records and
// all of them backwards give exactly the records (bytes and offsets) of a
// sequential read of the text.
func TestLinereaderOverIndex(t *testing.T) {
	opts := []linereader.Options{{}, {Sep: []byte("e ")}}
	for _, f := range fixtures(t) {
		switch f.name {
		case "compress/gzip", "bgzip -c", "pigz -c -n -p 2 -b 32", "members", "trailing data", "empty":
		default:
			continue // the blocks and members of the others are like these
		}
		ix := build(t, f, testSpan)
		ra := ix.ReaderAt(bytes.NewReader(f.gz))
		size := ix.Size()
		for _, opt := range opts {
			want, err := recordsOf(linereader.New(bytes.NewReader(f.text), opt))
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 2, 3, 7} {
				var got []record
				for _, s := range linereader.Partition(size, n) {
					recs, err := recordsOf(linereader.NewSection(ra, s.Start, s.End, opt))
					if err != nil {
						t.Fatalf("%s: section %v: %v", f.name, s, err)
					}
					got = append(got, recs...)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s, %+v: %d sections give %d records, a sequential read %d", f.name, opt, n, len(got), len(want))
				}
			}
			for _, workers := range []int{1, 2, 4} {
				n, err := linereader.CountAt(ra, size, opt, workers)
				if err != nil || n != int64(len(want)) {
					t.Fatalf("%s, %+v: CountAt with %d workers: %d, %v; want %d", f.name, opt, workers, n, err, len(want))
				}
			}
			for _, n := range []int{1, 10, 1000} {
				got, err := recordsOf(linereader.NewTail(ra, size, n, opt))
				tail := want[max(0, len(want)-n):]
				if err != nil || !slices.Equal(got, tail) {
					t.Fatalf("%s, %+v: NewTail(%d): %d records (%v), want %d", f.name, opt, n, len(got), err, len(tail))
				}
			}
			got, err := recordsOf(linereader.NewBackward(ra, size, opt))
			slices.Reverse(got)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("%s, %+v: NewBackward: %d records (%v), want %d", f.name, opt, len(got), err, len(want))
			}
		}
	}
}
