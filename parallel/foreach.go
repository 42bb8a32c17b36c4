package parallel

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/sections"
	"github.com/foreachio/foreach/internal/ztext"
	"github.com/foreachio/foreach/linereader"
)

// recordFunc is what a worker calls for each record: Foreach's fn, or Fold's step.
type recordFunc func(rec []byte, off int64) error

// worker makes the recordFunc of one worker, on that worker's goroutine before its first
// record, and the done to call once it has had its last record without failing; and it
// says whether that fn keeps the records it is given.
type worker struct {
	start func() (fn recordFunc, done func())
	// borrows: fn keeps no record past its return (FoldViews), so each is handed to it
	// where it lies, in a Reader's buffer or a batch, valid until fn returns. Otherwise
	// (Foreach, Fold) each record is a copy of its own, made on the worker's goroutine.
	borrows bool
}

// hand returns rec as the worker's fn is to get it: itself, or a copy of its own.
func (w worker) hand(rec []byte) []byte {
	if w.borrows {
		return rec
	}
	return clone(rec)
}

const (
	// A regular file is cut into about sectionsPerWorker sections per worker, taken in
	// turn by whichever worker is free, so that a worker held up by a few huge records,
	// by a costly stretch of records or by other load on the machine leaves the rest of
	// the file to the others. No section is shorter than minSection, unless that would
	// leave a worker without one.
	sectionsPerWorker = 8
	minSection        = 64 << 10
)

// Foreach calls fn on every record of the named file from `workers` goroutines at once
// (workers < 1 means GOMAXPROCS). Records reach fn in no particular order, each a copy
// fn may keep, with the input offset of its first byte. The first error from the input
// or from fn stops every worker and is returned. When ctx is done the workers stop and
// Foreach returns ctx's error, also while a read of a FIFO or a terminal is waiting for
// input. A panic in fn is raised again in the caller's goroutine once the workers have
// stopped, as a *Panic holding the value and the panicking goroutine's stack; a
// runtime.Goexit in fn is done again in the caller. No goroutine outlives the call.
//
// fn is called concurrently: it must be safe for that, and it is what makes the call pay.
// Use it when fn costs more than reading the record (parsing, matching, hashing). To
// aggregate (count, sum, group), use Fold: shared state behind a lock costs more than a
// second core gives.
//
// With workers == 1, or GOMAXPROCS 1, the file is read in the caller's goroutine and no
// goroutine is started: fn sees the records in input order. Otherwise:
//
//   - Records are exactly those of a sequential read with the same options, each given
//     to fn once, with the Offset a sequential Reader reports for it.
//   - A regular file read with splittable options (Options.Splittable) is cut into
//     sections (linereader.Partition), several per worker, each read by a Reader of its
//     own (linereader.NewSection), so that a record never moves between cores. It is
//     read up to the size it has when Foreach opens it: bytes appended meanwhile are
//     not read.
//   - A compressed file (Options.Decompress) is read as internal/ztext says it allows:
//     through a fresh index beside it (NAME.zidx, zindex) or the pieces of a BGZF, xz or
//     zstd file that say their sizes, in sections as a plain file is, cut at the index's
//     access points (with splittable options); otherwise its text is decoded in order,
//     on the workers' goroutines where its pieces allow it (bzip2, lz4, zstd frames;
//     an index's spans), and handed out in batches as below. A stale index is not used.
//     Trailing data after the last gzip member is reported once every record has been
//     given to fn, as a sequential read reports it.
//   - Any other input (compressed, Paragraph, Whole, Limit, a self-overlapping Sep, a
//     FIFO, a device) is read by one goroutine and handed to the workers in batches
//     sized to a small slice of fn's time, down to a single record when fn is slow;
//     memory in flight is a few batches per worker and the Reader's buffer. From a FIFO
//     or a terminal, the records read so far go to the workers before each read that
//     may wait, so that a record never waits for input that has yet to come.
//   - On an error or a panic, records after the failing one may have been given to fn
//     (by other workers) and records before it may not have been: only a sequential
//     loop stops at an exact record. The error returned is the first to happen.
func Foreach(ctx context.Context, name string, opt linereader.Options, workers int, fn func(rec []byte, off int64) error) error {
	return run(ctx, name, opt, workers, worker{start: func() (recordFunc, func()) { return fn, nil }})
}

// numWorkers is the number of workers asked for: workers < 1 means GOMAXPROCS.
func numWorkers(workers int) int {
	if workers < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return workers
}

// run is Foreach and Fold: it reads the named file by the path that fits, and reports
// ctx's error if ctx was done before the end, whether or not a worker saw it.
func run(ctx context.Context, name string, opt linereader.Options, workers int, w worker) error {
	err := read(ctx, name, opt, workers, w)
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// read opens the named file and reads it by the path that fits.
func read(ctx context.Context, name string, opt linereader.Options, workers int, w worker) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	workers = numWorkers(workers)
	var src io.Reader = f
	if st.Mode().IsRegular() {
		// The bytes of the file as it is now, whichever way it is read.
		sized := io.NewSectionReader(f, 0, st.Size())
		src = sized
		if workers > 1 && opt.Decompress {
			if t := ztext.Open(f, st.Size(), name, workers); t.How != ztext.Plain {
				return inText(ctx, f, t, opt, workers, w)
			}
		}
		if workers > 1 && sectionable(sized, opt) {
			defer f.Close()
			spans := linereader.Partition(st.Size(), sections.Count(st.Size(), workers, sectionsPerWorker, minSection))
			return inSections(ctx, sized, spans, opt, workers, w)
		}
	}
	in := input{f: f, src: src, blocking: !st.Mode().IsRegular()}
	if workers == 1 {
		return inline(ctx, in, opt, w)
	}
	return inBatches(ctx, in, opt, workers, w)
}

// sectionable reports whether ra can be read in sections with opt: splittable options,
// and input that Decompress does not decompress.
func sectionable(ra io.ReaderAt, opt linereader.Options) bool {
	if opt.Splittable() != nil {
		return false
	}
	if opt.Decompress {
		return decompress.FormatAt(ra) == decompress.None
	}
	return true
}

// inText reads the text of a compressed file as internal/ztext gives it: through an index
// (a fresh NAME.zidx, or the pieces of a BGZF, xz or zstd file that say their sizes) in
// sections cut just past its access points, so that no section decodes what another
// does, when the options are splittable; otherwise from its stream (decoded by the
// workers where the format's pieces allow it) in batches. Records and offsets are those
// of a sequential read; trailing data after the last gzip member, which a read through
// an index does not see, is reported at the end as the sequential read reports it.
func inText(ctx context.Context, f *os.File, t *ztext.Text, opt linereader.Options, workers int, w worker) error {
	opt.Decompress = false // what ztext gives is the text
	if t.At != nil && opt.Splittable() == nil {
		defer f.Close()
		// NewSection looks at the separator's length before its start: from just past a
		// point, that is from the point.
		past := int64(max(len(opt.Separator()), 1))
		bounds := sections.AtPoints(t.Size, sections.Count(t.Size, workers, sectionsPerWorker, minSection), t.Points, past)
		spans := make([]linereader.Span, len(bounds)-1)
		for i := range spans {
			spans[i] = linereader.Span{Start: bounds[i], End: bounds[i+1]}
		}
		if err := inSections(ctx, t.At, spans, opt, workers, w); err != nil {
			return err
		}
		return t.Trailing()
	}
	s := t.Stream()
	return inBatches(ctx, input{f: f, src: s, stream: s}, opt, workers, w)
}

// input is a file read from start to end by one goroutine.
type input struct {
	f        *os.File
	src      io.Reader // f, or its first bytes (a regular file, up to its size at the open), or stream
	blocking bool      // a read of f may wait for input indefinitely (a FIFO, a terminal)
	stream   io.Closer // the text of f decoded by goroutines of its own, or nil: closed before f
}

// haltOn makes the group halt with ctx's error when ctx is done; the returned stop
// ends that watch.
func haltOn(ctx context.Context, g *group) (stop func() bool) {
	g.ctxDone = ctx.Done()
	return context.AfterFunc(ctx, func() { g.fail(ctx.Err()) })
}

// closer returns a Close of f that runs once and whose result every call returns: a
// halt closes the file to end a read waiting on it, and the end of the call closes it
// too.
func closer(in input) func() error {
	return sync.OnceValue(func() error {
		if in.stream != nil {
			in.stream.Close() // its goroutines stop reading f
		}
		return in.f.Close()
	})
}

// inline is a call with one worker: the caller's goroutine reads and calls fn, in input
// order.
func inline(ctx context.Context, in input, opt linereader.Options, w worker) error {
	closeFile := closer(in)
	defer closeFile() // also when fn panics
	g := newGroup(func() {
		if in.blocking {
			closeFile() // ends a read waiting for input
		}
	})
	defer haltOn(ctx, g)()
	guard(func() {
		fn, done := w.start()
		r := linereader.New(in.src, opt)
		for rec := range r.Views() {
			if g.over() {
				return
			}
			if err := fn(w.hand(rec), r.Offset()); err != nil {
				g.fail(err)
				return
			}
		}
		if err := r.Err(); err != nil {
			g.fail(err)
		} else if done != nil {
			done()
		}
	})
	return finish(g, closeFile)
}

// finish returns the group's result once its goroutines have stopped, or the error of
// closing the file when there was none.
func finish(g *group, closeFile func() error) error {
	err := g.wait()
	if cerr := closeFile(); err == nil && !g.halted.Load() {
		err = cerr
	}
	return err
}

// inSections reads ra in the sections spans, `workers` goroutines each taking the next
// section not yet taken until none is left or the group halts.
func inSections(ctx context.Context, ra io.ReaderAt, spans []linereader.Span, opt linereader.Options, workers int, w worker) error {
	g := newGroup(nil)
	defer haltOn(ctx, g)()
	queue := sections.NewQueue(len(spans))
	for range min(workers, len(spans)) {
		g.run(func() {
			fn, done := w.start()
			for !g.over() {
				k, ok := queue.Take()
				if !ok {
					if done != nil {
						done()
					}
					return
				}
				if err := readSection(ra, spans[k], opt, g, fn, w); err != nil {
					g.fail(err)
					return
				}
			}
		})
	}
	return g.wait()
}

// readSection calls fn on each record of the section sp of ra, as w hands it. Its
// Reader's buffer is no larger than the section needs at first: a small section of a
// small file then costs little more than its bytes.
func readSection(ra io.ReaderAt, sp linereader.Span, opt linereader.Options, g *group, fn recordFunc, w worker) error {
	size := opt.BufferSize
	if size == 0 {
		size = linereader.DefaultBufferSize
	}
	opt.BufferSize = int(min(int64(size), max(sp.End-sp.Start, 4<<10)))
	r := linereader.NewSection(ra, sp.Start, sp.End, opt)
	for rec := range r.Views() {
		if g.over() {
			return nil
		}
		if err := fn(w.hand(rec), r.Offset()); err != nil {
			return err
		}
	}
	return r.Err()
}

// inBatches reads in.src on one goroutine and hands its records to `workers` goroutines
// in batches. From a blocking input, batched records are handed on before each read
// that may wait, and a halt closes the file, which ends a read waiting on it.
func inBatches(ctx context.Context, in input, opt linereader.Options, workers int, w worker) error {
	closeFile := closer(in)
	defer closeFile() // also when fn panics
	g := newGroup(func() {
		if in.blocking {
			closeFile()
		}
	})
	defer haltOn(ctx, g)()
	work := make(chan *batch, workers)
	pool := make(batchPool, 2*workers+1)
	var trailing error // what followed the last record of compressed input; set by the reader
	size := sizer{target: batchTime}
	for range workers {
		g.run(func() { batchWorker(g, work, pool, &size, w) })
	}
	g.run(func() {
		defer close(work)
		fe := &feeder{g: g, size: &size, pool: pool, offsets: true, flushEarly: in.blocking, send: func(b *batch) bool {
			select {
			case work <- b:
				return true
			case <-g.stop:
				return false
			}
		}}
		fe.r = linereader.New(in.src, opt)
		fe.run()
		switch err := fe.r.Err(); {
		case errors.Is(err, linereader.ErrTrailingData):
			trailing = err // every record was read: the workers finish them first
		case err != nil && !g.halted.Load():
			g.fail(err)
		}
	})
	if err := finish(g, closeFile); err != nil {
		return err
	}
	return trailing
}

// batchWorker is one worker of inBatches: it calls fn on the records of each batch it
// takes, until the batches end.
func batchWorker(g *group, work <-chan *batch, pool batchPool, size *sizer, w worker) {
	fn, done := w.start()
	for b := range work {
		if !g.halted.Load() {
			t0 := time.Now()
			err := b.each(g, fn, w.borrows)
			size.observe(time.Since(t0), b.len())
			if err != nil {
				g.fail(err)
			}
		}
		pool.put(b)
	}
	if done != nil && !g.halted.Load() {
		done()
	}
}
