package linereader_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// Bytes, Line, Text, LineNo and Offset describe the record the loop body was last given,
// whatever iterator gave it, after a break they still
// describe it, and at the end of the input Bytes is nil while LineNo and Offset keep the
// last record's. (The plain Lines and Views loops keep that record in the engine rather
// than in the Reader: these tests pin that the two forms read the same.)

type current struct {
	data   string
	lineNo int64
	offset int64
}

func currentOf(r *linereader.Reader) current {
	return current{string(r.Bytes()), r.LineNo(), r.Offset()}
}

func wantCurrent(rec refRecord) current {
	return current{string(rec.Data), rec.LineNo, rec.Offset}
}

// accessorInputs mix lines short and longer than the 16-byte buffer used, CRLF, empty
// lines and a last line without its newline.
var accessorInputs = []string{
	"",
	"a\n",
	"one\r\ntwo\n\nthree is longer than the buffer\r\nfour",
	strings.Repeat("x\n", 40) + strings.Repeat("y", 50) + "\n\n" + "end",
}

func checkAccessors(t *testing.T, r *linereader.Reader, rec []byte, want refRecord, what string) {
	t.Helper()
	require.Equal(t, string(want.Data), string(rec), what)
	require.Equal(t, wantCurrent(want), currentOf(r), what)
	require.Equal(t, string(want.Data), r.Text(), what)
	line := r.Line()
	require.Equal(t, string(want.Data), string(line), what)
	require.Equal(t, len(line), cap(line), what)
	if len(line) > 0 && len(rec) > 0 {
		require.NotSame(t, &rec[0], &line[0], "%s: Line shares memory with the record yielded", what)
	}
}

func TestAccessorsFollowEveryIterator(t *testing.T) {
	for _, in := range accessorInputs {
		for _, opt := range []linereader.Options{{BufferSize: 16}, {BufferSize: 16, Chomp: true}} {
			want := refSplit([]byte(in), opt)
			{
				for _, kind := range []string{"Next", "Lines", "Views", "Batches"} {
					what := fmt.Sprintf("%s %q chomp=%v", kind, in, opt.Chomp)
					r := linereader.New(bytes.NewReader([]byte(in)), opt)
					i := 0
					step := func(rec []byte) {
						require.Less(t, i, len(want), what)
						checkAccessors(t, r, rec, want[i], fmt.Sprintf("%s record %d", what, i))
						i++
					}
					switch kind {
					case "Next":
						for r.Next() {
							step(r.Bytes())
						}
					case "Lines":
						for rec := range r.Lines() {
							step(rec)
						}
					case "Views":
						for rec := range r.Views() {
							step(rec)
						}
					case "Batches":
						for batch := range r.Batches() {
							// During a batch the accessors describe its last record.
							i += len(batch) - 1
							step(batch[len(batch)-1])
						}
					}
					require.NoError(t, r.Err(), what)
					require.Equal(t, len(want), i, what)
					require.Nil(t, r.Bytes(), what)
					require.Nil(t, r.Line(), what)
					require.Empty(t, r.Text(), what)
					if len(want) > 0 {
						last := want[len(want)-1]
						require.Equal(t, last.LineNo, r.LineNo(), what)
						require.Equal(t, last.Offset, r.Offset(), what)
					}
				}
			}
		}
	}
}

// After a break the current record is the one broken on, and the next loop, of any kind,
// goes on with the record after it.
func TestAccessorsAfterBreak(t *testing.T) {
	in := "one\ntwo\nthree\nfour\nfive\n"
	opt := linereader.Options{Chomp: true, BufferSize: 16}
	want := refSplit([]byte(in), opt)
	{
		for _, kind := range []string{"Lines", "Views"} {
			what := kind
			r := linereader.New(strings.NewReader(in), opt)
			seq := r.Lines()
			if kind == "Views" {
				seq = r.Views()
			}
			for rec := range seq {
				if string(rec) == "two" {
					break
				}
			}
			require.Equal(t, wantCurrent(want[1]), currentOf(r), what)
			require.Equal(t, "two", string(r.Line()), what)
			require.True(t, r.Next(), what)
			require.Equal(t, wantCurrent(want[2]), currentOf(r), what)
			var rest []string
			for rec := range r.Lines() {
				rest = append(rest, string(rec))
			}
			require.Equal(t, []string{"four", "five"}, rest, what)
			require.Equal(t, want[4].LineNo, r.LineNo(), what)
		}
	}
}

// A loop nested in a Lines or Views body moves the current record on; once the inner loop
// ends, the outer body sees the inner loop's last record, and the outer loop's next record
// is described again by the accessors.
func TestAccessorsAcrossNestedLoops(t *testing.T) {
	in := "r1\nr2\nr3\nr4\nr5\nr6\nr7\n"
	opt := linereader.Options{Chomp: true, BufferSize: 16}
	want := refSplit([]byte(in), opt)
	for _, outer := range []string{"Lines", "Views"} {
		for _, inner := range []string{"Lines", "Views", "Next"} {
			what := outer + " around " + inner
			r := linereader.New(strings.NewReader(in), opt)
			seq := r.Lines()
			if outer == "Views" {
				seq = r.Views()
			}
			var order []string
			for rec := range seq {
				order = append(order, string(rec))
				idx := len(order) - 1
				require.Equal(t, wantCurrent(want[idx]), currentOf(r), what)
				if string(rec) != "r2" {
					continue
				}
				// Take two records inside.
				n := 0
				switch inner {
				case "Next":
					for n < 2 && r.Next() {
						order = append(order, "in:"+r.Text())
						n++
					}
				default:
					innerSeq := r.Lines()
					if inner == "Views" {
						innerSeq = r.Views()
					}
					for rec := range innerSeq {
						order = append(order, "in:"+string(rec))
						if n++; n == 2 {
							break
						}
					}
				}
				require.Equal(t, wantCurrent(want[3]), currentOf(r), what)
				// The outer body's own record was copied by Lines, borrowed by Views: only a
				// copy is still intact; either way the accessors moved on.
			}
			require.Equal(t, []string{"r1", "r2", "in:r3", "in:r4", "r5", "r6", "r7"}, order, what)
			require.Equal(t, int64(7), r.LineNo(), what)
		}
	}
}
