package linereader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// These tests pin that read-ahead is invisible: Lines and Batches with a producer
// goroutine yield exactly what the plain Next loop yields (records, LineNo, Offset,
// Stats, Err), including when the loop breaks early and Next carries on, and that the
// producer never outlives the loop.

type seen struct {
	rec    string
	lineNo int64
	off    int64
}

// plainRecords is the reference: the Next loop, which never reads ahead.
func plainRecords(in []byte, opt Options, src func([]byte) io.Reader) ([]seen, Stats, error) {
	r := New(src(in), opt)
	var out []seen
	for r.Next() {
		out = append(out, seen{string(r.Bytes()), r.LineNo(), r.Offset()})
	}
	return out, r.Stats(), r.Err()
}

func forced(src io.Reader, opt Options) *Reader {
	r := New(src, opt)
	ForceReadAhead(r)
	return r
}

var raOptions = []Options{
	{},
	{Chomp: true},
	{Sep: []byte("ab")},
	{Sep: []byte("aba"), Chomp: true},
	{Paragraph: true},
	{Paragraph: true, Chomp: true, Limit: 5},
	{Limit: 3, UTF8: true},
	{Whole: true, Limit: 7},
	{MaxRecord: 40},
}

func randomInput(rng *rand.Rand, n int) []byte {
	alphabet := []byte("ab\n\n\r \xE3\x81")
	p := make([]byte, n)
	for i := range p {
		p[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return p
}

func bytesSource(p []byte) io.Reader { return bytes.NewReader(p) }

func TestReadAheadLinesMatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	starts := 0
	for iter := range 300 {
		in := randomInput(rng, rng.IntN(3000))
		for _, opt := range raOptions {
			opt.BufferSize = 1 + rng.IntN(64)
			want, wantStats, wantErr := plainRecords(in, opt, bytesSource)

			r := forced(bytes.NewReader(in), opt)
			var got []seen
			for rec := range r.Lines() {
				if len(rec) != cap(rec) {
					t.Fatalf("Lines record %q not exact-size", rec)
				}
				got = append(got, seen{string(rec), r.LineNo(), r.Offset()})
			}
			require.Equal(t, want, got, "iter %d opt %+v", iter, opt)
			require.Equal(t, wantErr, r.Err(), "iter %d opt %+v", iter, opt)
			st := r.Stats()
			require.Equal(t, wantStats.Records, st.Records)
			require.Equal(t, wantStats.Bytes, st.Bytes)
			require.Equal(t, wantStats.MaxRecord, st.MaxRecord)
			starts += r.pol.starts
		}
	}
	require.Greater(t, starts, 1000, "read-ahead hardly ever started")
}

func TestReadAheadBatchesMatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	starts := 0
	for iter := range 12 {
		in := randomInput(rng, rng.IntN(150000))
		for _, opt := range raOptions {
			opt.BufferSize = 1 + rng.IntN(256)
			want, wantStats, wantErr := plainRecords(in, opt, bytesSource)
			r := forced(bytes.NewReader(in), opt)
			var got []seen
			for batch := range r.Batches() {
				require.NotEmpty(t, batch)
				for _, rec := range batch {
					if len(rec) != cap(rec) {
						t.Fatalf("Batches record %q not capacity-capped", rec)
					}
					got = append(got, seen{rec: string(rec)})
				}
				// LineNo and Offset describe the batch's last record.
				last := len(got) - 1
				got[last].lineNo, got[last].off = r.LineNo(), r.Offset()
			}
			requireSame(t, want, got, fmt.Sprintf("iter %d opt %+v", iter, opt))
			require.Equal(t, wantErr, r.Err())
			require.Equal(t, wantStats.Records, r.Stats().Records)
			require.Equal(t, wantStats.Bytes, r.Stats().Bytes)
			starts += r.pol.starts
		}
	}
	require.Greater(t, starts, 50, "read-ahead hardly ever started")
}

// Breaking out of a read-ahead loop loses nothing: Next, Lines, Views and Batches carry on
// from the record after the last one given.
func TestReadAheadBreakThenContinue(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	starts := 0
	for iter := range 200 {
		in := randomInput(rng, 2000+rng.IntN(20000))
		opt := raOptions[rng.IntN(len(raOptions))]
		opt.BufferSize = 1 + rng.IntN(128)
		want, _, wantErr := plainRecords(in, opt, bytesSource)

		r := forced(bytes.NewReader(in), opt)
		var got []seen
		for len(got) < len(want)+1 {
			n := rng.IntN(50)
			before := len(got)
			switch rng.IntN(4) {
			case 0:
				for rec := range r.Lines() {
					got = append(got, seen{string(rec), r.LineNo(), r.Offset()})
					if len(got)-before >= n {
						break
					}
				}
			case 1:
				for b := range r.Batches() {
					for _, rec := range b {
						got = append(got, seen{rec: string(rec)})
					}
					got[len(got)-1].lineNo, got[len(got)-1].off = r.LineNo(), r.Offset()
					if len(got)-before >= n {
						break
					}
				}
			case 2:
				for rec := range r.Views() {
					got = append(got, seen{string(rec), r.LineNo(), r.Offset()})
					if len(got)-before >= n {
						break
					}
				}
			case 3:
				for len(got)-before < n && r.Next() {
					got = append(got, seen{string(r.Bytes()), r.LineNo(), r.Offset()})
				}
			}
			if len(got) == before && n > 0 {
				break // the input is exhausted
			}
		}
		requireSame(t, want, got, fmt.Sprintf("iter %d opt %+v", iter, opt))
		require.Equal(t, wantErr, r.Err())
		require.Nil(t, r.ra, "producer still running after the loops")
		starts += r.pol.starts
	}
	require.Greater(t, starts, 100, "read-ahead hardly ever started")
}

// A read error mid-input reaches Err after every record before it, with read-ahead too.
func TestReadAheadReadError(t *testing.T) {
	boom := errors.New("boom")
	in := bytes.Repeat([]byte("0123456789abcdef\n"), 5000)
	for _, cut := range []int{0, 1, 100, 40000, len(in) - 1} {
		src := func(p []byte) io.Reader { return io.MultiReader(bytes.NewReader(p[:cut]), errReader{boom}) }
		opt := Options{BufferSize: 512}
		want, _, wantErr := plainRecords(in, opt, src)
		require.ErrorIs(t, wantErr, boom)
		r := forced(src(in), opt)
		var got []seen
		for rec := range r.Lines() {
			got = append(got, seen{string(rec), r.LineNo(), r.Offset()})
		}
		require.Equal(t, want, got, "cut %d", cut)
		require.ErrorIs(t, r.Err(), boom)
	}
}

// requireSame compares records; a record whose LineNo and Offset were not observed (in the
// middle of a batch) has them zero and is compared by its bytes only.
func requireSame(t *testing.T, want, got []seen, what string) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.lineNo == 0 && g.off == 0 {
			w.lineNo, w.off = 0, 0
		}
		if w != g {
			t.Fatalf("%s: record %d is %+v, want %+v", what, i, g, want[i])
		}
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// The producer never outlives the loop: not at the end, not after break, not after a
// panic in the loop body.
func TestReadAheadNoGoroutineLeak(t *testing.T) {
	in := bytes.Repeat([]byte("a line of text\n"), 100000)
	base := runtime.NumGoroutine()
	for range 20 {
		r := forced(bytes.NewReader(in), Options{BufferSize: 1024})
		n := 0
		for range r.Lines() {
			if n++; n == 5000 {
				break
			}
		}
		require.Nil(t, r.ra)
		func() {
			defer func() { recover() }()
			for range r.Batches() {
				panic("loop body panics")
			}
		}()
		require.Nil(t, r.ra)
		require.NoError(t, r.Close())
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), base, "producer goroutines leaked")
}

var sink uint32

// On a regular file read-ahead starts on its own when the loop body works; on a pipe it
// never does.
func TestReadAheadOnlyForRegularFiles(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("read-ahead needs two CPUs")
	}
	in := bytes.Repeat([]byte("0123456789\n"), 200000)
	name := filepath.Join(t.TempDir(), "in.txt")
	require.NoError(t, os.WriteFile(name, in, 0o644))

	r, err := Open(name, Options{})
	require.NoError(t, err)
	started, n := false, 0
	for rec := range r.Lines() {
		// A loop body that does real work: the policy starts read-ahead for it.
		h := uint32(2166136261)
		for range 40 {
			for _, c := range rec {
				h = (h ^ uint32(c)) * 16777619
			}
		}
		sink += h
		started = started || r.ra != nil
		require.Equal(t, "0123456789\n", string(rec))
		n++
	}
	require.NoError(t, r.Err())
	require.Equal(t, 200000, n)
	require.True(t, started, "read-ahead never started on a regular file")
	require.NoError(t, r.Close())

	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	go func() { pw.Write(in); pw.Close() }()
	r = New(pr, Options{})
	n = 0
	for range r.Lines() {
		require.Nil(t, r.ra, "read ahead from a pipe")
		n++
	}
	require.Equal(t, 200000, n)
	pr.Close()
}

// Read-ahead never holds more than budget bytes of records ahead of the caller, and
// never reads ahead a record larger than a chunk: the caller reads that one itself.
func TestReadAheadBoundsMemory(t *testing.T) {
	for _, size := range []int{40 << 10, chunkBytes, chunkBytes + 1, 1 << 20, 8 << 20} {
		big := append(bytes.Repeat([]byte("x"), size-1), '\n')
		count := max(6, 3*budget/size)
		in := bytes.Repeat(big, count)
		for _, batches := range []bool{false, true} {
			r := forced(bytes.NewReader(in), Options{})
			n, ahead := 0, 0
			check := func() {
				if r.ra != nil {
					ahead++
					require.LessOrEqual(t, r.ra.inflight.Load(), int64(budget), "size %d", size)
				}
				for _, c := range r.queue {
					if size > chunkBytes {
						require.Zero(t, len(c.recs), "a record larger than a chunk was read ahead")
					}
				}
			}
			if batches {
				for batch := range r.Batches() {
					check()
					for _, rec := range batch {
						require.Len(t, rec, size)
						n++
					}
				}
			} else {
				for rec := range r.Lines() {
					check()
					require.Len(t, rec, size)
					n++
				}
			}
			require.NoError(t, r.Err())
			require.Equal(t, count, n, "size %d batches %v", size, batches)
			if size <= chunkBytes {
				require.Positive(t, ahead, "size %d batches %v: nothing was read ahead", size, batches)
			}
		}
	}
}

// When read-ahead judges itself useless it stops mid-loop, queues what it read ahead and
// carries on plainly, then starts again later: records, line numbers, offsets and the
// error are those of the plain loop throughout.
func TestReadAheadStopsWhenIdleAndRestarts(t *testing.T) {
	var in bytes.Buffer
	for i := range 100000 {
		fmt.Fprintf(&in, "record %d\n", i)
	}
	for _, opt := range []Options{{BufferSize: 4096}, {BufferSize: 4096, Chomp: true}} {
		want, wantStats, wantErr := plainRecords(in.Bytes(), opt, bytesSource)
		r := New(bytes.NewReader(in.Bytes()), opt)
		forceIdleReadAhead(r, 64<<10)
		var got []seen
		for rec := range r.Lines() {
			got = append(got, seen{string(rec), r.LineNo(), r.Offset()})
		}
		requireSame(t, want, got, fmt.Sprintf("opt %+v", opt))
		require.Equal(t, wantErr, r.Err())
		require.Equal(t, wantStats.Records, r.Stats().Records)
		require.Equal(t, wantStats.Bytes, r.Stats().Bytes)
		require.GreaterOrEqual(t, r.pol.starts, 2, "read-ahead did not start again after stopping")
	}
}

// Batches of very short records end at batchRecords records, whether read ahead or not.
func TestBatchesOfManyTinyRecords(t *testing.T) {
	in := bytes.Repeat([]byte("\n\n\nab\n"), 30000)
	for _, force := range []bool{false, true} {
		for _, opt := range []Options{{}, {Chomp: true}} {
			want, _, _ := plainRecords(in, opt, bytesSource)
			r := New(bytes.NewReader(in), opt)
			if force {
				r = forced(bytes.NewReader(in), opt)
			}
			var got []seen
			for batch := range r.Batches() {
				require.LessOrEqual(t, len(batch), batchRecords)
				for _, rec := range batch {
					got = append(got, seen{rec: string(rec)})
				}
				got[len(got)-1].lineNo, got[len(got)-1].off = r.LineNo(), r.Offset()
			}
			requireSame(t, want, got, fmt.Sprintf("read-ahead %v opt %+v", force, opt))
			require.NoError(t, r.Err())
		}
	}
}
