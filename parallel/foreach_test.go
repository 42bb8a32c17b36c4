package parallel_test

// Foreach against the reference (reference_test.go): every record exactly once,
// with its exact offset, for option sets that take the sections path and the batches
// path, and worker counts 1, 2, 3 and 8; records owned; errors from fn and from the
// input; panics and Goexit; invalid options and a missing file; and no goroutine left
// after any call (goleak).

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// parCase is an option set, the input it reads, and the path Foreach takes.
type parCase struct {
	name     string
	opt      linereader.Options
	plain    []byte // the records' bytes
	gzip     bool   // the file holds plain gzipped
	sections bool   // read in sections (else by one goroutine, in batches)
}

func parCases(t *testing.T) []parCase {
	text := parText(1, 400<<10)
	crlf := bytes.ReplaceAll(parText(2, 200<<10), []byte("\n"), []byte("\r\n"))
	sep := func(s string) []byte { return []byte(s) }
	return []parCase{
		{"default", linereader.Options{}, text, false, true},
		{"chomp CRLF", linereader.Options{Chomp: true}, crlf, false, true},
		{"Sep ;", linereader.Options{Sep: sep(";")}, text, false, true},
		{"Sep CRLF chomp", linereader.Options{Sep: sep("\r\n"), Chomp: true}, crlf, false, true},
		{"small buffer", linereader.Options{BufferSize: 16, Chomp: true}, text, false, true},
		{"MaxRecord not reached", linereader.Options{MaxRecord: 1 << 20}, text, false, true},
		{"Decompress, plain input", linereader.Options{Decompress: true}, text, false, true},
		{"huge records", linereader.Options{}, hugeRecords(), false, true},
		{"huge records, small buffer", linereader.Options{BufferSize: 1000}, hugeRecords(), false, true},
		{"paragraph", linereader.Options{Paragraph: true}, text, false, false},
		{"paragraph chomp", linereader.Options{Paragraph: true, Chomp: true}, text, false, false},
		{"whole", linereader.Options{Whole: true}, text[:50<<10], false, false},
		{"whole limit", linereader.Options{Whole: true, Limit: 1000}, text, false, false},
		{"limit", linereader.Options{Limit: 7}, text, false, false},
		{"limit UTF8 chomp", linereader.Options{Limit: 5, UTF8: true, Chomp: true}, text, false, false},
		{"Sep aa (overlapping)", linereader.Options{Sep: sep("aa")}, text, false, false},
		{"Sep aba (overlapping)", linereader.Options{Sep: sep("aba")}, text, false, false},
		{"gzip", linereader.Options{Decompress: true}, text, true, false},
		{"gzip chomp CRLF", linereader.Options{Decompress: true, Chomp: true}, crlf, true, false},
		{"gzip paragraph", linereader.Options{Decompress: true, Paragraph: true}, text, true, false},
		{"gzip huge records", linereader.Options{Decompress: true}, hugeRecords(), true, false},
	}
}

func (c parCase) file(t *testing.T) string {
	if c.gzip {
		return writeFile(t, gzipped(t, c.plain))
	}
	return writeFile(t, c.plain)
}

// Every record exactly once, with the offset of a sequential read, on both paths and for
// every worker count.
func TestForeachMatchesSequential(t *testing.T) {
	noLeak(t)
	for _, c := range parCases(t) {
		name := c.file(t)
		f, err := os.Open(name)
		require.NoError(t, err)
		require.Equal(t, c.sections, parallel.Sectionable(f, c.opt), "%s: path", c.name)
		f.Close()
		want := wantRecs(c.plain, c.opt)
		require.NotEmpty(t, want)
		for _, w := range parWorkerCounts {
			got, err := collectParallel(t, name, c.opt, w)
			require.NoError(t, err, "%s, %d workers", c.name, w)
			if !slices.Equal(want, got) {
				t.Fatalf("%s, %d workers: %d records, want %d; first difference: %s",
					c.name, w, len(got), len(want), firstDiff(want, got))
			}
		}
	}
}

// Randomized inputs and options against the reference, through both paths.
func TestForeachRandomized(t *testing.T) {
	noLeak(t)
	rng := rand.New(rand.NewPCG(21, 21))
	alphabet := "ab\n\r;xé"
	seps := []string{"", "\n", ";", "ab", "aa", "\r\n", "aba", "b\n"}
	dir := t.TempDir()
	for i := range 300 {
		in := randomOver(rng, alphabet, rng.IntN(5000))
		opt := randomOptions(rng, seps)
		name := filepath.Join(dir, fmt.Sprint(i))
		require.NoError(t, os.WriteFile(name, in, 0o600))
		w := 1 + rng.IntN(8)
		got, err := collectParallel(t, name, opt, w)
		require.NoError(t, err)
		want := wantRecs(in, opt)
		if !slices.Equal(want, got) {
			t.Fatalf("case %d (%q, %+v, %d workers): %s", i, in, opt, w, firstDiff(want, got))
		}
	}
}

// Records are fn's own: kept and scribbled on by fn, no record changes another, and the
// kept ones are unchanged after the call (no view of a buffer reused meanwhile).
func TestForeachRecordsOwned(t *testing.T) {
	noLeak(t)
	for _, c := range parCases(t) {
		if c.name != "default" && c.name != "paragraph" && c.name != "gzip" {
			continue
		}
		name := c.file(t)
		want := wantRecs(c.plain, c.opt)
		for _, w := range []int{1, 3} {
			var (
				mu   sync.Mutex
				kept []parRec
				recs [][]byte
			)
			err := parallel.Foreach(t.Context(), name, c.opt, w, func(rec []byte, off int64) error {
				s := string(rec)
				for i := range rec {
					rec[i] = 'X' // scribble over what fn owns
				}
				copy(rec, s) // and put it back
				mu.Lock()
				kept = append(kept, parRec{s, off})
				recs = append(recs, rec)
				mu.Unlock()
				return nil
			})
			require.NoError(t, err)
			for i, rec := range recs {
				require.Equal(t, kept[i].Data, string(rec), "%s: kept record at %d changed after the call", c.name, kept[i].Off)
			}
			slices.SortFunc(kept, func(a, b parRec) int { return int(a.Off - b.Off) })
			require.Equal(t, want, kept, c.name)
		}
	}
}

var errFromFn = errors.New("fn failed")

// The first error from fn is returned and stops every worker: fn is not called once
// Foreach has returned, and no goroutine is left.
func TestForeachErrorFromFn(t *testing.T) {
	noLeak(t)
	for _, c := range parCases(t) {
		if c.name != "default" && c.name != "limit" && c.name != "gzip" {
			continue
		}
		name := c.file(t)
		for _, w := range parWorkerCounts {
			var returned atomic.Bool
			var calls, late atomic.Int64
			err := parallel.Foreach(t.Context(), name, c.opt, w, func(rec []byte, off int64) error {
				if returned.Load() {
					late.Add(1)
				}
				if calls.Add(1) == 100 {
					return fmt.Errorf("record at %d: %w", off, errFromFn)
				}
				return nil
			})
			returned.Store(true)
			require.ErrorIs(t, err, errFromFn, "%s, %d workers", c.name, w)
			require.Zero(t, late.Load(), "fn called after the return")
			require.Less(t, calls.Load(), int64(len(wantRecs(c.plain, c.opt))), "%s, %d workers: the error did not stop the workers", c.name, w)
		}
	}
}

// An error from the input (a record over MaxRecord, a truncated gzip stream) is returned
// on either path.
func TestForeachErrorFromInput(t *testing.T) {
	noLeak(t)
	text := numbered(20000)
	long := append(bytes.Repeat([]byte("y"), 5000), '\n')
	cut := bytes.IndexByte(text[100<<10:], '\n') + 100<<10 + 1
	withLong := slices.Concat(text[:cut], long, text[cut:])
	trunc := gzipped(t, text)
	trunc = trunc[:len(trunc)/2]
	for _, c := range []struct {
		name string
		data []byte
		opt  linereader.Options
		is   error
	}{
		{"MaxRecord, sections", withLong, linereader.Options{MaxRecord: 4096}, nil},
		{"MaxRecord, batches", withLong, linereader.Options{MaxRecord: 4096, Limit: 100000}, nil},
		{"truncated gzip", trunc, linereader.Options{Decompress: true}, nil},
	} {
		name := writeFile(t, c.data)
		for _, w := range parWorkerCounts {
			err := parallel.Foreach(t.Context(), name, c.opt, w, func([]byte, int64) error { return nil })
			require.Error(t, err, "%s, %d workers", c.name, w)
			if c.opt.MaxRecord > 0 {
				var tl *linereader.TooLongError
				require.ErrorAs(t, err, &tl, c.name)
				require.Equal(t, int64(cut), tl.Offset, c.name)
			}
		}
	}
}

// A panic in fn is raised again in the caller with its own value, once every worker has
// stopped: fn is not called after it, and no goroutine is left.
func TestForeachPanic(t *testing.T) {
	noLeak(t)
	for _, c := range parCases(t) {
		if c.name != "default" && c.name != "paragraph" {
			continue
		}
		name := c.file(t)
		for _, w := range parWorkerCounts {
			var returned atomic.Bool
			var calls, late atomic.Int64
			value := func() (v any) {
				defer func() { v = recover() }()
				_ = parallel.Foreach(t.Context(), name, c.opt, w, func(rec []byte, off int64) error {
					if returned.Load() {
						late.Add(1)
					}
					if calls.Add(1) == 50 {
						panic(errFromFn)
					}
					return nil
				})
				return nil
			}()
			returned.Store(true)
			requirePanic(t, value, errFromFn, fmt.Sprintf("%s, %d workers", c.name, w))
			require.Zero(t, late.Load(), "fn called after the panic reached the caller")
		}
	}
}

// A runtime.Goexit in fn (t.FailNow in a test's fn) ends the caller's goroutine too,
// after the workers have stopped.
func TestForeachGoexit(t *testing.T) {
	noLeak(t)
	name := writeFile(t, parText(4, 200<<10))
	for _, w := range parWorkerCounts {
		after := false
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = parallel.Foreach(t.Context(), name, linereader.Options{}, w, func([]byte, int64) error {
				runtime.Goexit()
				return nil
			})
			after = true
		}()
		<-done
		require.False(t, after, "%d workers: the caller went on after fn's Goexit", w)
	}
}

// Invalid options are reported before the file is opened; a missing file is reported as
// os.Open reports it.
func TestForeachInvalidOptionsAndMissingFile(t *testing.T) {
	noLeak(t)
	missing := filepath.Join(t.TempDir(), "missing")
	for _, w := range parWorkerCounts {
		called := false
		fn := func([]byte, int64) error { called = true; return nil }
		err := parallel.Foreach(t.Context(), missing, linereader.Options{Paragraph: true, Whole: true}, w, fn)
		require.ErrorIs(t, err, linereader.ErrInvalidOptions)
		err = parallel.Foreach(t.Context(), missing, linereader.Options{Limit: -1}, w, fn)
		require.ErrorIs(t, err, linereader.ErrInvalidOptions)
		err = parallel.Foreach(t.Context(), missing, linereader.Options{}, w, fn)
		require.ErrorIs(t, err, fs.ErrNotExist)
		var pe *fs.PathError
		require.ErrorAs(t, err, &pe)
		require.False(t, called)
	}
}

// An empty file gives no record on any path.
func TestForeachEmptyFile(t *testing.T) {
	noLeak(t)
	name := writeFile(t, nil)
	for _, opt := range []linereader.Options{{}, {Paragraph: true}, {Decompress: true}} {
		for _, w := range parWorkerCounts {
			got, err := collectParallel(t, name, opt, w)
			require.NoError(t, err)
			require.Empty(t, got)
		}
	}
}

// One worker reads in the caller's goroutine, in input order, and starts no goroutine.
func TestForeachOneWorkerInline(t *testing.T) {
	noLeak(t)
	text := parText(5, 100<<10)
	name := writeFile(t, text)
	for _, opt := range []linereader.Options{{}, {Paragraph: true}} {
		var got []parRec
		err := parallel.Foreach(t.Context(), name, opt, 1, func(rec []byte, off int64) error {
			if len(got) == 0 {
				require.NoError(t, goleak.Find(goleak.IgnoreCurrent()))
			}
			got = append(got, parRec{string(rec), off})
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, wantRecs(text, opt), got, "in input order")
	}
}

// workers < 1 means GOMAXPROCS: every record, once.
func TestForeachDefaultWorkers(t *testing.T) {
	noLeak(t)
	text := parText(6, 300<<10)
	name := writeFile(t, text)
	for _, w := range []int{0, -1} {
		got, err := collectParallel(t, name, linereader.Options{}, w)
		require.NoError(t, err)
		require.Equal(t, wantRecs(text, linereader.Options{}), got)
	}
}
