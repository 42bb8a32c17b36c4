package linereader

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
)

// NewSection yields the records whose first byte lies in [start, end) of src, reading past
// end to finish the last of them. For any partition of [0, size) into sections, the
// sections' records, in order, are exactly the records of one sequential read. Offset is
// absolute; LineNo counts from 0 within the section. Only separators that cannot overlap
// themselves are splittable (not Paragraph, Whole or Limit, nor a Sep such as "aa" or
// "aba"): with other options the first Next returns false and Err says why (it wraps
// ErrNotSplittable).
//
// A record starts at offset 0 and right after every occurrence of the separator, because
// a separator that cannot overlap itself is always matched where it occurs. So a section
// that does not start at 0 reads from len(Sep) bytes before start and skips to the end of
// the first separator ending at or after start: the record straddling start belongs to
// the section before, and a separator straddling start is seen whole.
func NewSection(src io.ReaderAt, start, end int64, opt Options) *Reader {
	cfg := newConfig(opt)
	from := int64(0)
	if start > 0 {
		// A separator ending at start or later may begin up to len(sep) bytes before it.
		from = max(0, start-int64(max(len(cfg.sep), 1)))
	}
	r := New(io.NewSectionReader(src, from, math.MaxInt64-from), opt)
	e := &r.e
	if err := e.cfg.splittable(); err != nil {
		e.cfg.err = err
		return r
	}
	if start < 0 || end < start {
		e.cfg.err = fmt.Errorf("linereader: section [%d, %d) is out of order", start, end)
		return r
	}
	e.base, e.origin = from, from
	e.stopAt = end
	e.seek = start > 0
	e.setFast()
	return r
}

// seekBoundary consumes input up to the end of the first separator, which is where the
// section's first record starts; without one, the section has no record. It stops early,
// with the buffer consumed, once the buffer reaches stopAt without a separator: any
// boundary further on is at or after stopAt, so a section inside one long record reads
// only about its own bytes instead of running on to the record's end.
//
// This is a search of its own, not advance's: it looks for a boundary, not a record.
func (e *engine) seekBoundary() {
	sepLen := len(e.cfg.sep)
	for {
		var i int
		if sepLen == 1 {
			i = bytes.IndexByte(e.data[e.scan:], e.cfg.sepByte)
		} else {
			i = bytes.Index(e.data[e.scan:], e.cfg.sep)
		}
		if i >= 0 {
			e.start = e.scan + i + sepLen
			e.scan = e.start
			e.seek = false
			return
		}
		// No separator starts before len(data)-(sepLen-1), so the first boundary left is
		// past len(data): past the section's end once the buffer reaches it.
		if e.eof || e.base+int64(len(e.data)) >= e.stopAt {
			e.start, e.scan = len(e.data), len(e.data)
			e.seek = false
			return
		}
		// Keep only the bytes that could begin a separator straddling the next read.
		e.start = max(e.start, len(e.data)-(sepLen-1))
		e.scan = e.start
		e.fill()
	}
}

// countPolicy says when and how Count reads a file in parallel sections.
type countPolicy struct {
	minFile    int64 // smallest file counted in parallel: below it, workers cost more than they save
	minSection int64 // smallest section handed to a worker
	readSize   int   // bytes per ReadAt in a worker, and per Read when counting a stream
}

// parallelCount is Count's policy; tests lower it to run the parallel path on small files.
var parallelCount = countPolicy{minFile: 4 << 20, minSection: 4 << 20, readSize: 1 << 20}

// Count returns the number of records in the named file, reading it in up to `workers`
// sections at once when the options are splittable, sequentially otherwise; workers < 1
// means runtime.NumCPU().
//
// With a separator that cannot overlap itself, no Limit and no MaxRecord, the count is the
// number of separators, plus one for an unterminated last record: it is counted with
// bytes.Count over large reads, without cutting records. A regular file of 4 MiB or more
// is counted in sections of at least 4 MiB, read with os.File.ReadAt by up to `workers`
// goroutines. Pipes, small files and other options are counted by a sequential read.
//
// The file must not shrink while it is counted: if it does, Count returns an error that
// wraps io.ErrUnexpectedEOF. Bytes appended meanwhile are not counted.
func Count(name string, opt Options, workers int) (int64, error) {
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	cfg := newConfig(opt)
	fast := cfg.splittable() == nil && opt.MaxRecord == 0
	if !fast {
		return countRecords(New(f, opt))
	}
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	pol := parallelCount
	if !st.Mode().IsRegular() || st.Size() < pol.minFile || workers == 1 {
		return countStream(f, cfg, pol.readSize)
	}
	return countParallel(f, st.Size(), cfg, workers, pol)
}

func countRecords(r *Reader) (int64, error) {
	var n int64
	for r.Next() {
		n++
	}
	return n, r.Err()
}

// countStream counts separators in one sequential read, keeping the last len(sep)-1 bytes
// of each read so that a separator straddling two reads is counted once.
func countStream(src io.Reader, cfg config, readSize int) (int64, error) {
	sep := cfg.sep
	buf := make([]byte, max(cfg.readSize, readSize)+len(sep))
	var occ int64
	keep, total := 0, int64(0)
	endsWithSep := false
	empties := 0
	for {
		n, err := src.Read(buf[keep:])
		if n > 0 {
			empties = 0
			total += int64(n)
			data := buf[:keep+n]
			occ += int64(bytes.Count(data, sep))
			endsWithSep = bytes.HasSuffix(data, sep)
			// A separator cannot overlap itself, so the carried bytes hold no whole one.
			keep = min(len(sep)-1, len(data))
			copy(buf, data[len(data)-keep:])
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		if n == 0 {
			if empties++; empties >= maxEmptyReads {
				return 0, io.ErrNoProgress
			}
		}
	}
	if total > 0 && !endsWithSep {
		occ++
	}
	return occ, nil
}

// countParallel splits [0, size) of src into sections handed out to workers; each counts
// the separators that start inside its section, reading len(sep)-1 bytes past it.
func countParallel(src io.ReaderAt, size int64, cfg config, workers int, pol countPolicy) (int64, error) {
	sep := cfg.sep
	// About 8 sections per worker, so that a worker slowed by the other load on the
	// machine leaves its share to the others.
	section := max(pol.minSection, size/int64(workers*8), 1)
	nsections := (size + section - 1) / section
	var (
		mu    sync.Mutex
		total int64
		first error
		next  int64
		wg    sync.WaitGroup
	)
	for w := 0; w < workers && int64(w) < nsections; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, pol.readSize+len(sep)-1)
			var occ int64
			for {
				mu.Lock()
				k := next
				next++
				stop := first != nil
				mu.Unlock()
				if k >= nsections || stop {
					break
				}
				lo, hi := k*section, min((k+1)*section, size)
				n, err := countRange(src, lo, hi, size, sep, buf)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
				occ += n
			}
			mu.Lock()
			total += occ
			mu.Unlock()
		}()
	}
	wg.Wait()
	if first != nil {
		return 0, first
	}
	if size == 0 {
		return 0, nil
	}
	// An unterminated last record counts too.
	tail := make([]byte, min(int64(len(sep)), size))
	if err := readFullAt(src, tail, size-int64(len(tail))); err != nil {
		return 0, err
	}
	if !bytes.Equal(tail, sep) {
		total++
	}
	return total, nil
}

// countRange counts the separators that start in [lo, hi) of src, whose size is size.
func countRange(src io.ReaderAt, lo, hi, size int64, sep, buf []byte) (int64, error) {
	var occ int64
	overlap := int64(len(sep) - 1)
	for pos := lo; pos < hi; {
		step := min(int64(len(buf))-overlap, hi-pos)
		want := min(step+overlap, size-pos)
		if err := readFullAt(src, buf[:want], pos); err != nil {
			return 0, err
		}
		// buf[step:want] is shorter than sep, so no separator starting there is counted:
		// it belongs to the next step, which sees it whole.
		occ += int64(bytes.Count(buf[:want], sep))
		pos += step
	}
	return occ, nil
}

// readFullAt reads len(p) bytes at off. Fewer bytes than the size Count started with mean
// the file shrank: that is an error wrapping io.ErrUnexpectedEOF, never a short count.
func readFullAt(src io.ReaderAt, p []byte, off int64) error {
	n, err := src.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		return fmt.Errorf("linereader: the file shrank while it was counted (%d of %d bytes at offset %d): %w",
			n, len(p), off, io.ErrUnexpectedEOF)
	}
	return err
}
