package linereader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

// Iterators nest: any iterator may be used inside another's loop body on the same
// Reader, and the records taken inside and outside add up to the input, in order.

func nestedInput(lines int) []byte {
	var b bytes.Buffer
	for i := range lines {
		fmt.Fprintf(&b, "line %d of the nested test%s\n", i, strings.Repeat("x", i%37))
	}
	return b.Bytes()
}

func TestNestedIterators(t *testing.T) {
	in := nestedInput(20000)
	name := filepath.Join(t.TempDir(), "in.txt")
	require.NoError(t, os.WriteFile(name, in, 0o644))
	base := runtime.NumGoroutine()
	for _, bufSize := range []int{1024, 0} {
		for _, outer := range Iterators {
			for _, inner := range Iterators {
				what := fmt.Sprintf("buffer %d, %s inside %s", bufSize, inner, outer)
				r, err := Open(name, Options{BufferSize: bufSize})
				require.NoError(t, err)
				var got bytes.Buffer
				n := 0
				// Every 500 records the loop body takes up to three more with inner (a
				// batch is given whole: the records of one inner step all count as taken).
				ReadSteps(r, outer, func(recs [][]byte) bool {
					nest := false
					for _, p := range recs {
						got.Write(p)
						require.Equal(t, base, runtime.NumGoroutine(), "%s: a goroutine started", what)
						if n++; n%500 == 250 {
							nest = true
						}
					}
					if nest {
						k := 0
						ReadSteps(r, inner, func(recs [][]byte) bool {
							for _, q := range recs {
								got.Write(q)
								k++
							}
							return k < 3
						})
					}
					return true
				})
				require.NoError(t, r.Err(), what)
				require.True(t, bytes.Equal(in, got.Bytes()), "%s: records inside and outside do not add up to the input", what)
				require.Equal(t, int64(len(in)), r.Stats().Bytes, what)
				require.Equal(t, int64(20000), r.LineNo(), what)
				require.NoError(t, r.Close())
			}
		}
	}
}

// iter.Pull over Lines: run to the end without calling stop, or stopped early; either
// way every record was seen once, and Next carries on where Pull stopped.
func TestLinesWithPull(t *testing.T) {
	in := nestedInput(5000)
	for _, early := range []bool{false, true} {
		r := New(bytes.NewReader(in), Options{BufferSize: 512})
		next, stop := iter.Pull(r.Lines())
		var got bytes.Buffer
		for i := 0; ; i++ {
			rec, ok := next()
			if !ok {
				break
			}
			got.Write(rec)
			if early && i == 1000 {
				stop()
				break
			}
		}
		for r.Next() {
			got.Write(r.Bytes())
		}
		require.Equal(t, in, got.Bytes())
	}
}

// A source that panics: the panic reaches the caller of the loop, on its own goroutine
// (no iterator reads on another), after every record read before it; the reader is
// still usable for Err and Close.
func TestSourcePanicReachesTheCaller(t *testing.T) {
	in := nestedInput(3000)
	src := &panicReader{r: bytes.NewReader(in), after: len(in) / 2}
	r := New(src, Options{BufferSize: 256})
	var got bytes.Buffer
	func() {
		defer func() { require.Equal(t, "source exploded", recover()) }()
		for rec := range r.Lines() {
			got.Write(rec)
		}
		t.Fatal("the loop ended without the panic")
	}()
	require.True(t, bytes.HasPrefix(in, got.Bytes()))
	require.Greater(t, got.Len(), len(in)/2-512, "records read before the panic were lost")
	require.NoError(t, r.Close())
}

type panicReader struct {
	r     io.Reader
	n     int
	after int
}

func (p *panicReader) Read(b []byte) (int, error) {
	if p.n >= p.after {
		panic("source exploded")
	}
	n, err := p.r.Read(b)
	p.n += n
	return n, err
}

// Pieces yields exactly the records of Next, cut into pieces when they do not fit in the
// buffer, with the same line numbers and errors, in bounded memory.
func TestPiecesMatchRecords(t *testing.T) {
	opts := []Options{
		{}, {Chomp: true}, {Sep: []byte("ab")}, {Sep: []byte("aba"), Chomp: true},
		{Sep: []byte("\r\n"), Chomp: true}, {Paragraph: true}, {Paragraph: true, Chomp: true},
		{Whole: true}, {Limit: 7}, {Limit: 150, UTF8: true}, {Limit: 90, Sep: []byte("ab")},
		{MaxRecord: 100}, {MaxRecord: 100, Sep: []byte("ba")},
	}
	patterns := map[string]func(io.Reader) io.Reader{
		"plain": func(r io.Reader) io.Reader { return r },
		"one":   iotest.OneByteReader,
		"half":  iotest.HalfReader,
		"eof":   iotest.DataErrReader,
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := range 300 {
		// Long records: few separators.
		in := RandomInput(rng, rng.IntN(4000))
		for i := range in {
			if in[i] == '\n' && rng.IntN(8) != 0 {
				in[i] = 'c'
			}
		}
		for _, opt := range opts {
			opt.BufferSize = 1 + rng.IntN(48)
			want, _, wantErr := plainRecords(in, opt, bytesSource)
			for name, pat := range patterns {
				what := fmt.Sprintf("iter %d opt %+v %s", iter, opt, name)
				r := New(pat(bytes.NewReader(in)), opt)
				pieces, _ := ReadAll(r, "Pieces")
				for _, p := range pieces {
					if p.Partial {
						require.Less(t, len(p.Rec), 4*opt.BufferSize+16, what)
					}
				}
				requireSame(t, want, Joined(pieces), what)
				require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(r.Err()), what)
				var tl *TooLongError
				if errors.As(wantErr, &tl) {
					var gotTL *TooLongError
					require.ErrorAs(t, r.Err(), &gotTL, what)
					require.Equal(t, *tl, *gotTL, what)
				}
				// Bounded: the buffer never holds a long record whole.
				require.LessOrEqual(t, r.Stats().Buffer.PeakCap, 8*opt.BufferSize+64, what)
			}
		}
	}
}

// Pieces of a record longer than the buffer keep memory at a few buffers, however long.
func TestPiecesOfAHugeRecord(t *testing.T) {
	in := append(bytes.Repeat([]byte("0123456789"), 3<<20), '\n') // 30 MiB and a newline
	r := New(bytes.NewReader(in), Options{BufferSize: 64 << 10, Chomp: true})
	total, pieces := 0, 0
	for p := range r.Pieces() {
		total += len(p)
		pieces++
		if !r.Partial() {
			require.Equal(t, int64(1), r.LineNo())
		}
	}
	require.NoError(t, r.Err())
	require.Equal(t, len(in)-1, total)
	require.Greater(t, pieces, 400)
	require.LessOrEqual(t, r.Stats().Buffer.PeakCap, 256<<10)
}

// The buffer for a longest record of L bytes: under 2(L+BufferSize) while it doubles;
// past gatherAt it grows no further (the record is gathered in blocks), and the record
// still comes whole and exact.
func TestBufferForLongRecords(t *testing.T) {
	sizes := []int{100 << 10, 1 << 20, 5<<20 + 3, 20 << 20}
	if !testing.Short() {
		sizes = append(sizes, 100<<20)
	}
	for _, L := range sizes {
		rs := 64 << 10
		in := append(bytes.Repeat([]byte("y"), L-1), '\n')
		in = append(in, "short\n"...)
		r := New(bytes.NewReader(in), Options{BufferSize: rs})
		n := 0
		for rec := range r.Views() {
			n++
			if n == 1 {
				require.Len(t, rec, L)
			}
		}
		require.NoError(t, r.Err())
		peak := r.Stats().Buffer.PeakCap
		if 2*(L+rs) <= gatherMin {
			require.LessOrEqual(t, peak, 2*(L+rs), "L %d", L)
		} else {
			require.LessOrEqual(t, peak, gatherMin, "L %d", L)
		}
		// Reset gives a buffer grown past four times BufferSize back, and keeps a
		// smaller one (a soft reset).
		before := r.e.buf.Cap()
		r.Reset(bytes.NewReader(nil))
		if before > 4*rs {
			require.Equal(t, rs, r.e.buf.Cap(), "L %d", L)
		} else {
			require.Equal(t, before, r.e.buf.Cap(), "L %d", L)
		}
	}
}

// Release gives a grown buffer back at once and the reader goes on with the same records.
func TestReleaseKeepsRecords(t *testing.T) {
	long := string(bytes.Repeat([]byte("z"), 1<<20)) + "\n"
	in := []byte(long + "a\nb\n" + long + "c\n")
	want, _, _ := plainRecords(in, Options{BufferSize: 4096}, bytesSource)
	r := New(bytes.NewReader(in), Options{BufferSize: 4096})
	got, _ := ReadSteps(r, "Next", func([][]byte) bool {
		r.Release()
		require.LessOrEqual(t, r.e.buf.Cap(), max(4096, r.e.buf.Len()))
		return true
	})
	requireSame(t, want, got, "release after every record")
	require.NoError(t, r.Err())
}

// During a loop, a buffer grown for one long record is given back once a buffer's worth
// of ordinary records has passed.
func TestLongRecordBufferGivenBackDuringLoop(t *testing.T) {
	var b bytes.Buffer
	b.Write(bytes.Repeat([]byte("q"), 4<<20))
	b.WriteByte('\n')
	for range 600000 {
		b.WriteString("an ordinary line of text\n")
	}
	r := New(bytes.NewReader(b.Bytes()), Options{BufferSize: 4096})
	for range r.Views() {
	}
	require.NoError(t, r.Err())
	require.GreaterOrEqual(t, r.Stats().Buffer.PeakCap, 4<<20)
	require.LessOrEqual(t, r.e.buf.Cap(), 1<<20, "the long record's buffer was kept")
}

// While long records keep coming, the buffer grown for them is kept: giving it back after
// each buffer's worth of input would only grow it again, copying at every step.
func TestLongRecordsKeepTheirBuffer(t *testing.T) {
	var b bytes.Buffer
	for i := range 40 {
		n := 700<<10 + (i*331<<10)%(600<<10) // 700 KiB to 1.3 MiB
		b.Write(bytes.Repeat([]byte{'a' + byte(i%26)}, n))
		b.WriteByte('\n')
	}
	r := New(bytes.NewReader(b.Bytes()), Options{BufferSize: 4096})
	n := 0
	for range r.Views() {
		n++
	}
	require.NoError(t, r.Err())
	require.Equal(t, 40, n)
	// 4 KiB doubles to hold 1.3 MiB in 9 or 10 growths; one give-back and regrowth more
	// at most, when a record was short next to a grown buffer.
	require.LessOrEqual(t, r.Stats().Buffer.Grows, 12, "the buffer was given back between long records")
}

// Long records are not moved in the buffer more than once in a while: once half the
// buffer is consumed, the few bytes read past a record move to the front before the next
// read, so the next long record has the whole buffer. (Compacting only a full buffer
// moved the start of every record that began past its middle: 55% of the input.)
func TestLongRecordsMoveLittle(t *testing.T) {
	var b bytes.Buffer
	for i := range 40 {
		n := 512<<10 + (i*97<<10)%(256<<10) // 512 to 768 KiB, as the verywide corpus
		b.Write(bytes.Repeat([]byte{'a' + byte(i%26)}, n))
		b.WriteByte('\n')
	}
	r := New(bytes.NewReader(b.Bytes()), Options{})
	n := 0
	for range r.Views() {
		n++
	}
	require.NoError(t, r.Err())
	require.Equal(t, 40, n)
	st := r.Stats().Buffer
	require.Less(t, st.BytesMoved, int64(b.Len())/10, "bytes moved in the buffer, growths included: %+v", st)
}
