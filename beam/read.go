package foreachio

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	// Local paths work out of the box, as with textio; s3:// and gs:// objects are listed
	// and read by this package itself (MatchFiles, Sections); other filesystems are
	// registered by importing their packages.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	"github.com/foreachio/foreach/linereader"
)

func init() {
	register.DoFn4x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(string), error](&recordsFn{})
	register.DoFn4x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(Record), error](&positionsFn{})
	register.DoFn4x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(string, int64), error](&countFn{})
	register.Function2x0(zeroCount)
	register.Emitter1[string]()
	register.Emitter1[Record]()
	register.Emitter2[string, int64]()
	beam.RegisterType(reflect.TypeFor[Record]())
}

// Record is a record with where it comes from, the element type of ReadRecordsWithPosition.
type Record struct {
	File   string // the file's path as matched (fileio.FileMetadata.Path)
	Offset int64  // where the record starts in the file: its first byte's offset
	Text   string // the record's bytes, separator included unless Options.Chomp
}

// ReadOption changes how a file is cut into sections.
type ReadOption func(*Sections)

// WithSectionSize sets the size of the byte ranges files are first cut into (see
// Sections.SectionSize); n <= 0 means DefaultSectionSize.
func WithSectionSize(n int64) ReadOption {
	return func(s *Sections) { s.SectionSize = n }
}

func newSections(opt linereader.Options, ropts []ReadOption) Sections {
	s := Sections{Options: opt}
	for _, o := range ropts {
		o(&s)
	}
	return s
}

// Read returns the records of every file matching glob (a local path, s3://bucket/glob or
// gs://bucket/glob: see MatchFiles), a PCollection<string>. Files named *.gz are
// decompressed (and read whole). A glob without a wildcard that matches no file
// fails the job, as fileio.MatchFiles does; one with a wildcard may match nothing.
func Read(s beam.Scope, glob string, opt linereader.Options, ropts ...ReadOption) beam.PCollection {
	s = s.Scope("foreachio.Read")
	return ReadRecords(s, fileio.ReadMatches(s, MatchFiles(s, glob)), opt, ropts...)
}

// ReadRecords returns the records of every file of files (a
// PCollection<fileio.ReadableFile>, from fileio.ReadMatches), as a PCollection<string>,
// cut as opt says. Each file is read in sections (see Sections). Emitting every record is
// the slow way to use Beam: to aggregate, prefer CountRecords or a DoFn of your own around
// Sections.Each, which sees every record of its section without making it an element.
func ReadRecords(s beam.Scope, files beam.PCollection, opt linereader.Options, ropts ...ReadOption) beam.PCollection {
	s = s.Scope("foreachio.ReadRecords")
	return beam.ParDo(s, &recordsFn{newSections(opt, ropts)}, files)
}

// ReadRecordsWithPosition is ReadRecords with each record's file and offset: a
// PCollection<Record>.
func ReadRecordsWithPosition(s beam.Scope, files beam.PCollection, opt linereader.Options, ropts ...ReadOption) beam.PCollection {
	s = s.Scope("foreachio.ReadRecordsWithPosition")
	return beam.ParDo(s, &positionsFn{newSections(opt, ropts)}, files)
}

// CountRecords returns the number of records of each file of files, a PCollection<KV<string,
// int64>> keyed by the file's path, with one element per file (0 for an empty one). Each
// section counts its records and emits one number, summed per file: no record becomes an
// element.
func CountRecords(s beam.Scope, files beam.PCollection, opt linereader.Options, ropts ...ReadOption) beam.PCollection {
	s = s.Scope("foreachio.CountRecords")
	counts := beam.ParDo(s, &countFn{newSections(opt, ropts)}, files)
	zeros := beam.ParDo(s, zeroCount, files) // so that a file without records has its 0
	return stats.SumPerKey(s, beam.Flatten(s, counts, zeros))
}

type recordsFn struct{ Sections }

func (f *recordsFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emit func(string)) error {
	return f.Each(ctx, rt, file, func(_ int64, rec []byte) error {
		emit(string(rec))
		return nil
	})
}

type positionsFn struct{ Sections }

func (f *positionsFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emit func(Record)) error {
	path := file.Metadata.Path
	return f.Each(ctx, rt, file, func(off int64, rec []byte) error {
		emit(Record{File: path, Offset: off, Text: string(rec)})
		return nil
	})
}

type countFn struct{ Sections }

func (f *countFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emit func(string, int64)) error {
	var n int64
	if err := f.Each(ctx, rt, file, func(int64, []byte) error {
		n++
		return nil
	}); err != nil {
		return err
	}
	if n > 0 {
		emit(file.Metadata.Path, n)
	}
	return nil
}

func zeroCount(file fileio.ReadableFile, emit func(string, int64)) {
	emit(file.Metadata.Path, 0)
}
