package linereader

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/sections"
	"github.com/foreachio/foreach/internal/ztext"
)

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
// means runtime.GOMAXPROCS(0), the CPUs this program may use (a container limited to two
// CPUs counts with two).
//
// A regular file is counted as CountAt counts it, over the size it has when Count opens
// it (see CountAt for how, and for what happens if the file changes meanwhile), and with
// Options.Decompress through its index too: Count knows the file's name, so an index
// kept beside it (NAME.zidx, written by zindex's Save or `foreach --index`) that matches
// it is used, as CountNamed uses it. A pipe, a device or anything else that is not a
// regular file has no size to split: it is counted by one sequential read to its end. Invalid options are reported before the file is opened. On
// an error the count returned is 0, but for trailing data after compressed input (an
// error wrapping ErrTrailingData): every record was read, the count is theirs, and the
// error says what followed them.
func Count(name string, opt Options, workers int) (int64, error) {
	if err := opt.Validate(); err != nil {
		return 0, err
	}
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if st.Mode().IsRegular() {
		return countAt(f, st.Size(), name, opt, workers)
	}
	cfg := newConfig(opt)
	if !countsSeparators(cfg) {
		return countRecords(New(f, opt))
	}
	return countInput(f, cfg, max(cfg.readSize, parallelCount.readSize))
}

// CountAt returns the number of records in the first size bytes of ra: Count over a file
// the caller has already opened (an *os.File, a memory-mapped file, a bytes.Reader), so
// that the bytes counted are those of the file in hand, not of whatever its name points
// to by then. It reads the input in up to `workers` sections at once when the options
// are splittable, sequentially otherwise; workers < 1 means runtime.GOMAXPROCS(0). Sections
// are read by concurrent ReadAt calls, which io.ReaderAt allows.
//
// Invalid options (see Options.Validate) and a negative size are reported before
// anything is read. On an error the count returned is 0, but for trailing data after
// compressed input, as for Count.
//
// With a separator that cannot overlap itself, no Limit and no MaxRecord, the count is the
// number of separators, plus one for an unterminated last record: it is counted with
// bytes.Count over large reads, without cutting records. An input of 4 MiB or more is
// counted in sections of at least 4 MiB by up to `workers` goroutines. With
// Options.Multiline, records are cut to be counted, and an input of 4 MiB or more is read
// in such sections by NewSection (uncompressed input only). Smaller inputs and other
// options are counted by one sequential read.
//
// Compressed input (with Options.Decompress) is counted in its decompressed bytes, with no
// record cut, from what ra holds and nothing else. With more than one worker: a BGZF, xz
// or zstd file whose pieces say their sizes is counted in sections cut where its pieces
// start, so that no section decodes what another does; a bzip2 or lz4 file, or zstd
// frames without their sizes, is decoded on `workers` goroutines and counted as it comes;
// anything else (a gzip file that is not BGZF, one xz block, one zstd frame) by one
// sequential read, as with one worker. An index kept beside a file (NAME.zidx) is not
// looked for: ra has no name, whatever its type. Count, which opens the file by name, uses
// such an index, and CountNamed does for a file the caller opened. The count and the
// error are those of the sequential read, but for damage met through a file's pieces,
// which is reported at the compressed offset of the piece that holds it.
//
// Only [0, size) is read: bytes past it, such as those appended to a file after its size
// was taken, are not counted. The input must not shrink below size while it is counted:
// if it does, CountAt returns an error that wraps io.ErrUnexpectedEOF, never a short count.
func CountAt(ra io.ReaderAt, size int64, opt Options, workers int) (int64, error) {
	return countAt(ra, size, "", opt, workers)
}

// CountNamed is CountAt over ra, the first size bytes of the file the caller opened as
// name: with Options.Decompress and more than one worker, an index kept beside it
// (name.zidx, written by zindex's Save or `foreach --index`) that matches the file in
// hand (zindex.LoadAt checks it against ra) is used as Count uses it: the text is counted
// in sections cut at the index's access points, on up to `workers` goroutines. A missing,
// stale or damaged index is not used, without an error: the file is counted as CountAt
// counts it. name only says where the index is; the bytes counted are ra's. With an empty
// name, CountNamed is CountAt.
func CountNamed(ra io.ReaderAt, size int64, name string, opt Options, workers int) (int64, error) {
	return countAt(ra, size, name, opt, workers)
}

// countAt is CountAt, and with a name (Count's, CountNamed's) the index beside it: the
// caller that opened the file says where its index is; ra is never asked.
func countAt(ra io.ReaderAt, size int64, name string, opt Options, workers int) (int64, error) {
	if err := opt.Validate(); err != nil {
		return 0, err
	}
	if size < 0 {
		return 0, fmt.Errorf("linereader: CountAt with a negative size (%d)", size)
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.Decompress && workers > 1 && countsSeparators(newConfig(opt)) {
		if t := openText(ra, size, name, workers); t.How != ztext.Plain {
			return countText(t, opt, workers)
		}
		opt.Decompress = false
	}
	if opt.Decompress && decompress.FormatAt(ra) == "" {
		opt.Decompress = false // plain input: its separators can be counted as they are
	}
	cfg := newConfig(opt)
	src := &sizedReader{ra: ra, size: size}
	pol := parallelCount
	if !countsSeparators(cfg) {
		if cfg.join != nil && workers > 1 && size >= pol.minFile && !opt.Decompress && cfg.splittable() == nil {
			return countSections(ra, size, opt, workers, pol)
		}
		return countRecords(New(src, opt))
	}
	if size < pol.minFile || workers == 1 || opt.Decompress {
		readSize := max(cfg.readSize, pol.readSize)
		if !opt.Decompress {
			// A buffer no larger than the input: a small file must not cost the
			// allocation (and zeroing) of a megabyte, which over a tree of small
			// files was most of the time of counting them.
			readSize = int(min(int64(readSize), max(size, 1)))
		}
		return countInput(src, cfg, readSize)
	}
	return countParallel(ra, size, cfg, workers, pol)
}

// openText is ztext.Open: tests see through it which name a count looked for an index by.
var openText = ztext.Open

// countText counts the separators of a compressed file's text as internal/ztext gives
// it: through an index (fresh NAME.zidx, or the format's pieces with their sizes), in
// sections cut at its access points, so that none decodes what another does; otherwise
// as a stream, decoded on several cores where the format's pieces allow it. The count and
// the error are those of a sequential read: trailing data after the last gzip member,
// which a read through an index does not see, is reported after the count, as the
// sequential read reports it. Damage met through an index is an error of the same format
// (at the compressed offset of the piece or span that holds it); a count is then 0, as on
// any error.
func countText(t *ztext.Text, opt Options, workers int) (int64, error) {
	opt.Decompress = false // what ztext gives is the text
	cfg := newConfig(opt)
	pol := parallelCount
	readSize := max(cfg.readSize, pol.readSize)
	if t.At == nil {
		s := t.Stream()
		defer s.Close()
		return countStream(s, cfg, readSize)
	}
	var n int64
	var err error
	if t.Size < pol.minFile {
		n, err = countStream(&sizedReader{ra: t.At, size: t.Size}, cfg, readSize)
	} else {
		bounds := sections.AtPoints(t.Size, sections.Count(t.Size, workers, 8, pol.minSection), t.Points, 0)
		spans := make([]Span, len(bounds)-1)
		for i := range spans {
			spans[i] = Span{Start: bounds[i], End: bounds[i+1]}
		}
		n, err = countSpans(t.At, t.Size, cfg, workers, pol, spans)
	}
	if err != nil {
		return 0, err
	}
	return n, t.Trailing()
}

// countsSeparators reports whether records can be counted as separators, without cutting
// them: a separator that cannot overlap itself, no Limit (splittable says both), no
// MaxRecord to check each record against, and no Multiline joining lines.
func countsSeparators(cfg config) bool {
	return cfg.splittable() == nil && cfg.opt.MaxRecord == 0 && cfg.join == nil
}

// countInput counts the separators of src in one sequential read, of its bytes or, with
// Options.Decompress, of the bytes it decompresses to.
func countInput(src io.Reader, cfg config, readSize int) (int64, error) {
	if !cfg.opt.Decompress {
		return countStream(src, cfg, readSize)
	}
	d := decompress.NewReader(src)
	defer d.Close()
	return countStream(d, cfg, readSize)
}

// sizedReader reads [0, size) of ra from the start, as an io.Reader. An end of input before
// size means the input shrank since its size was taken: an error wrapping
// io.ErrUnexpectedEOF, as readFullAt reports it.
type sizedReader struct {
	ra   io.ReaderAt
	off  int64 // the next byte to read
	size int64
}

func (s *sizedReader) Read(p []byte) (int, error) {
	if s.off >= s.size {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), s.size-s.off)]
	if len(p) == 0 {
		return 0, nil
	}
	err := readFullAt(s.ra, p, s.off)
	if err != nil {
		return 0, err
	}
	s.off += int64(len(p))
	return len(p), nil
}

// countRecords counts the records of r by their pieces, so that a record of any length is
// counted in bounded memory (the last piece of each counts); on an error the count is 0,
// as on the other paths.
func countRecords(r *Reader) (int64, error) {
	var n int64
	for range r.Pieces() {
		if !r.Partial() {
			n++
		}
	}
	if err := r.Err(); err != nil && !errors.Is(err, ErrTrailingData) {
		return 0, err
	} else if err != nil {
		return n, err // read completely: the count, and what followed the records
	}
	return n, nil
}

// countBuffers keeps countStream's buffers (*[]byte) from one call to the next: counting
// the files of a source tree one after the other would otherwise allocate and zero a
// buffer per file, and bring on a collection every few megabytes.
var countBuffers sync.Pool

// countStream counts separators in one sequential read of readSize bytes at a time,
// keeping the last len(sep)-1 bytes of each read so that a separator straddling two
// reads is counted once.
func countStream(src io.Reader, cfg config, readSize int) (int64, error) {
	sep := cfg.sep
	bp, _ := countBuffers.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer countBuffers.Put(bp)
	if cap(*bp) < readSize+len(sep) {
		*bp = make([]byte, readSize+len(sep))
	}
	buf := (*bp)[:readSize+len(sep)]
	var occ int64
	keep, total := 0, int64(0)
	endsWithSep := false
	var trailing error
	calls := 0
	for {
		n, err := readSome(func() (int, error) { return src.Read(buf[keep:]) }, &calls)
		if n > 0 {
			total += int64(n)
			data := buf[:keep+n]
			occ += int64(cfg.count(data))
			endsWithSep = bytes.HasSuffix(data, sep)
			// A separator cannot overlap itself, so the carried bytes hold no whole one.
			keep = min(len(sep)-1, len(data))
			copy(buf, data[len(data)-keep:])
		}
		if err == io.EOF {
			break
		}
		if errors.Is(err, ErrTrailingData) {
			trailing = err // read completely: count, then say what followed
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if total > 0 && !endsWithSep {
		occ++
	}
	return occ, trailing
}

// countParallel splits [0, size) of src into sections handed out to workers; each counts
// the separators that start inside its section, reading len(sep)-1 bytes past it.
func countParallel(src io.ReaderAt, size int64, cfg config, workers int, pol countPolicy) (int64, error) {
	// About 8 sections per worker, so that a worker slowed by the other load on the
	// machine leaves its share to the others.
	spans := Partition(size, sections.Count(size, workers, 8, pol.minSection))
	return countSpans(src, size, cfg, workers, pol, spans)
}

// countSpans counts the separators of [0, size) of src, the spans (in order, covering
// it) handed out to workers.
func countSpans(src io.ReaderAt, size int64, cfg config, workers int, pol countPolicy, spans []Span) (int64, error) {
	j := &countJob{src: src, size: size, cfg: &cfg, spans: spans, queue: sections.NewQueue(len(spans))}
	j.run(workers, func() func(Span) (int64, error) {
		buf := make([]byte, pol.readSize+len(cfg.sep)-1)
		return func(sp Span) (int64, error) { return j.countRange(sp.Start, sp.End, buf) }
	})
	if j.err != nil {
		return 0, j.err
	}
	if size == 0 {
		return 0, nil
	}
	// An unterminated last record counts too.
	tail := make([]byte, min(int64(len(cfg.sep)), size))
	if err := readFullAt(src, tail, size-int64(len(tail))); err != nil {
		return 0, err
	}
	if !bytes.Equal(tail, cfg.sep) {
		j.total++
	}
	return j.total, nil
}

// countJob is the state the counting workers share: the sections, handed out in order
// by queue; total and err gather what they found, under mu. src, size and cfg are those
// of countRange's separator counting.
type countJob struct {
	src   io.ReaderAt
	size  int64
	cfg   *config
	spans []Span
	queue *sections.Queue

	mu    sync.Mutex
	total int64
	err   error // the first error; it stops the other workers at their next section
}

// countSections counts the records of [0, size) of ra, for options whose records must
// be cut to be counted (Multiline), in sections read by NewSection on up to `workers`
// goroutines: the sections' records are exactly those of one read, so their counts add
// up to its count.
func countSections(ra io.ReaderAt, size int64, opt Options, workers int, pol countPolicy) (int64, error) {
	spans := Partition(size, sections.Count(size, workers, 8, pol.minSection))
	j := &countJob{spans: spans, queue: sections.NewQueue(len(spans))}
	j.run(workers, func() func(Span) (int64, error) {
		return func(sp Span) (int64, error) { return countRecords(NewSection(ra, sp.Start, sp.End, opt)) }
	})
	if j.err != nil {
		return 0, j.err
	}
	return j.total, nil
}

// run counts the spans on up to `workers` goroutines, each with a count of its own made
// by counter, and returns once they have all stopped.
func (j *countJob) run(workers int, counter func() func(Span) (int64, error)) {
	var wg sync.WaitGroup
	for range min(workers, len(j.spans)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.work(counter())
		}()
	}
	wg.Wait()
}

// work counts sections until none is left or a worker has failed.
func (j *countJob) work(count func(Span) (int64, error)) {
	var occ int64
	for {
		j.mu.Lock()
		stop := j.err != nil
		j.mu.Unlock()
		k, ok := j.queue.Take()
		if !ok || stop {
			break
		}
		n, err := count(j.spans[k])
		if err != nil {
			j.mu.Lock()
			j.err = cmp.Or(j.err, err)
			j.mu.Unlock()
			return
		}
		occ += n
	}
	j.mu.Lock()
	j.total += occ
	j.mu.Unlock()
}

// countRange counts the separators that start in [lo, hi).
func (j *countJob) countRange(lo, hi int64, buf []byte) (int64, error) {
	var occ int64
	overlap := int64(len(j.cfg.sep) - 1)
	for pos := lo; pos < hi; {
		step := min(int64(len(buf))-overlap, hi-pos)
		want := min(step+overlap, j.size-pos)
		if err := readFullAt(j.src, buf[:want], pos); err != nil {
			return 0, err
		}
		// buf[step:want] is shorter than sep, so no separator starting there is counted:
		// it belongs to the next step, which sees it whole.
		occ += int64(j.cfg.count(buf[:want]))
		pos += step
	}
	return occ, nil
}

// readFullAt reads len(p) bytes at off. Fewer bytes than the size counting started with mean
// the input shrank: that is an error wrapping io.ErrUnexpectedEOF, never a short count.
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
