package parallel_test

// The test helpers of the package, in one place.

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// parWorkerCounts are the worker counts every case runs with.
var parWorkerCounts = []int{1, 2, 3, 8}

// noLeak fails the test, at its end, if a goroutine started during it is still running
// (goleak waits a while for goroutines on their way out).
func noLeak(t *testing.T) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

// parRec is a record as fn saw it.
type parRec struct {
	Data string
	Off  int64
}

func (r parRec) String() string { return fmt.Sprintf("{%q @%d}", r.Data, r.Off) }

// wantRecs is the reference: what a sequential linereader loop over in (decompressed)
// with opt yields, with each record's Offset. linereader's own tests hold that loop to
// a naive splitter and to Ruby; here it is what every parallel path must equal.
func wantRecs(in []byte, opt linereader.Options) []parRec {
	opt.Decompress = false
	r := linereader.New(bytes.NewReader(in), opt)
	var recs []parRec
	for rec := range r.Views() {
		recs = append(recs, parRec{string(rec), r.Offset()})
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	return recs
}

// collectParallel runs Foreach and returns the records fn saw, in offset order,
// checking on the way that each is an exact-size allocation.
func collectParallel(t *testing.T, name string, opt linereader.Options, workers int) ([]parRec, error) {
	var (
		mu   sync.Mutex
		recs []parRec
		bad  []string
	)
	err := parallel.Foreach(t.Context(), name, opt, workers, func(rec []byte, off int64) error {
		mu.Lock()
		defer mu.Unlock()
		if cap(rec) != len(rec) {
			bad = append(bad, fmt.Sprintf("record at %d: len %d, cap %d", off, len(rec), cap(rec)))
		}
		recs = append(recs, parRec{string(rec), off})
		return nil
	})
	require.Empty(t, bad, "records are exact-size allocations")
	slices.SortFunc(recs, func(a, b parRec) int { return int(a.Off - b.Off) })
	return recs, err
}

func firstDiff(want, got []parRec) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("record %d is %v, want %v", i, got[i], want[i])
		}
	}
	if len(got) > len(want) {
		return fmt.Sprintf("extra record %v", got[len(want)])
	}
	return fmt.Sprintf("missing record %v", want[len(got)])
}

// parText is a deterministic text of about size bytes that exercises every option set:
// LF and CRLF lines, runs of blank lines, "aa" and "aba" runs, ';', multi-byte UTF-8, and
// now and then a line of several KiB.
func parText(seed uint64, size int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	words := []string{"alpha", "beta", "aa", "aba", "ab;", "héllo", "日本語", "x", "aaa", "ba"}
	ends := []string{"\n", "\n", "\n", "\r\n", "\n\n", "\n\n\n", ";", "\r\n\r\n"}
	var b bytes.Buffer
	for b.Len() < size {
		n := rng.IntN(12)
		if rng.IntN(200) == 0 {
			n = 1000 + rng.IntN(3000)
		}
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString(ends[rng.IntN(len(ends))])
	}
	return b.Bytes()
}

// hugeRecords is a file of a few records of hundreds of KiB, and a few small ones among
// them: more sections than records.
func hugeRecords() []byte {
	var b bytes.Buffer
	for i, n := range []int{300 << 10, 10, 500 << 10, 3, 200 << 10} {
		b.WriteString(strings.Repeat(string(rune('a'+i)), n))
		b.WriteString("\n")
	}
	b.WriteString("tail without a newline")
	return b.Bytes()
}

// numbered is n lines "line 1\n", "line 2\n", ...
func numbered(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "line %d\n", i+1)
	}
	return b.Bytes()
}

// randomOver returns n bytes drawn from alphabet, each byte of it equally likely.
func randomOver(rng *rand.Rand, alphabet string, n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return p
}

// randomOptions draws an option set of every kind, for the randomized tests of both
// parallel paths: a separator from seps, paragraphs or whole input, sometimes a limit.
func randomOptions(rng *rand.Rand, seps []string) linereader.Options {
	opt := linereader.Options{Chomp: rng.IntN(2) == 0, BufferSize: []int{0, 1, 7, 64}[rng.IntN(4)]}
	switch rng.IntN(6) {
	case 0:
		opt.Paragraph = true
	case 1:
		opt.Whole = true
	default:
		opt.Sep = []byte(seps[rng.IntN(len(seps))])
	}
	if rng.IntN(4) == 0 {
		opt.Limit = 1 + rng.IntN(20)
		opt.UTF8 = rng.IntN(2) == 0
	}
	return opt
}

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "in")
	require.NoError(t, os.WriteFile(name, data, 0o600))
	return name
}

// gzipped returns data compressed with gzip.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

// requirePanic checks that v, recovered from a call of the package, is a *parallel.Panic
// of want, carrying the stack of the test's fn, where the panic happened.
func requirePanic(t *testing.T, v any, want error, msg string) {
	t.Helper()
	p, ok := v.(*parallel.Panic)
	require.True(t, ok, "%s: recovered %T %v, want a *parallel.Panic", msg, v, v)
	require.Equal(t, want, p.Value, msg)
	require.ErrorIs(t, p, want, msg)
	require.Contains(t, string(p.Stack), "parallel_test.Test", "%s: the stack is fn's", msg)
	require.Contains(t, p.Error(), want.Error(), msg)
}

// deadline fails the test if f has not returned within a generous time: the only way to
// tell a hang from a slow machine.
func deadline(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s: still running after 2 minutes", what)
	}
}

// waitFor polls cond until it holds, failing the test if it does not within a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not after a minute", what)
		}
	}
}

// settle waits until value stops changing (the same for 100 polls a millisecond apart,
// within a minute), calling check with it at every poll, so that a bound that must hold
// throughout is checked however far the goroutines got.
func settle(t *testing.T, what string, value func() int64, check func(int64)) {
	t.Helper()
	last, same := value(), 0
	waitFor(t, what+" settles", func() bool {
		v := value()
		check(v)
		if v == last {
			same++
		} else {
			last, same = v, 0
		}
		return same >= 100
	})
}

// iotestHalf is a source of text that delivers half of what each Read asks for.
func iotestHalf(text []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(text)) }
