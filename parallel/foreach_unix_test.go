//go:build unix

package parallel_test

// Foreach over a FIFO and a device: read by one goroutine, records handed out as
// they arrive, memory bounded however fast the writer, and a failure in fn ends a read
// blocked on the FIFO instead of hanging.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/testkit/testfifo"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// fifo makes a FIFO and starts write on a goroutine with its write end; the returned
// channel gives write's error once it has returned and the write end is closed.
func fifo(t *testing.T, write func(w *os.File) error) (string, chan error) {
	t.Helper()
	name := testfifo.Make(t, "fifo")
	done := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			done <- err
			return
		}
		err = write(w)
		w.Close()
		done <- err
	}()
	return name, done
}

// Every record of a FIFO, with exact offsets, written in pieces that cut records.
func TestForeachFIFO(t *testing.T) {
	noLeak(t)
	text := parText(31, 300<<10)
	for _, opt := range []linereader.Options{{}, {Chomp: true}, {Paragraph: true}} {
		for _, w := range parWorkerCounts {
			name, done := fifo(t, func(f *os.File) error {
				for p := text; len(p) > 0; p = p[min(len(p), 1000):] {
					if _, err := f.Write(p[:min(len(p), 1000)]); err != nil {
						return err
					}
				}
				return nil
			})
			got, err := collectParallel(t, name, opt, w)
			require.NoError(t, err)
			require.NoError(t, <-done)
			require.Equal(t, wantRecs(text, opt), got, "%+v, %d workers", opt, w)
		}
	}
}

// A record read from a FIFO reaches fn before the next read: a writer that waits for fn
// to see each record before writing the next one does not deadlock.
func TestForeachFIFORecordByRecord(t *testing.T) {
	noLeak(t)
	for _, w := range []int{2, 3} {
		seen := make(chan struct{}, 1)
		const n = 30
		name, done := fifo(t, func(f *os.File) error {
			for i := range n {
				if _, err := fmt.Fprintf(f, "line %d\n", i+1); err != nil {
					return err
				}
				<-seen
			}
			return nil
		})
		var got atomic.Int64
		deadline(t, "record by record", func() {
			err := parallel.Foreach(t.Context(), name, linereader.Options{}, w, func([]byte, int64) error {
				got.Add(1)
				seen <- struct{}{}
				return nil
			})
			require.NoError(t, err)
		})
		require.NoError(t, <-done)
		require.Equal(t, int64(n), got.Load())
	}
}

// fn fails while the writer keeps the FIFO open and writes nothing more: the read blocked
// on it ends (the file is closed) and the error is returned.
func TestForeachFIFOErrorWhileBlocked(t *testing.T) {
	noLeak(t)
	for _, w := range []int{2, 8} {
		release := make(chan struct{})
		name, done := fifo(t, func(f *os.File) error {
			_, err := f.Write(numbered(100))
			<-release // the FIFO stays open, empty
			return err
		})
		deadline(t, "error while blocked", func() {
			err := parallel.Foreach(t.Context(), name, linereader.Options{}, w, func(rec []byte, _ int64) error {
				if string(rec) == "line 100\n" {
					return errFromFn
				}
				return nil
			})
			require.ErrorIs(t, err, errFromFn)
		})
		close(release)
		<-done // the write may fail: nobody reads any more
	}
}

// However fast the writer, while fn is stuck the records in flight stay within a few
// batches per worker: the writer gets no further than them, the Reader's buffer and the
// pipe's own capacity.
func TestForeachFIFOMemoryBounded(t *testing.T) {
	noLeak(t)
	const recLen = 64
	line := append(bytes.Repeat([]byte("m"), recLen-1), '\n')
	const total = 16 << 20
	for _, w := range []int{2, 3} {
		var written atomic.Int64
		name, done := fifo(t, func(f *os.File) error {
			for written.Load() < total {
				n, err := f.Write(bytes.Repeat(line, 64))
				written.Add(int64(n))
				if err != nil {
					return nil // the reader is gone: the test closed it
				}
			}
			return nil
		})
		stuck := make(chan struct{})
		var calls atomic.Int64
		errc := make(chan error, 1)
		go func() {
			errc <- parallel.Foreach(t.Context(), name, linereader.Options{}, w, func([]byte, int64) error {
				if calls.Add(1) >= 10000 {
					<-stuck
				}
				return nil
			})
		}()
		// Once the workers are stuck, the writer gets as far as it can: wait until it stops
		// moving, checking the bound all along. Bytes written but not yet given to fn: once
		// fn is stuck, calls stays put.
		batches := int64(2*w+1) * parallel.BatchBytes
		slack := int64(2*linereader.DefaultBufferSize + 1<<20) // Reader's buffer, pipe capacity
		waitFor(t, "fn stuck", func() bool { return calls.Load() >= 10000 })
		settle(t, "the writer", written.Load, func(n int64) {
			if ahead := n - calls.Load()*recLen; ahead > batches+slack {
				t.Errorf("%d workers: %d bytes written ahead of fn while it was stuck, bound %d", w, ahead, batches+slack)
			}
		})
		close(stuck)
		err := <-errc
		require.NoError(t, err)
		require.NoError(t, <-done)
		require.Equal(t, int64(total/recLen), calls.Load())
	}
}

// A device is read as a stream: /dev/null has no record.
func TestForeachDevice(t *testing.T) {
	noLeak(t)
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	for _, w := range parWorkerCounts {
		got, err := collectParallel(t, "/dev/null", linereader.Options{}, w)
		require.NoError(t, err)
		require.Empty(t, got)
	}
}

// A done ctx stops Foreach and Fold while a read waits on a FIFO that its writer keeps
// open and empty: the read ends (the file is closed) and ctx's error is returned.
func TestForeachAndFoldContextWhileFIFOBlocks(t *testing.T) {
	noLeak(t)
	for _, w := range []int{1, 2, 8} {
		for _, call := range []string{"Foreach", "Fold"} {
			release := make(chan struct{})
			name, done := fifo(t, func(f *os.File) error {
				_, err := f.Write(numbered(100))
				<-release // the FIFO stays open, empty
				return err
			})
			ctx, cancel := context.WithCancel(t.Context())
			var seen atomic.Int64
			fn := func([]byte, int64) error {
				if seen.Add(1) == 100 {
					cancel() // every record is in; the next read waits
				}
				return nil
			}
			deadline(t, call+" stopped by ctx", func() {
				var err error
				if call == "Foreach" {
					err = parallel.Foreach(ctx, name, linereader.Options{}, w, fn)
				} else {
					_, err = parallel.Fold(ctx, name, linereader.Options{}, w,
						func() int { return 0 },
						func(acc int, rec []byte, off int64) (int, error) { return acc + 1, fn(rec, off) },
						func(a, b int) int { return a + b })
				}
				require.ErrorIs(t, err, context.Canceled, "%s, %d workers", call, w)
			})
			require.Equal(t, int64(100), seen.Load())
			close(release)
			<-done // the write may fail: nobody reads any more
			cancel()
		}
	}
}
