package foreachio_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/linereader"
)

// Every pipeline of these tests runs on Prism, ptest's default runner: it runs the SDK
// harness the way a distributed runner does (serialized DoFns, registered functions, real
// restriction splitting and encoding), which the direct runner does not.
func TestMain(m *testing.M) {
	ptest.Main(m)
}

func init() {
	register.Function1x1(formatRecord)
	register.Function2x1(formatCount)
}

// formatRecord renders a Record as one comparable string; %q keeps separators visible in
// a failure message.
func formatRecord(r foreachio.Record) string {
	return fmt.Sprintf("%s@%d:%q", r.File, r.Offset, r.Text)
}

func formatCount(path string, n int64) string {
	return fmt.Sprintf("%s\t%d", path, n)
}

// sequential is the reference: one linereader read of the whole input, the records with
// their offsets, as the Beam job must reproduce them.
func sequential(t *testing.T, path string, data []byte, opt linereader.Options) (records, positioned []string) {
	t.Helper()
	r := linereader.New(bytes.NewReader(data), opt)
	records, positioned = []string{}, []string{}
	for r.Next() {
		records = append(records, r.Text())
		positioned = append(positioned, formatRecord(foreachio.Record{File: path, Offset: r.Offset(), Text: r.Text()}))
	}
	if err := r.Err(); err != nil {
		t.Fatalf("sequential read of %s: %v", path, err)
	}
	return records, positioned
}

// checkFile builds one pipeline that reads path in sections of each size and asserts that
// ReadRecords, ReadRecordsWithPosition and CountRecords all equal a sequential read. One
// pipeline for all sizes keeps the test fast: Prism's start-up is paid once.
func checkFile(t *testing.T, path string, opt linereader.Options, sizes ...int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	records, positioned := sequential(t, path, data, opt)
	wantCount := formatCount(path, int64(len(records)))

	p, s := beam.NewPipelineWithRoot()
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, path))
	for _, size := range sizes {
		s := s.Scope(fmt.Sprintf("sections of %d bytes", size))
		ro := foreachio.WithSectionSize(size)
		passert.EqualsList(s, foreachio.ReadRecords(s, files, opt, ro), records)
		passert.EqualsList(s, beam.ParDo(s, formatRecord, foreachio.ReadRecordsWithPosition(s, files, opt, ro)), positioned)
		passert.Equals(s, beam.ParDo(s, formatCount, foreachio.CountRecords(s, files, opt, ro)), wantCount)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func generate(t *testing.T, dir, name string, spec corpus.Spec) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if _, err := corpus.WriteFile(path, spec); err != nil {
		t.Fatal(err)
	}
	return path
}

// smallCorpora are short enough to be cut into 1-byte sections: every byte offset is then a
// section boundary, one restriction each.
func smallCorpora(t *testing.T) map[string]string {
	dir := t.TempDir()
	return map[string]string{
		"tall":             generate(t, dir, "tall.txt", corpus.Spec{Shape: corpus.Tall, Lines: 30, Phrases: 4, Seed: 1}),
		"mixed":            generate(t, dir, "mixed.txt", corpus.Spec{Shape: corpus.Mixed, Lines: 40, Phrases: 2, Seed: 3}),
		"crlf":             generate(t, dir, "crlf.txt", corpus.Spec{Shape: corpus.CRLF, Lines: 30, Phrases: 4, Seed: 1}),
		"no-final-newline": generate(t, dir, "nofinal.txt", corpus.Spec{Shape: corpus.NoFinalNewline, Lines: 30, Phrases: 4, Seed: 1}),
		"empty":            writeFile(t, dir, "empty.txt", nil),
	}
}

func TestReadTinySectionsEqualsSequentialRead(t *testing.T) {
	for name, path := range smallCorpora(t) {
		t.Run(name, func(t *testing.T) {
			checkFile(t, path, linereader.Options{}, 1, 2, 3, 7)
		})
	}
}

func TestReadTinySectionsOtherSeparators(t *testing.T) {
	corpora := smallCorpora(t)
	t.Run("crlf/Sep=CRLF,Chomp", func(t *testing.T) {
		checkFile(t, corpora["crlf"], linereader.Options{Sep: []byte("\r\n"), Chomp: true}, 1, 2, 3)
	})
	t.Run("tall/Sep=space", func(t *testing.T) {
		checkFile(t, corpora["tall"], linereader.Options{Sep: []byte(" ")}, 1, 7)
	})
	t.Run("tall/Sep=2 bytes", func(t *testing.T) {
		checkFile(t, corpora["tall"], linereader.Options{Sep: []byte("e ")}, 1, 2, 3)
	})
	t.Run("mixed/Sep=3 bytes", func(t *testing.T) {
		// "ne " straddles boundaries at every one of its bytes in 1-, 2- and 3-byte sections.
		checkFile(t, corpora["mixed"], linereader.Options{Sep: []byte("ne "), Chomp: true}, 1, 2, 3)
	})
}

// Records of many lines in sections: a section begins at the first record beginning at
// or after its offset, and the one before reads on to finish its last record, so sections
// at every byte give a sequential read's records. The patterns reach the workers through
// the DoFn's encoding (a *regexp.Regexp is encoded as its source text).
func TestReadMultilineSections(t *testing.T) {
	dir := t.TempDir()
	path := generate(t, dir, "trace.log", corpus.Spec{Shape: corpus.StackTrace, Lines: 25, Phrases: 2, Seed: 7})
	cases := []struct {
		name string
		ml   linereader.Multiline
	}{
		{"Start", linereader.Multiline{Start: regexp.MustCompile(`^\d{4}-\d\d-\d\d `)}},
		{"Continue, MaxLines", linereader.Multiline{Continue: regexp.MustCompile(`^(\s|Caused by|\.\.\.)`), MaxLines: 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := linereader.Options{Multiline: &c.ml}
			if recs, _ := sequential(t, path, mustRead(t, path), opt); len(recs) < 20 {
				t.Fatalf("%d records: the corpus has too few entries to test joining", len(recs))
			}
			checkFile(t, path, opt, 1, 13, 512)
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Corpora of 1.5 to 5.4 MiB in 1 MiB sections (two to six per file), and the mixed one also
// in 64 KiB sections, which cut its longest lines (hundreds of KiB) many times: a section
// inside one record yields nothing.
func TestReadMiBSectionsEqualsSequentialRead(t *testing.T) {
	if testing.Short() {
		t.Skip("several MiB per corpus")
	}
	dir := t.TempDir()
	cases := []struct {
		name  string
		path  string
		sizes []int64
	}{
		{"tall", generate(t, dir, "tall.txt", corpus.Spec{Shape: corpus.Tall, Size: 5 << 19}), []int64{1 << 20}},
		{"mixed", generate(t, dir, "mixed.txt", corpus.Spec{Shape: corpus.Mixed}), []int64{1 << 20, 64 << 10}},
		{"crlf", generate(t, dir, "crlf.txt", corpus.Spec{Shape: corpus.CRLF, Size: 3 << 19}), []int64{1 << 20}},
		{"no-final-newline", generate(t, dir, "nofinal.txt", corpus.Spec{Shape: corpus.NoFinalNewline, Size: 3 << 19}), []int64{1 << 20}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFile(t, c.path, linereader.Options{Chomp: true}, c.sizes...)
		})
	}
}

// Options that linereader.NewSection refuses are read whole: the results are still exactly
// a sequential read, even with 1-byte sections asked for.
func TestReadUnsplittableOptionsReadsWholeFiles(t *testing.T) {
	corpora := smallCorpora(t)
	cases := map[string]linereader.Options{
		"Paragraph":  {Paragraph: true},
		"Whole":      {Whole: true},
		"Limit":      {Limit: 10},
		"Sep=ee":     {Sep: []byte("ee")},
		"Sep=\\n\\n": {Sep: []byte("\n\n")},
	}
	for name, opt := range cases {
		t.Run(name, func(t *testing.T) {
			checkFile(t, corpora["mixed"], opt, 1, 7)
		})
	}
}

// A .gz file is decompressed by fileio, and compressed bytes under any name by the
// Decompress option; neither can be read at an offset, so both are read whole, and the
// offsets are those of the decompressed bytes. A plain file read with Decompress is still
// read in sections.
func TestReadCompressedFiles(t *testing.T) {
	plain, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Lines: 40, Phrases: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cases := []struct {
		name, file string
		data       []byte
		opt        linereader.Options
	}{
		{"by fileio (.gz)", "mixed.txt.gz", gz.Bytes(), linereader.Options{}},
		{"by Decompress", "mixed.data", gz.Bytes(), linereader.Options{Decompress: true}},
		{"plain with Decompress", "mixed.txt", plain, linereader.Options{Decompress: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, dir, c.file, c.data)
			records, positioned := sequential(t, path, plain, linereader.Options{})

			p, s := beam.NewPipelineWithRoot()
			files := fileio.ReadMatches(s, fileio.MatchFiles(s, path))
			ro := foreachio.WithSectionSize(3)
			passert.EqualsList(s, foreachio.ReadRecords(s, files, c.opt, ro), records)
			passert.EqualsList(s, beam.ParDo(s, formatRecord, foreachio.ReadRecordsWithPosition(s, files, c.opt, ro)), positioned)
			if err := ptest.Run(p); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// memfs, like gs:// and s3://, gives readers without ReadAt: each file is one restriction.
func TestReadFilesystemWithoutReaderAt(t *testing.T) {
	data, err := corpus.Bytes(corpus.Spec{Shape: corpus.CRLF, Lines: 30, Phrases: 4, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	const path = "memfs://foreachio-test/crlf.txt"
	memfs.Write(path, data)
	records, _ := sequential(t, path, data, linereader.Options{})

	p, s := beam.NewPipelineWithRoot()
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, path))
	passert.EqualsList(s, foreachio.ReadRecords(s, files, linereader.Options{}, foreachio.WithSectionSize(2)), records)
	passert.Equals(s, beam.ParDo(s, formatCount, foreachio.CountRecords(s, files, linereader.Options{})), formatCount(path, int64(len(records))))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

// A glob over a directory: every matching file, the empty one included with its 0, and no
// other file.
func TestReadMultiFileGlob(t *testing.T) {
	dir := t.TempDir()
	paths := []string{
		generate(t, dir, "a-tall.txt", corpus.Spec{Shape: corpus.Tall, Lines: 50, Seed: 7}),
		generate(t, dir, "b-mixed.txt", corpus.Spec{Shape: corpus.Mixed, Lines: 200, Seed: 8}),
		generate(t, dir, "c-crlf.txt", corpus.Spec{Shape: corpus.CRLF, Lines: 50, Seed: 9}),
		generate(t, dir, "d-nofinal.txt", corpus.Spec{Shape: corpus.NoFinalNewline, Lines: 50, Seed: 10}),
		writeFile(t, dir, "e-empty.txt", nil),
	}
	writeFile(t, dir, "not-matched.log", []byte("this file is not read\n"))
	opt := linereader.Options{Chomp: true}

	var records, positioned, counts []string
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, pos := sequential(t, path, data, opt)
		records = append(records, r...)
		positioned = append(positioned, pos...)
		counts = append(counts, formatCount(path, int64(len(r))))
	}

	p, s := beam.NewPipelineWithRoot()
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, filepath.Join(dir, "*.txt")))
	ro := foreachio.WithSectionSize(1000)
	passert.EqualsList(s, foreachio.ReadRecords(s, files, opt, ro), records)
	passert.EqualsList(s, beam.ParDo(s, formatRecord, foreachio.ReadRecordsWithPosition(s, files, opt, ro)), positioned)
	passert.EqualsList(s, beam.ParDo(s, formatCount, foreachio.CountRecords(s, files, opt, ro)), counts)
	// Read is MatchFiles, ReadMatches and ReadRecords in one.
	passert.EqualsList(s, foreachio.Read(s, filepath.Join(dir, "*.txt"), opt, ro), records)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

// Errors fail the job, with the file and the reason in the message.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "long.txt", []byte("short\na record far longer than the limit\nshort\n"))
	cases := []struct {
		name string
		opt  linereader.Options
		want []string
	}{
		{"MaxRecord", linereader.Options{MaxRecord: 10}, []string{"long.txt", "longer than the maximum of 10 bytes"}},
		{"invalid options", linereader.Options{Paragraph: true, Whole: true}, []string{"long.txt", "invalid options", "Paragraph and Whole conflict"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			files := fileio.ReadMatches(s, fileio.MatchFiles(s, path))
			foreachio.CountRecords(s, files, c.opt, foreachio.WithSectionSize(4))
			err := ptest.Run(p)
			if err == nil {
				t.Fatal("the job succeeded")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}
