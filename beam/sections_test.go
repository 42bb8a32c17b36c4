package foreachio_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/beam/internal/fakestore"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/linereader"
)

// These tests drive the splittable DoFn's methods as a runner does, without one, so that
// a split can be asked for at an exact point: after any given record.

// readableFile describes a local file as fileio.ReadMatches would.
func readableFile(t *testing.T, path string) fileio.ReadableFile {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path, Size: fi.Size(), LastModified: fi.ModTime()}}
}

// splitter processes restrictions as a runner that splits dynamically: after the k-th
// record a restriction yields, it asks the tracker to split at fraction, keeps the
// primary going and processes the residual the same way, until no split succeeds.
type splitter struct {
	t        *testing.T
	sec      foreachio.Sections
	file     fileio.ReadableFile
	k        int
	fraction float64
	max      int      // the records of a sequential read: more is an error
	got      []string // every record yielded, as formatRecord renders it
	splits   int      // successful splits
}

func (sp *splitter) process(rest offsetrange.Restriction) {
	rt := sp.sec.CreateTracker(rest)
	var residual any
	n := 0
	err := sp.sec.Each(context.Background(), rt, sp.file, func(off int64, rec []byte) error {
		if len(sp.got) == sp.max {
			return fmt.Errorf("more than %d records: claimed work is read again", sp.max)
		}
		sp.got = append(sp.got, formatRecord(foreachio.Record{File: sp.file.Metadata.Path, Offset: off, Text: string(rec)}))
		if n++; n == sp.k {
			_, r, err := rt.TrySplit(sp.fraction)
			if err != nil {
				return err
			}
			residual = r
		}
		return nil
	})
	if err != nil {
		sp.t.Fatalf("Each over %v: %v", rest, err)
	}
	if err := rt.GetError(); err != nil {
		sp.t.Fatalf("tracker over %v: %v", rest, err)
	}
	if !rt.IsDone() {
		sp.t.Fatalf("restriction %v is not done after Each: %v", rest, rt.GetRestriction())
	}
	if residual != nil {
		sp.splits++
		sp.process(residual.(offsetrange.Restriction))
	}
}

func TestDynamicSplitAfterEveryRecord(t *testing.T) {
	dir := t.TempDir()
	corpora := map[string]string{
		"tall":             generate(t, dir, "tall.txt", corpus.Spec{Shape: corpus.Tall, Lines: 25, Phrases: 3, Seed: 4}),
		"mixed":            generate(t, dir, "mixed.txt", corpus.Spec{Shape: corpus.Mixed, Lines: 30, Phrases: 2, Seed: 5}),
		"crlf":             generate(t, dir, "crlf.txt", corpus.Spec{Shape: corpus.CRLF, Lines: 25, Phrases: 3, Seed: 4}),
		"no-final-newline": generate(t, dir, "nofinal.txt", corpus.Spec{Shape: corpus.NoFinalNewline, Lines: 25, Phrases: 3, Seed: 4}),
	}
	fractions := []float64{0, 0.01, 0.1, 0.33, 0.5, 0.9, 0.99, 1}
	for name, path := range corpora {
		for _, opt := range []linereader.Options{{}, {Chomp: true, Sep: []byte("e ")}} {
			t.Run(fmt.Sprintf("%s/Sep=%q", name, opt.Sep), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				_, want := sequential(t, path, data, opt)
				file := readableFile(t, path)
				sec := foreachio.Sections{Options: opt, SectionSize: int64(len(data))/2 + 1}
				splits := 0
				for _, fraction := range fractions {
					for k := 1; k <= len(want); k++ {
						sp := &splitter{t: t, sec: sec, file: file, k: k, fraction: fraction, max: len(want)}
						for _, rest := range sec.SplitRestriction(file, sec.CreateInitialRestriction(context.Background(), file)) {
							sp.process(rest)
						}
						if !slices.Equal(sp.got, want) {
							t.Fatalf("split after record %d at fraction %v: primaries and residuals yield\n%q\nwant\n%q", k, fraction, sp.got, want)
						}
						splits += sp.splits
					}
				}
				// Splits near the end of a range can fail (nothing left to split off); most
				// must succeed, or the test would not test splitting.
				if tries := len(fractions) * len(want); splits < tries/2 {
					t.Fatalf("only %d splits succeeded in %d tries", splits, tries)
				}
			})
		}
	}
}

// The whole-file restriction of an unsplittable file cannot be split once its position is
// claimed; split before that, the half that keeps the file reads all of it.
func TestDynamicSplitOfWholeFile(t *testing.T) {
	path := generate(t, t.TempDir(), "mixed.txt", corpus.Spec{Shape: corpus.Mixed, Lines: 30, Phrases: 2, Seed: 5})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opt := linereader.Options{Paragraph: true}
	_, want := sequential(t, path, data, opt)
	file := readableFile(t, path)
	sec := foreachio.Sections{Options: opt, SectionSize: 3}
	rests := sec.SplitRestriction(file, sec.CreateInitialRestriction(context.Background(), file))
	if len(rests) != 1 {
		t.Fatalf("Paragraph: %d restrictions, want the whole file in one: %v", len(rests), rests)
	}

	t.Run("after the claim", func(t *testing.T) {
		for _, fraction := range []float64{0, 0.5, 1} {
			sp := &splitter{t: t, sec: sec, file: file, k: 1, fraction: fraction, max: len(want)}
			sp.process(rests[0])
			if sp.splits != 0 || !slices.Equal(sp.got, want) {
				t.Fatalf("fraction %v: %d splits, records\n%q\nwant\n%q", fraction, sp.splits, sp.got, want)
			}
		}
	})
	t.Run("before the claim", func(t *testing.T) {
		for _, fraction := range []float64{0, 0.25, 0.5, 0.75, 1} {
			rt := sec.CreateTracker(rests[0])
			primary, residual, err := rt.TrySplit(fraction)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rest := range []any{primary, residual} {
				if rest == nil {
					continue
				}
				sp := &splitter{t: t, sec: sec, file: file, max: len(want)}
				sp.process(rest.(offsetrange.Restriction))
				got = append(got, sp.got...)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("fraction %v: primary %v and residual %v yield\n%q\nwant\n%q", fraction, primary, residual, got, want)
			}
		}
	})
}

// The initial restrictions: the file's bytes in SectionSize pieces when it can be read in
// sections, one piece standing for the whole file otherwise.
func TestInitialRestrictions(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "ten.txt", []byte("0123\n5678\n"))
	empty := writeFile(t, dir, "empty.txt", nil)
	gz := writeFile(t, dir, "ten.txt.gz", []byte("not read"))
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("0123\n5678\n"))
	zw.Close()
	gzBytes := writeFile(t, dir, "ten.data", zipped.Bytes())
	whole := offsetrange.Restriction{Start: -1, End: 0}
	cases := []struct {
		name string
		path string
		sec  foreachio.Sections
		want []offsetrange.Restriction
	}{
		{"4-byte sections", path, foreachio.Sections{SectionSize: 4}, []offsetrange.Restriction{{Start: 0, End: 4}, {Start: 4, End: 8}, {Start: 8, End: 10}}},
		{"default size", path, foreachio.Sections{}, []offsetrange.Restriction{{Start: 0, End: 10}}},
		{"empty file", empty, foreachio.Sections{SectionSize: 4}, []offsetrange.Restriction{{Start: 0, End: 0}}},
		{"Paragraph", path, foreachio.Sections{SectionSize: 4, Options: linereader.Options{Paragraph: true}}, []offsetrange.Restriction{whole}},
		{"Limit", path, foreachio.Sections{SectionSize: 4, Options: linereader.Options{Limit: 3}}, []offsetrange.Restriction{whole}},
		{"Sep=aa", path, foreachio.Sections{SectionSize: 4, Options: linereader.Options{Sep: []byte("aa")}}, []offsetrange.Restriction{whole}},
		{"gzip", gz, foreachio.Sections{SectionSize: 4}, []offsetrange.Restriction{whole}},
		{"Decompress, gzip data", gzBytes, foreachio.Sections{SectionSize: 4, Options: linereader.Options{Decompress: true}}, []offsetrange.Restriction{whole}},
		{"Decompress, plain file", path, foreachio.Sections{SectionSize: 8, Options: linereader.Options{Decompress: true}}, []offsetrange.Restriction{{Start: 0, End: 8}, {Start: 8, End: 10}}},
		{"gzip data without Decompress", gzBytes, foreachio.Sections{SectionSize: 8}, []offsetrange.Restriction{{Start: 0, End: 8}, {Start: 8, End: 10}}},
		{"missing file", dir + "/missing.txt", foreachio.Sections{SectionSize: 4}, []offsetrange.Restriction{whole}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: c.path, Size: 10}}
			if c.path == empty {
				file.Metadata.Size = 0
			}
			got := c.sec.SplitRestriction(file, c.sec.CreateInitialRestriction(context.Background(), file))
			if !slices.Equal(got, c.want) {
				t.Fatalf("restrictions %v, want %v", got, c.want)
			}
			var size float64
			for _, r := range got {
				size += c.sec.RestrictionSize(file, r)
			}
			if size != float64(file.Metadata.Size) {
				t.Fatalf("restriction sizes add up to %v, want the file's %d bytes", size, file.Metadata.Size)
			}
		})
	}
}

// A file that cannot be opened fails Each with the reason; the fn never runs.
func TestEachMissingFile(t *testing.T) {
	path := t.TempDir() + "/missing.txt"
	file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path, Size: 10}}
	sec := foreachio.Sections{}
	rt := sec.CreateTracker(sec.CreateInitialRestriction(context.Background(), file))
	err := sec.Each(context.Background(), rt, file, func(int64, []byte) error {
		t.Fatal("fn called for a missing file")
		return nil
	})
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Each: %v, want an error wrapping os.ErrNotExist", err)
	}
}

// The same dynamic splits over s3:// and gs:// objects: every residual is a new section,
// read with ranged GETs of its own.
func TestDynamicSplitOfObjects(t *testing.T) {
	dir := t.TempDir()
	paths := []string{
		generate(t, dir, "tall.txt", corpus.Spec{Shape: corpus.Tall, Lines: 25, Phrases: 3, Seed: 4}),
		generate(t, dir, "crlf.txt", corpus.Spec{Shape: corpus.CRLF, Lines: 25, Phrases: 3, Seed: 4}),
		generate(t, dir, "nofinal.txt", corpus.Spec{Shape: corpus.NoFinalNewline, Lines: 25, Phrases: 3, Seed: 4}),
	}
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		s := start(t)
		s.Bucket(t, "b")
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			uri := s.Put(t, "b", filepath.Base(path), data)
			file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: uri, Size: int64(len(data))}}
			_, want := sequential(t, path, data, linereader.Options{})
			for i := range want {
				want[i] = strings.Replace(want[i], path, uri, 1)
			}
			sec := foreachio.Sections{SectionSize: int64(len(data))/2 + 1}
			rests := sec.SplitRestriction(file, sec.CreateInitialRestriction(context.Background(), file))
			if len(rests) != 2 {
				t.Fatalf("%s: %d initial sections, want 2", uri, len(rests))
			}
			splits := 0
			for _, fraction := range []float64{0, 0.5, 0.99} {
				for k := 1; k <= len(want); k++ {
					sp := &splitter{t: t, sec: sec, file: file, k: k, fraction: fraction, max: len(want)}
					for _, rest := range rests {
						sp.process(rest)
					}
					if !slices.Equal(sp.got, want) {
						t.Fatalf("%s: split after record %d at fraction %v: primaries and residuals yield\n%q\nwant\n%q", uri, k, fraction, sp.got, want)
					}
					splits += sp.splits
				}
			}
			if splits < len(want) {
				t.Fatalf("%s: only %d splits succeeded", uri, splits)
			}
		}
	}
}
