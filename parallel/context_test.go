package parallel_test

// The context, and records before a read that may block: Foreach and Map stopped by ctx,
// also while their source blocks; Map hands out what it has read before it waits.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// A done ctx stops Foreach on every path, which returns ctx's error; fn is not called
// after the return. A ctx done before the call reads nothing.
func TestForeachContext(t *testing.T) {
	noLeak(t)
	for _, c := range parCases(t) {
		if c.name != "default" && c.name != "paragraph" && c.name != "gzip" {
			continue
		}
		name := c.file(t)
		for _, w := range parWorkerCounts {
			ctx, cancel := context.WithCancel(t.Context())
			var calls, late atomic.Int64
			var returned atomic.Bool
			err := parallel.Foreach(ctx, name, c.opt, w, func([]byte, int64) error {
				if returned.Load() {
					late.Add(1)
				}
				if calls.Add(1) == 100 {
					cancel()
				}
				return nil
			})
			returned.Store(true)
			require.ErrorIs(t, err, context.Canceled, "%s, %d workers", c.name, w)
			require.Zero(t, late.Load())
			require.Less(t, calls.Load(), int64(len(wantRecs(c.plain, c.opt))), "%s, %d workers: stopped", c.name, w)

			called := false
			err = parallel.Foreach(ctx, name, c.opt, w, func([]byte, int64) error { called = true; return nil })
			require.ErrorIs(t, err, context.Canceled)
			require.False(t, called, "%s, %d workers: fn called under a done ctx", c.name, w)
		}
	}
}

// pausingPipe writes text to a pipe in pieces that cut records, then keeps the pipe
// open, writing nothing, until release is closed; then it closes the pipe.
func pausingPipe(text []byte) (r *io.PipeReader, release chan struct{}) {
	pr, pw := io.Pipe()
	release = make(chan struct{})
	go func() {
		for p := text; len(p) > 0; p = p[min(len(p), 777):] {
			if _, err := pw.Write(p[:min(len(p), 777)]); err != nil {
				return
			}
		}
		<-release
		pw.Close()
	}()
	return pr, release
}

// Regression (round 3: 830 of 5,000 records were held while the source paused): every
// record Map has read reaches the loop before a read that blocks. The source delivers
// 5,000 records and pauses; the loop must get all 5,000 results during the pause.
func TestMapRecordsBeforeABlockingRead(t *testing.T) {
	noLeak(t)
	const n = 5000
	text := numbered(n)
	for _, opt := range []linereader.Options{{}, {Chomp: true}, {Sep: []byte("\r\n")}, {Limit: 9}} {
		text := text
		if opt.Sep != nil {
			text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
		}
		want := sequentialMap(text, opt)
		for _, w := range []int{1, 2, 3, 8} {
			pr, release := pausingPipe(text)
			var got atomic.Int64
			done := make(chan []mapResult)
			go func() {
				var res []mapResult
				for v := range parallel.Map(t.Context(), linereader.New(pr, opt), w, costly) {
					res = append(res, v)
					got.Add(1)
				}
				done <- res
			}()
			waitFor(t, fmt.Sprintf("%+v, %d workers: every record read before the pause", opt, w), func() bool { return got.Load() >= int64(len(want)) })
			close(release)
			require.Equal(t, want, <-done, "%+v, %d workers", opt, w)
		}
	}
}

// A done ctx ends Map's loop while the source is blocked in a Read: the loop gets every
// result read before, and ends; the goroutine in the Read ends once the Read returns.
func TestMapContextWhileSourceBlocks(t *testing.T) {
	noLeak(t)
	text := numbered(300)
	want := sequentialMap(text, linereader.Options{})
	for _, w := range []int{1, 2, 8} {
		pr, release := pausingPipe(text)
		ctx, cancel := context.WithCancel(t.Context())
		var got []mapResult
		deadline(t, "the loop ends on ctx", func() {
			for v := range parallel.Map(ctx, linereader.New(pr, linereader.Options{}), w, costly) {
				got = append(got, v)
				if len(got) == len(want) {
					cancel() // the source is paused now, and stays so
				}
			}
		})
		require.Equal(t, want, got, "%d workers", w)
		close(release) // the blocked Read returns: its goroutine ends (noLeak)
		cancel()
	}
}

// A done ctx ends Map's loop while records flow; a ctx done before the loop gives
// nothing.
func TestMapContext(t *testing.T) {
	noLeak(t)
	text := numbered(50000)
	want := sequentialMap(text, linereader.Options{})
	for _, w := range parWorkerCounts {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		r := linereader.New(iotestHalf(text), linereader.Options{})
		var got []mapResult
		for v := range parallel.Map(ctx, r, w, costly) {
			got = append(got, v)
			if len(got) == 1000 {
				cancel()
			}
		}
		require.GreaterOrEqual(t, len(got), 1000)
		require.Less(t, len(got), len(want), "%d workers: the loop went on to the end", w)
		require.Equal(t, want[:len(got)], got, "%d workers: results in order", w)

		var none []mapResult
		for v := range parallel.Map(ctx, linereader.New(iotestHalf(text), linereader.Options{}), w, costly) {
			none = append(none, v)
		}
		require.Empty(t, none)
	}
}
