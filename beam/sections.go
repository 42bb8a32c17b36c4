package foreachio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"

	"github.com/foreachio/foreach/beam/objstore"
	"github.com/foreachio/foreach/linereader"
)

// DefaultSectionSize is the size of the byte ranges a file is first cut into when
// Sections.SectionSize is 0: large enough that opening the file and finding the first
// record boundary cost nothing next to reading the range, small enough that a file of a
// few hundred MiB gives work to several workers from the start. Runners that split
// dynamically (Dataflow does; Prism can) cut further while the job runs.
const DefaultSectionSize = 64 << 20

// wholeFile is the restriction that stands for a whole file read sequentially, in one
// piece, when it cannot be read in sections: the file is compressed, its filesystem gives
// no io.ReaderAt, or the Options cannot be split (see linereader.NewSection). It is the one-position range [-1, 0), which no
// byte range of a file can be: once its only position is claimed, an offsetrange tracker
// can no longer split it, so no runner can hand half of such a file to another worker.
var wholeFile = offsetrange.Restriction{Start: -1, End: 0}

// whole reports whether rest stands for a whole file: wholeFile, or what is left of it
// after a runner split it before its position was claimed ([-1, -1), the empty half, is
// claimed by nobody; the other half is wholeFile again).
func whole(rest offsetrange.Restriction) bool { return rest.Start < 0 }

// Each adds to two counters of the job, in the namespace foreachio: records (every record
// it yields, in every DoFn that calls it) and sections (the restrictions it processed,
// more than the initial ones when the runner split some while they were read).
var (
	recordsCounter  = beam.NewCounter("foreachio", "records")
	sectionsCounter = beam.NewCounter("foreachio", "sections")
)

// Sections is the restriction half of a splittable DoFn over files
// (PCollection<fileio.ReadableFile>): embed it in a DoFn and call Each from its
// ProcessElement to run code on every record of the section the runner hands over,
// aggregating inside the section instead of emitting every record:
//
//	type wordCountFn struct{ foreachio.Sections }
//
//	func (f *wordCountFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker,
//		file fileio.ReadableFile, emit func(string, int64)) error {
//		counts := map[string]int64{}
//		err := f.Each(ctx, rt, file, func(_ int64, rec []byte) error {
//			for w := range bytes.FieldsSeq(rec) {
//				counts[string(w)]++
//			}
//			return nil
//		})
//		for w, n := range counts {
//			emit(w, n)
//		}
//		return err
//	}
//
// A restriction is an offsetrange.Restriction: [Start, End) is the section of the file
// whose records Each yields (the records whose first byte lies in it, see
// linereader.NewSection), or [-1, 0), which stands for the whole file read in one piece.
// The initial restriction of a file is [0, size) when its bytes can be read at any offset
// (a local file, or an s3:// or gs:// object read with ranged GETs: see the package doc),
// it is not compressed and the Options can be split; it is cut into SectionSize pieces,
// and runners may split a piece further while it is read.
//
// A compressed file whose text is read (a *.gz, or any with Options.Decompress) is cut in
// sections of its decompressed text when it has an index (zindex): a fresh NAME.zidx beside
// it, or a structure that gives one (BGZF, xz with several blocks, zstd frames with their
// sizes); its restriction is then [0, text size), offsets count text bytes, the initial
// sections start at the index's access points, and each section decodes from the access
// point before its start (Index.ReaderAt over ranged reads of the file). Any other file
// (gzip without an index, bzip2, a Beam filesystem that gives no io.ReaderAt, Paragraph,
// Whole, Limit, a Sep that can overlap itself) is read whole by one worker.
//
// The DoFn is serialized with the pipeline, so Options and SectionSize travel to the
// workers; the DoFn type must be registered (beam/register), as every DoFn must be for
// Prism. The files must not change while the job runs.
type Sections struct {
	Options     linereader.Options
	SectionSize int64 // bytes per initial section; 0 means DefaultSectionSize
}

// CreateInitialRestriction returns [0, size) for a file that can be read in sections (its
// text size for a compressed file with an index) and [-1, 0), the whole file in one
// piece, for any other. It opens the file to find out; a file it cannot open is given the
// whole-file restriction, and Each reports the error.
func (s Sections) CreateInitialRestriction(ctx context.Context, file fileio.ReadableFile) offsetrange.Restriction {
	path := file.Metadata.Path
	if s.decompresses(path) {
		ti, closer, err := s.textIndex(ctx, file)
		if closer != nil {
			closer.Close()
		}
		switch {
		case err != nil:
			return wholeFile
		case ti != nil && splittable(bytes.NewReader(nil), textOptions(s.Options)):
			return offsetrange.Restriction{Start: 0, End: ti.Size()}
		case ti != nil || gzipName(path):
			return wholeFile
		}
	}
	if objstore.IsObjectURI(path) {
		obj, err := openObject(ctx, file)
		if err != nil {
			return wholeFile
		}
		ra := obj.ReaderAt(ctx, 0)
		defer ra.Close()
		if !splittable(ra, s.Options) {
			return wholeFile
		}
		return offsetrange.Restriction{Start: 0, End: file.Metadata.Size}
	}
	rc, err := file.Open(ctx)
	if err != nil {
		return wholeFile
	}
	defer rc.Close()
	ra, ok := rc.(io.ReaderAt)
	if !ok || !splittable(ra, s.Options) {
		return wholeFile
	}
	return offsetrange.Restriction{Start: 0, End: file.Metadata.Size}
}

// textOptions are the options of a read of a compressed file's text through its index:
// the text is decompressed already.
func textOptions(opt linereader.Options) linereader.Options {
	opt.Decompress = false
	return opt
}

// textIndex returns the index of the text of a compressed file, or nil when it has none,
// and what to close: the local file it opened (nil for an object, and when it fails).
func (s Sections) textIndex(ctx context.Context, file fileio.ReadableFile) (*textIndex, io.Closer, error) {
	if !objstore.IsObjectURI(file.Metadata.Path) {
		ti, rc, err := localIndex(ctx, file)
		if rc == nil {
			return ti, nil, err
		}
		return ti, rc, err
	}
	obj, err := openObject(ctx, file)
	if err != nil {
		return nil, nil, err
	}
	ti, err := objectIndex(ctx, obj)
	return ti, nil, err
}

// splittable asks the library whether the options (and the data, for options that look at
// it) allow the file to be read in sections: an empty section at the start reports
// linereader.ErrNotSplittable where they do not. Any other error (invalid options) is left
// for Each to report from the sequential path.
func splittable(ra io.ReaderAt, opt linereader.Options) bool {
	opt.BufferSize = 512 // the probe yields nothing; it need not read much
	r := linereader.NewSection(ra, 0, 0, opt)
	r.Next()
	return r.Err() == nil
}

// SplitRestriction cuts a section restriction into pieces of SectionSize bytes (the last
// one shorter); the whole-file restriction stays whole. An empty file keeps its one empty restriction.
func (s Sections) SplitRestriction(file fileio.ReadableFile, rest offsetrange.Restriction) []offsetrange.Restriction {
	if whole(rest) {
		return []offsetrange.Restriction{rest}
	}
	size := s.SectionSize
	if size <= 0 {
		size = DefaultSectionSize
	}
	if s.decompresses(file.Metadata.Path) {
		// A compressed file's text: cut at its access points (the index was found for
		// the initial restriction, by this worker).
		if ti, closer, err := s.textIndex(context.Background(), file); err == nil && ti != nil {
			if closer != nil {
				closer.Close()
			}
			return cutAt(rest, ti.cuts(rest.Start, rest.End, size, sepLen(s.Options)))
		} else if closer != nil {
			closer.Close()
		}
	}
	return rest.SizedSplits(size)
}

// sepLen is the length of the options' separator, which a section reads before its start.
func sepLen(opt linereader.Options) int64 {
	if len(opt.Sep) == 0 {
		return 1 // "\n"
	}
	return int64(len(opt.Sep))
}

// cutAt cuts rest at the offsets cuts (ascending, inside it).
func cutAt(rest offsetrange.Restriction, cuts []int64) []offsetrange.Restriction {
	var out []offsetrange.Restriction
	start := rest.Start
	for _, c := range cuts {
		out = append(out, offsetrange.Restriction{Start: start, End: c})
		start = c
	}
	return append(out, offsetrange.Restriction{Start: start, End: rest.End})
}

// RestrictionSize is the number of bytes of the restriction, the file's size for the
// whole-file restriction (its compressed size, for a compressed file): runners weigh work by it.
func (s Sections) RestrictionSize(file fileio.ReadableFile, rest offsetrange.Restriction) float64 {
	if whole(rest) {
		return float64(file.Metadata.Size)
	}
	return rest.Size()
}

// CreateTracker returns a thread-safe offsetrange tracker, since runners split restrictions
// from another goroutine while Each claims records.
func (s Sections) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

// Each calls fn with the offset and bytes of every record of the restriction rt tracks, in
// order, and returns the first error from the file or from fn (the file's path in its
// message). The record is borrowed: it is valid only until fn returns, so copy what you keep
// (string(rec) copies).
//
// Each claims every record by its first byte (rt.TryClaim(offset)) before fn sees it, and
// stops at the first claim that fails: the runner has split the rest of the range off and
// another worker reads it from that offset, so every record is processed once, however the
// runner splits. For the whole-file restriction it claims once and reads the file sequentially through
// fileio.ReadableFile.Open, which decompresses gzip; offsets are then those of the
// decompressed bytes.
func (s Sections) Each(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, fn func(offset int64, record []byte) error) error {
	rest := rt.GetRestriction().(offsetrange.Restriction)
	if whole(rest) && !rt.TryClaim(rest.Start) {
		return nil // split away before it started: the residual reads the file
	}
	r, closer, err := s.open(ctx, rest, file)
	if err != nil {
		return err
	}
	defer closer.Close()
	return s.each(ctx, rt, rest, file.Metadata.Path, r, fn)
}

// open returns the reader of the restriction's records: a section of the file or the
// object, or the whole of it read sequentially.
func (s Sections) open(ctx context.Context, rest offsetrange.Restriction, file fileio.ReadableFile) (*linereader.Reader, io.Closer, error) {
	path := file.Metadata.Path
	if !whole(rest) && s.decompresses(path) {
		r, closer, err := s.openText(ctx, rest, file)
		if r != nil || err != nil {
			return r, closer, err
		}
	}
	if objstore.IsObjectURI(path) {
		obj, err := openObject(ctx, file)
		if err != nil {
			return nil, nil, fmt.Errorf("foreachio: %w", err) // it names the object
		}
		if !whole(rest) {
			ra := obj.ReaderAt(ctx, rest.End)
			return linereader.NewSection(ra, rest.Start, rest.End, s.Options), ra, nil
		}
		rc, err := objectStream(ctx, obj)
		if err != nil {
			return nil, nil, fmt.Errorf("foreachio: %s: %w", path, err)
		}
		return linereader.New(rc, s.Options), rc, nil
	}
	rc, err := file.Open(ctx)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // its message repeats the path
		}
		return nil, nil, fmt.Errorf("foreachio: %s: %w", path, err)
	}
	if whole(rest) {
		return linereader.New(rc, s.Options), rc, nil
	}
	ra, ok := rc.(io.ReaderAt)
	if !ok {
		rc.Close()
		return nil, nil, fmt.Errorf("foreachio: %s: cannot read byte range [%d, %d): its filesystem gives no io.ReaderAt", path, rest.Start, rest.End)
	}
	return linereader.NewSection(ra, rest.Start, rest.End, s.Options), rc, nil
}

// openText returns the reader of a section of a compressed file's text, through its
// index, or nil when the file has no index (it is plain text read with Decompress, or the
// index is gone: see Each).
func (s Sections) openText(ctx context.Context, rest offsetrange.Restriction, file fileio.ReadableFile) (*linereader.Reader, io.Closer, error) {
	path := file.Metadata.Path
	ti, closer, err := s.textIndex(ctx, file)
	if err != nil {
		if objstore.IsObjectURI(path) {
			return nil, nil, fmt.Errorf("foreachio: %w", err) // it names the object
		}
		return nil, nil, fmt.Errorf("foreachio: %s: %w", path, unwrapPath(err))
	}
	if ti == nil {
		if closer != nil {
			closer.Close()
		}
		if gzipName(path) {
			return nil, nil, fmt.Errorf("foreachio: %s: the file was cut into sections of its text, which its index gave, and it has no index now", path)
		}
		return nil, nil, nil // plain text with Decompress: read as it is
	}
	opt := textOptions(s.Options)
	if closer != nil { // a local file
		text := ti.ix.ReaderAt(closer.(io.ReaderAt))
		return linereader.NewSection(text, rest.Start, rest.End, opt), closer, nil
	}
	obj, err := openObject(ctx, file)
	if err != nil {
		return nil, nil, fmt.Errorf("foreachio: %w", err)
	}
	// The last record's reads go on past the section's end, a BufferSize of text at a
	// time: the GETs stop where the first such read ends.
	buf := int64(opt.BufferSize)
	if buf <= 0 {
		buf = linereader.DefaultBufferSize
	}
	src := &compressedSource{ctx: ctx, obj: obj, end: ti.compressedEnd(rest.End + buf)}
	return linereader.NewSection(ti.ix.ReaderAt(src), rest.Start, rest.End, opt), io.NopCloser(nil), nil
}

// unwrapPath returns the error a *fs.PathError wraps: its message repeats the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// each yields the records of r, claiming each before fn sees it.
func (s Sections) each(ctx context.Context, rt *sdf.LockRTracker, rest offsetrange.Restriction, path string, r *linereader.Reader, fn func(int64, []byte) error) error {
	var n int64
	defer func() {
		recordsCounter.Inc(ctx, n)
		sectionsCounter.Inc(ctx, 1)
	}()
	for r.Next() {
		if !whole(rest) && !rt.TryClaim(r.Offset()) {
			return nil // the range from here on was split off
		}
		n++
		if err := fn(r.Offset(), r.Bytes()); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		if errors.Is(err, linereader.ErrNotSplittable) {
			// The options were splittable when the restriction was made and are not now:
			// the DoFn's options changed between the two, which Beam does not do.
			return fmt.Errorf("foreachio: %s: %w (the file was cut into sections for other options)", path, err)
		}
		if objstore.IsObjectURI(path) {
			return fmt.Errorf("foreachio: %w", err) // objstore's errors name the object
		}
		return fmt.Errorf("foreachio: %s: %w", path, err)
	}
	if !whole(rest) {
		// No record is left in the range: claiming its end, as it stands after any split,
		// tells the tracker the whole range is done.
		rt.TryClaim(rt.GetRestriction().(offsetrange.Restriction).End)
	}
	return nil
}
