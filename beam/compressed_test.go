package foreachio_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/beam/internal/fakestore"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/internal/testkit/tools"
	"github.com/foreachio/foreach/internal/testkit/zfixtures"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/zindex"
)

// xzBlocksOf compresses text with xz -T2 in blocks of block bytes, which then give their
// sizes; it skips the test when xz did not make them (internal/testkit/tools).
func xzBlocksOf(t testing.TB, text []byte, block int) []byte {
	t.Helper()
	return tools.Run(t, fmt.Sprintf("xz -T2 --block-size=%d -c", block), text)
}

// zidxOf is the bytes of the index of a gzip file, made by decoding it, with an access
// point about every span bytes of text.
func zidxOf(t testing.TB, gz []byte, span int64) []byte {
	t.Helper()
	ix, err := zindex.Build(bufio.NewReader(bytes.NewReader(gz)), span)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := ix.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// compressedCase is a compressed file that is cut in sections of its text.
type compressedCase struct {
	name string
	data []byte // the file's bytes
	zidx []byte // its NAME.zidx, if it has one
	opt  linereader.Options
}

// compressedCases are the text compressed in each way that indexes it: a .gz with a
// .zidx (a point every piece bytes of text), BGZF (read as .gz by its name; members of
// member bytes of text), zstd frames and xz blocks of piece bytes of text (read with
// Decompress).
func compressedCases(t testing.TB, text []byte, member, piece int) []compressedCase {
	gz := zfixtures.Gzip(text)
	zidx := zidxOf(t, gz, int64(piece))
	if ix, err := zindex.Read(bytes.NewReader(zidx)); err != nil || ix.Points() < 3 {
		// Too short for a deflate block boundary every piece bytes: gzip members of
		// piece bytes each, whose starts are access points.
		gz = nil
		for rest := text; len(rest) > 0; rest = rest[min(piece, len(rest)):] {
			gz = append(gz, zfixtures.Gzip(rest[:min(piece, len(rest))])...)
		}
		zidx = zidxOf(t, gz, int64(piece))
	}
	dec := linereader.Options{Decompress: true}
	return []compressedCase{
		{"indexed.gz", gz, zidx, linereader.Options{}},
		{"bgzf.gz", zfixtures.BGZF(text, member), nil, linereader.Options{}},
		{"frames.zst", zfixtures.Zstd(t, text, piece, true), nil, dec},
		{"blocks.xz", xzBlocksOf(t, text, piece), nil, dec},
	}
}

// writeCompressed writes a case's file (and its index) into dir and returns its path.
func writeCompressed(t testing.TB, dir string, c compressedCase) string {
	t.Helper()
	path := filepath.Join(dir, c.name)
	if err := os.WriteFile(path, c.data, 0o644); err != nil {
		t.Fatal(err)
	}
	if c.zidx != nil {
		if err := os.WriteFile(path+".zidx", c.zidx, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func mixedText(t testing.TB, lines int) []byte {
	t.Helper()
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Lines: lines, Phrases: 6, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// The initial restriction of an indexed compressed file is its text, [0, text size), cut
// at access points; the offsets are the text's.
func TestCompressedInitialRestrictions(t *testing.T) {
	text := mixedText(t, 3000)
	dir := t.TempDir()
	for _, c := range compressedCases(t, text, 4<<10, 8<<10) {
		t.Run(c.name, func(t *testing.T) {
			path := writeCompressed(t, dir, c)
			file := readableFile(t, path)
			sec := foreachio.Sections{Options: c.opt, SectionSize: 30000}
			rest := sec.CreateInitialRestriction(context.Background(), file)
			if want := (offsetrange.Restriction{Start: 0, End: int64(len(text))}); rest != want {
				t.Fatalf("initial restriction %v, want %v (the text's)", rest, want)
			}
			ix := fileIndex(t, path, c)
			points := ix.Offsets()
			got := sec.SplitRestriction(file, rest)
			if len(got) < 4 {
				t.Fatalf("%d sections of %d bytes of text in sections of 30000: %v", len(got), len(text), got)
			}
			for i, r := range got {
				// A section reads from a byte before its start: the access point.
				if i > 0 && (r.Start != got[i-1].End || !slices.Contains(points, r.Start-1)) {
					t.Fatalf("section %v does not follow %v a byte past an access point (%v)", r, got[i-1], points)
				}
				if r.Start >= r.End || (i == len(got)-1) != (r.End == int64(len(text))) {
					t.Fatalf("sections %v do not cover [0, %d)", got, len(text))
				}
			}
		})
	}
}

// fileIndex is the index the file of c has: its .zidx, or its structure's.
func fileIndex(t testing.TB, path string, c compressedCase) *zindex.Index {
	t.Helper()
	if c.zidx != nil {
		ix, err := zindex.Read(bytes.NewReader(c.zidx))
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	ix, err := zindex.FromStructure(bytes.NewReader(c.data), int64(len(c.data)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ix
}

// Compressed files without an index, or whose options cannot be cut, stay whole; a
// compressed file read as bytes (no Decompress, not *.gz) is cut in its bytes.
func TestCompressedFilesReadWhole(t *testing.T) {
	text := mixedText(t, 300)
	dir := t.TempDir()
	gz := zfixtures.Gzip(text)
	bgzf := zfixtures.BGZF(text, 4<<10)
	stale := writeFile(t, dir, "stale.gz", gz)
	other := zfixtures.Gzip(append(slices.Clone(text), "one more\n"...))
	writeFile(t, dir, "stale.gz.zidx", zidxOf(t, other, 4<<10))
	bz, _ := tools.Output(t, "bzip2 -c", text) // nil when bzip2 did not run
	whole := offsetrange.Restriction{Start: -1, End: 0}
	cases := []struct {
		name string
		path string
		opt  linereader.Options
		want offsetrange.Restriction
	}{
		{"gzip without an index", writeFile(t, dir, "plain.gz", gz), linereader.Options{}, whole},
		{"gzip with a stale index", stale, linereader.Options{}, whole},
		{"one zstd frame", writeFile(t, dir, "one.zst", zfixtures.Zstd(t, text, 1<<20, true)), linereader.Options{Decompress: true}, whole},
		{"BGZF, Paragraph", writeFile(t, dir, "para.gz", bgzf), linereader.Options{Paragraph: true}, whole},
		{"BGZF read as bytes", writeFile(t, dir, "bgzf.data", bgzf), linereader.Options{}, offsetrange.Restriction{Start: 0, End: int64(len(bgzf))}},
	}
	if bz != nil {
		cases = append(cases, struct {
			name string
			path string
			opt  linereader.Options
			want offsetrange.Restriction
		}{"bzip2", writeFile(t, dir, "text.bz2", bz), linereader.Options{Decompress: true}, whole})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := readableFile(t, c.path)
			sec := foreachio.Sections{Options: c.opt, SectionSize: 1 << 30}
			if got := sec.CreateInitialRestriction(context.Background(), file); got != c.want {
				t.Fatalf("initial restriction %v, want %v", got, c.want)
			}
			if c.want != whole {
				return
			}
			want, _ := sequential(t, c.path, text, textOpt(c.opt))
			sp := &splitter{t: t, sec: sec, file: file, k: -1, max: len(want)}
			sp.process(whole)
			if len(sp.got) != len(want) {
				t.Fatalf("%d records read whole, want %d", len(sp.got), len(want))
			}
		})
	}
}

func textOpt(opt linereader.Options) linereader.Options {
	opt.Decompress = false
	return opt
}

// Every section of an indexed compressed file, split dynamically after every record,
// yields exactly a sequential read of its text, with the text's offsets.
func TestCompressedDynamicSplits(t *testing.T) {
	text := mixedText(t, 120)
	dir := t.TempDir()
	for _, c := range compressedCases(t, text, 1<<10, 2<<10) {
		t.Run(c.name, func(t *testing.T) {
			path := writeCompressed(t, dir, c)
			file := readableFile(t, path)
			_, want := sequential(t, path, text, textOpt(c.opt))
			sec := foreachio.Sections{Options: c.opt, SectionSize: int64(len(text)) / 3}
			rests := sec.SplitRestriction(file, sec.CreateInitialRestriction(context.Background(), file))
			if len(rests) < 2 {
				t.Fatalf("%d sections", len(rests))
			}
			checkSplits(t, sec, file, rests, want)
		})
	}
}

// checkSplits processes rests, split after the k-th record at fractions, for every k,
// and checks that they yield want.
func checkSplits(t *testing.T, sec foreachio.Sections, file fileio.ReadableFile, rests []offsetrange.Restriction, want []string) {
	t.Helper()
	splits := 0
	for _, fraction := range []float64{0, 0.5, 0.99} {
		for k := 1; k <= len(want); k += 3 {
			sp := &splitter{t: t, sec: sec, file: file, k: k, fraction: fraction, max: len(want)}
			for _, rest := range rests {
				sp.process(rest)
			}
			if !slices.Equal(sp.got, want) {
				t.Fatalf("split after record %d at fraction %v: primaries and residuals yield\n%q\nwant\n%q", k, fraction, sp.got, want)
			}
			splits += sp.splits
		}
	}
	if splits == 0 {
		t.Fatal("no split succeeded")
	}
}

// The pipelines on Prism: records, records with offsets and counts of indexed compressed
// files equal a sequential read of their text, in sections of several sizes.
func TestCompressedSectionsOnPrism(t *testing.T) {
	text := mixedText(t, 2000)
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	for _, c := range compressedCases(t, text, 4<<10, 8<<10) {
		path := writeCompressed(t, dir, c)
		records, positioned := sequential(t, path, text, textOpt(c.opt))
		files := fileio.ReadMatches(s, fileio.MatchFiles(s, path))
		for _, size := range []int64{1, 20000, 1 << 20} {
			s := s.Scope(fmt.Sprintf("%s in sections of %d", c.name, size))
			ro := foreachio.WithSectionSize(size)
			passert.EqualsList(s, foreachio.ReadRecords(s, files, c.opt, ro), records)
			passert.EqualsList(s, beam.ParDo(s, formatRecord, foreachio.ReadRecordsWithPosition(s, files, c.opt, ro)), positioned)
			passert.EqualsList(s, beam.ParDo(s, formatCount, foreachio.CountRecords(s, files, c.opt, ro)), []string{formatCount(path, int64(len(records)))})
		}
	}
	ptest.RunAndValidate(t, p)
}

// On s3:// and gs://, indexed compressed objects are cut in sections of their text, each
// read with ranged GETs; the records are a sequential read's. The bytes the server sends
// to make the restrictions are the .zidx object, 64 KiB at each end of the object (its
// identity) and the headers of its pieces (xz's, in these small blocks, are read in the
// scan's windows: the whole object); the sections' bytes stay within 1.05 times the
// object plus, per section, what it reads past its end.
func TestCompressedObjects(t *testing.T) {
	text := mixedText(t, 20000)
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		srv := start(t)
		srv.Bucket(t, "b")
		for _, c := range compressedCases(t, text, 64<<10, 512<<10) {
			t.Run(srv.Scheme+"/"+c.name, func(t *testing.T) {
				uri := srv.Put(t, "b", c.name, c.data)
				if c.zidx != nil {
					srv.Put(t, "b", c.name+".zidx", c.zidx)
				}
				file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: uri, Size: int64(len(c.data))}}
				_, want := sequential(t, uri, text, textOpt(c.opt))
				size := int64(len(c.data))
				scan := int64(len(c.zidx)) + 2*64<<10 + size/20
				if strings.HasSuffix(c.name, ".xz") {
					// The scan of xz blocks reads every block's header: closer than
					// 256 KiB (in these small blocks), they are read in windows of the
					// object.
					scan += size
				}
				for i, k := range []int64{1, 4, 12} {
					before := srv.Sent.Load()
					sec := foreachio.Sections{Options: c.opt, SectionSize: int64(len(text))/k + 1}
					rests := sec.SplitRestriction(file, sec.CreateInitialRestriction(context.Background(), file))
					made := srv.Sent.Load() - before
					if i == 0 && made > scan { // later rounds find the index kept
						t.Fatalf("%d bytes sent to make the restrictions, more than %d", made, scan)
					}
					if len(rests) < min(int(k), 14)/2 {
						t.Fatalf("%d sections, want about %d", len(rests), k)
					}
					sp := &splitter{t: t, sec: sec, file: file, k: -1, max: len(want)}
					for _, rest := range rests {
						sp.process(rest)
					}
					if !slices.Equal(sp.got, want) {
						t.Fatalf("%d sections yield %d records, not the %d of a sequential read (or other ones)", len(rests), len(sp.got), len(want))
					}
					sent := srv.Sent.Load() - before - made
					t.Logf("%s, %d sections: %d bytes sent for the restrictions, %d for the sections: %.3fx the object's %d", c.name, len(rests), made, sent, float64(sent)/float64(size), size)
					// Past its end, a section finishes its last record: it decodes the
					// piece (or span) after its end, which the next section decodes too,
					// reading 256 KiB of compressed bytes at a time (internal/blockz), and
					// a window of 64 KiB past what it needs. The piece before its start is
					// not read: sections start a separator's length past an access point.
					overlap := int64(len(rests)) * (2*pieceBytes(c, size, len(text)) + 256<<10 + 64<<10)
					if limit := int64(1.05*float64(size)) + overlap; sent > limit {
						t.Fatalf("%d sections: the server sent %d bytes for an object of %d, more than %d", len(rests), sent, size, limit)
					}
				}
			})
		}
	}
}

// pieceBytes is about the compressed size of one of the pieces (or spans) of c, of the
// objects test (BGZF members of 64 KiB of text, the others' pieces of 512 KiB).
func pieceBytes(c compressedCase, size int64, text int) int64 {
	piece := int64(512 << 10)
	if c.name == "bgzf.gz" {
		piece = 64 << 10
	}
	return size * piece / int64(text)
}

// A compressed object without an index is read whole, by one GET of the object, after a
// look at its first bytes.
func TestCompressedObjectsWithoutIndexReadWhole(t *testing.T) {
	text := mixedText(t, 3000)
	gz := zfixtures.Gzip(text)
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		srv := start(t)
		srv.Bucket(t, "b")
		uri := srv.Put(t, "b", "plain.gz", gz)
		file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: uri, Size: int64(len(gz))}}
		sec := foreachio.Sections{SectionSize: 1000}
		before := srv.Sent.Load()
		rest := sec.CreateInitialRestriction(context.Background(), file)
		if rest != (offsetrange.Restriction{Start: -1, End: 0}) {
			t.Fatalf("%s: initial restriction %v, want the whole file", uri, rest)
		}
		if made := srv.Sent.Load() - before; made > 4<<10 {
			t.Fatalf("%s: %d bytes sent to find that a gzip member has no index", uri, made)
		}
		want, _ := sequential(t, uri, text, linereader.Options{})
		sp := &splitter{t: t, sec: sec, file: file, k: -1, max: len(want)}
		before = srv.Sent.Load()
		sp.process(rest)
		if len(sp.got) != len(want) {
			t.Fatalf("%s: %d records, want %d", uri, len(sp.got), len(want))
		}
		// GCS's answer to the look-up of the object (its metadata) is about 500 bytes.
		if sent := srv.Sent.Load() - before; sent < int64(len(gz)) || sent > int64(len(gz))+1<<10 {
			t.Fatalf("%s: %d bytes sent to read it whole, want its %d", uri, sent, len(gz))
		}
	}
}
