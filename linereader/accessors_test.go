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

// accessorInputs mix lines short and longer than the 16-byte buffer used, CRLF, empty
// lines and a last line without its newline.
var accessorInputs = []string{
	"",
	"a\n",
	"one\r\ntwo\n\nthree is longer than the buffer\r\nfour",
	strings.Repeat("x\n", 40) + strings.Repeat("y", 50) + "\n\n" + "end",
}

func checkAccessors(t *testing.T, r *linereader.Reader, rec []byte, want linereader.Seen, what string) {
	t.Helper()
	require.Equal(t, want.Rec, string(rec), what)
	require.Equal(t, want, linereader.Current(r), what)
	require.Equal(t, want.Rec, r.Text(), what)
	line := r.Line()
	require.Equal(t, want.Rec, string(line), what)
	require.Equal(t, len(line), cap(line), what)
	if len(line) > 0 && len(rec) > 0 {
		require.NotSame(t, &rec[0], &line[0], "%s: Line shares memory with the record yielded", what)
	}
}

func TestAccessorsFollowEveryIterator(t *testing.T) {
	for _, in := range accessorInputs {
		for _, opt := range []linereader.Options{{BufferSize: 16}, {BufferSize: 16, Chomp: true}} {
			want := refSplit([]byte(in), opt)
			for _, kind := range []string{"Next", "Lines", "Views", "Batches"} {
				what := fmt.Sprintf("%s %q chomp=%v", kind, in, opt.Chomp)
				r := linereader.New(bytes.NewReader([]byte(in)), opt)
				i := 0
				_, err := linereader.ReadSteps(r, kind, func(recs [][]byte) bool {
					// During a batch the accessors describe its last record.
					i += len(recs) - 1
					require.Less(t, i, len(want), what)
					checkAccessors(t, r, recs[len(recs)-1], want[i], fmt.Sprintf("%s record %d", what, i))
					i++
					return true
				})
				require.NoError(t, err, what)
				require.Equal(t, len(want), i, what)
				require.Nil(t, r.Bytes(), what)
				require.Nil(t, r.Line(), what)
				require.Empty(t, r.Text(), what)
				if len(want) > 0 {
					last := want[len(want)-1]
					require.Equal(t, last.LineNo, r.LineNo(), what)
					require.Equal(t, last.Off, r.Offset(), what)
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
	for _, kind := range []string{"Lines", "Views"} {
		what := kind
		r := linereader.New(strings.NewReader(in), opt)
		linereader.ReadSteps(r, kind, func(recs [][]byte) bool { return string(recs[0]) != "two" })
		require.Equal(t, want[1], linereader.Current(r), what)
		require.Equal(t, "two", string(r.Line()), what)
		require.True(t, r.Next(), what)
		require.Equal(t, want[2], linereader.Current(r), what)
		rest, _ := linereader.ReadAll(r, "Lines")
		require.Equal(t, []string{"four", "five"}, linereader.Texts(rest), what)
		require.Equal(t, want[4].LineNo, r.LineNo(), what)
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
			var order []string
			linereader.ReadSteps(r, outer, func(recs [][]byte) bool {
				order = append(order, string(recs[0]))
				require.Equal(t, want[len(order)-1], linereader.Current(r), what)
				if string(recs[0]) != "r2" {
					return true
				}
				// Take two records inside.
				n := 0
				inside, _ := linereader.ReadSteps(r, inner, func([][]byte) bool { n++; return n < 2 })
				for _, s := range inside {
					order = append(order, "in:"+s.Rec)
				}
				require.Equal(t, want[3], linereader.Current(r), what)
				// The outer body's own record was copied by Lines, borrowed by Views: only a
				// copy is still intact; either way the accessors moved on.
				return true
			})
			require.Equal(t, []string{"r1", "r2", "in:r3", "in:r4", "r5", "r6", "r7"}, order, what)
			require.Equal(t, int64(7), r.LineNo(), what)
		}
	}
}
