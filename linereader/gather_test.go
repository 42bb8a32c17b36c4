package linereader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

// Records longer than the largest buffer are gathered in blocks and made one array at
// their end (buffer.go). With gatherAt lowered to a few dozen bytes, so that most records
// of these inputs are gathered, every option set, read pattern and iterator yields
// exactly what the engine yields with gathering out of reach: the same records, line
// numbers, offsets, pieces and errors.
func TestGatheredRecordsMatchUngathered(t *testing.T) {
	opts := []Options{
		{}, {Chomp: true}, {Sep: []byte("ab")}, {Sep: []byte("aba"), Chomp: true},
		{Sep: []byte("\r\n"), Chomp: true}, {Paragraph: true}, {Paragraph: true, Chomp: true},
		{Whole: true}, {Whole: true, Limit: 50}, {Limit: 40}, {Limit: 45, UTF8: true},
		{Limit: 30, Sep: []byte("ab")}, {MaxRecord: 60}, {MaxRecord: 60, Sep: []byte("ba")},
	}
	boom := errors.New("boom")
	patterns := map[string]func([]byte) io.Reader{
		"plain": bytesSource,
		"one":   func(p []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(p)) },
		"half":  func(p []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(p)) },
		"eof":   func(p []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(p)) },
		"error": func(p []byte) io.Reader { return io.MultiReader(bytes.NewReader(p), errReader{boom}) },
	}
	rng := rand.New(rand.NewPCG(21, 22))
	gathered := 0
	for iter := range 40 {
		in := RandomInput(rng, rng.IntN(3000))
		for i := range in {
			if in[i] == '\n' && rng.IntN(10) != 0 {
				in[i] = 'c' // long records: few separators
			}
		}
		for _, opt := range opts {
			opt.BufferSize = 1 + rng.IntN(16)
			gatherAt := max(2*opt.BufferSize, opt.BufferSize+2*(len(opt.Sep)+4)) + rng.IntN(32)
			for name, pat := range patterns {
				for _, how := range Iterators {
					what := fmt.Sprintf("iter %d %s over %s, %+v, gatherAt %d", iter, how, name, opt, gatherAt)
					ref := New(pat(in), opt)
					ref.e.cfg.gatherAt = math.MaxInt
					want, wantErr := ReadAll(ref, how)
					r := New(pat(in), opt)
					r.e.cfg.gatherAt = gatherAt
					got, err := ReadAll(r, how)
					if how == "Batches" {
						// Where batches end depends on the buffer: compare the records,
						// and the line number and offset after the last.
						want, got = unobserved(want), unobserved(got)
					}
					requireSame(t, want, got, what)
					require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), what)
					require.Equal(t, ref.Stats().Records, r.Stats().Records, what)
					require.Equal(t, ref.Stats().Bytes, r.Stats().Bytes, what)
					if st := r.Stats(); st.MaxRecord > st.Buffer.PeakCap {
						gathered++ // a record longer than the buffer ever was: it was gathered
					}
				}
			}
		}
	}
	t.Logf("%d readers gathered a record", gathered)
	require.Greater(t, gathered, 3000, "records were hardly ever gathered")
}

// A record gathered from blocks is one array of its own: Lines hands it out as it is,
// exact-size, and Views lends it; the records after it come from the buffer again.
func TestGatheredRecordIsOneArray(t *testing.T) {
	long := bytes.Repeat([]byte("0123456789"), 1000) // 10,000 bytes
	in := append(append(append([]byte("a\n"), long...), "\r\nb\n"...), long...)
	for _, how := range []string{"Lines", "Views"} {
		r := New(bytes.NewReader(in), Options{BufferSize: 64, Chomp: true})
		r.e.cfg.gatherAt = 256
		got, err := ReadAll(r, how)
		require.NoError(t, err)
		require.Equal(t, []Seen{
			{Rec: "a", LineNo: 1, Off: 0},
			{Rec: string(long), LineNo: 2, Off: 2},
			{Rec: "b", LineNo: 3, Off: 10004},
			{Rec: string(long), LineNo: 4, Off: 10006},
		}, got, how)
		require.LessOrEqual(t, r.Stats().Buffer.PeakCap, 256+64, "%s: the buffer grew past gatherAt", how)
		require.Equal(t, 10000, r.Stats().MaxRecord, how)
	}
}

// unobserved clears LineNo and Offset of every record but the last.
func unobserved(s []Seen) []Seen {
	out := append([]Seen(nil), s...)
	for i := 0; i < len(out)-1; i++ {
		out[i].LineNo, out[i].Off = 0, 0
	}
	return out
}

// Sections gather long records too: cut anywhere, the sections' records with gathering
// are the records of one sequential read without it.
func TestGatheredRecordsInSections(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for iter := range 300 {
		in := RandomInput(rng, rng.IntN(2000))
		for i := range in {
			if in[i] == '\n' && rng.IntN(10) != 0 {
				in[i] = 'c'
			}
		}
		sep := []string{"\n", "ab", "\r\n", "x"}[rng.IntN(4)]
		opt := Options{Sep: []byte(sep), BufferSize: 1 + rng.IntN(16), Chomp: rng.IntN(2) == 0}
		want, _, err := plainRecords(in, opt, bytesSource)
		require.NoError(t, err)
		cut := int64(rng.IntN(len(in) + 1))
		var got []Seen
		for _, span := range []Span{{0, cut}, {cut, int64(len(in))}} {
			r := NewSection(bytes.NewReader(in), span.Start, span.End, opt)
			r.e.cfg.gatherAt = max(2*opt.BufferSize, opt.BufferSize+2*(len(sep)+4)) + rng.IntN(16)
			recs, err := ReadAll(r, "Next")
			require.NoError(t, err)
			for i := range recs {
				recs[i].LineNo += int64(len(got)) // sections count lines from 0
			}
			got = append(got, recs...)
		}
		requireSame(t, want, got, fmt.Sprintf("iter %d %+v cut %d", iter, opt, cut))
	}
}
