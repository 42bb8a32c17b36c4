package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/linereader"
)

func init() {
	beam.RegisterType(reflect.TypeFor[Digest]())
	register.Combiner3[Digest, string, Digest](&digestStringsFn{})
	register.DoFn4x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(Digest), error](&sectionDigestFn{})
	register.DoFn1x1[Digest, error](&writeDigestFn{})
	register.Function2x1(mergeDigests)
	register.Combiner3[Digest, string, Digest](&countStringsFn{})
	register.Function1x1(countDigest64)
	register.Emitter1[Digest]()
}

// foreachio is run with the default Options (records keep their separator, as the input
// is: lossless), and the digest drops the one "\n" that ends a record, which is textio's
// rule. Chomp would not do: like Ruby's chomp, it drops a "\r\n" whole, where textio keeps
// the "\r".
var lineOptions = linereader.Options{}

// A contender reads one file in a pipeline and reduces what it read to one Digest.
type contender struct {
	id    string // the command line's name for it
	title string // the table's
	// countOnly contenders deliver a number of records and nothing to hash: only
	// Digest.Records is compared.
	countOnly bool
	// immediate is textio.Immediate, which reads the file while the pipeline is built.
	immediate bool
	// build adds the reading and the reduction to s and returns a PCollection<Digest> of
	// (at most) one element. glob is the file's counted:// path, local its own. It is nil
	// for the one contender without Beam, the sequential reference itself.
	build func(s beam.Scope, glob, local string) (beam.PCollection, error)
}

// sequentialID is the sequential read of the reference, timed as a baseline; it checks
// itself against the reference made before the runs.
const sequentialID = "sequential"

var contenders = []contender{
	{id: sequentialID, title: "sequential read, no Beam (the reference)"},
	{id: "foreachio-read", title: "foreachio.ReadRecords → digest", build: func(s beam.Scope, glob, _ string) (beam.PCollection, error) {
		return beam.Combine(s.Scope("digest"), &digestStringsFn{TrimLF: true}, foreachio.Read(s, glob, lineOptions)), nil
	}},
	{id: "foreachio-sections", title: "foreachio.Sections, digest in the section", build: func(s beam.Scope, glob, _ string) (beam.PCollection, error) {
		files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob))
		perSection := beam.ParDo(s, &sectionDigestFn{foreachio.Sections{Options: lineOptions}}, files)
		return beam.Combine(s, mergeDigests, perSection), nil
	}},
	{id: "foreachio-count", title: "foreachio.CountRecords", countOnly: true, build: func(s beam.Scope, glob, _ string) (beam.PCollection, error) {
		files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob))
		counts := foreachio.CountRecords(s, files, lineOptions)
		return beam.ParDo(s, countDigest64, stats.Sum(s, beam.DropKey(s, counts))), nil
	}},
	{id: "textio-read", title: "textio.Read → digest", build: func(s beam.Scope, glob, _ string) (beam.PCollection, error) {
		return digestStrings(s, textio.Read(s, glob)), nil
	}},
	{id: "textio-count", title: "textio.Read → count", countOnly: true, build: func(s beam.Scope, glob, _ string) (beam.PCollection, error) {
		return beam.Combine(s.Scope("count"), &countStringsFn{}, textio.Read(s, glob)), nil
	}},
	{id: "textio-readall", title: "textio.ReadAll → digest", build: func(s beam.Scope, glob, _ string) (beam.PCollection, error) {
		return digestStrings(s, textio.ReadAll(s, beam.Create(s, glob))), nil
	}},
	{id: "textio-readsdf", title: "textio.ReadSdf → digest", build: func(s beam.Scope, glob, _ string) (beam.PCollection, error) {
		return digestStrings(s, textio.ReadSdf(s, glob)), nil
	}},
	{id: "textio-immediate", immediate: true, title: "textio.Immediate → digest (read: the process's read count)", build: func(s beam.Scope, _, local string) (beam.PCollection, error) {
		lines, err := textio.Immediate(s, local)
		if err != nil {
			return beam.PCollection{}, err
		}
		return digestStrings(s, lines), nil
	}},
}

func contenderByID(id string) (contender, bool) {
	for _, c := range contenders {
		if c.id == id {
			return c, true
		}
	}
	return contender{}, false
}

// digestStrings reduces a PCollection<string> to its Digest. The combine is lifted: each
// worker digests what it reads before anything is shuffled, as a count would be.
func digestStrings(s beam.Scope, records beam.PCollection) beam.PCollection {
	return beam.Combine(s.Scope("digest"), &digestStringsFn{}, records)
}

// digestStringsFn digests records given as strings; with TrimLF it first drops a "\n" that
// ends one (for foreachio's records, which keep it).
type digestStringsFn struct{ TrimLF bool }

func (*digestStringsFn) CreateAccumulator() Digest { return Digest{} }

func (f *digestStringsFn) AddInput(d Digest, rec string) Digest {
	if f.TrimLF {
		rec = strings.TrimSuffix(rec, "\n")
	}
	d.AddString(rec)
	return d
}

func (*digestStringsFn) MergeAccumulators(a, b Digest) Digest { return a.Merge(b) }

func (*digestStringsFn) ExtractOutput(d Digest) Digest { return d }

// countStringsFn counts records, the least work a pipeline can do with them. (stats.CountElms
// would do it too, but it flattens the records with a created 0, which on Prism costs far
// several times more than the reading, in time and in memory.)
type countStringsFn struct{}

func (*countStringsFn) CreateAccumulator() Digest { return Digest{} }

func (*countStringsFn) AddInput(d Digest, _ string) Digest {
	d.Records++
	return d
}

func (*countStringsFn) MergeAccumulators(a, b Digest) Digest { return a.Merge(b) }

func (*countStringsFn) ExtractOutput(d Digest) Digest { return d }

func mergeDigests(a, b Digest) Digest { return a.Merge(b) }

func countDigest64(n int64) Digest { return Digest{Records: uint64(n)} }

// sectionDigestFn is the aggregated way to use foreachio: the digest is taken inside the
// section, on borrowed bytes, and only one Digest per section becomes an element.
type sectionDigestFn struct{ foreachio.Sections }

func (f *sectionDigestFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emit func(Digest)) error {
	var d Digest
	err := f.Each(ctx, rt, file, func(_ int64, rec []byte) error {
		d.Add(bytes.TrimSuffix(rec, []byte("\n")))
		return nil
	})
	if d.Records > 0 {
		emit(d)
	}
	return err
}

// writeDigestFn appends each digest it gets, as one JSON line, to Path: the pipeline's
// result, read back by the launching process (runDigest), which merges the lines.
type writeDigestFn struct{ Path string }

func (f *writeDigestFn) ProcessElement(d Digest) error {
	line, err := json.Marshal(d)
	if err != nil {
		return err
	}
	out, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := out.Write(append(line, '\n')); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
