// Command foreach-beam is an Apache Beam job over the records of text files: for every file
// matching --input it writes the number of records, and it reports the most frequent
// words, reading each file in byte-range sections on as many workers as the runner gives.
//
//	foreach-beam --input 'logs/*.log' --output out/logs
//
// writes out/logs-records.tsv (one line per file: PATH, a tab, RECORDS; sorted by path)
// and out/logs-words.tsv (the --top most frequent words: WORD, a tab, COUNT; most
// frequent first), then prints a one-line summary. A word is a run of bytes other than
// white space (as bytes.Fields splits).
//
// --input is a local glob, or s3://bucket/glob or gs://bucket/glob: objects are read in
// byte-range sections with ranged GETs, as configured by the clouds' own settings
// (AWS_ENDPOINT_URL for an S3-compatible server, STORAGE_EMULATOR_HOST for a GCS emulator:
// see the package foreachio/objstore).
//
// The job runs on Prism, Beam's runner for one machine, inside the process, unless a
// runner flag says otherwise: every flag of the Beam Go SDK passes through
// (--runner=flink --endpoint=HOST:PORT, --runner=spark …, --runner=dataflow --project=…
// --region=… --staging_location=gs://…). Beam's own log lines are shown with --verbose.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/beam/objstore"
	"github.com/foreachio/foreach/internal/escape"
	"github.com/foreachio/foreach/linereader"
)

func init() {
	register.DoFn5x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(string, int64), func(int, []byte), error](&countFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func(wordCount), error](&shardTopFn{})
	register.Function2x0(zeroRecords)
	register.Function2x1(formatRecords)
	register.Function2x1(lessWordCount)
	register.Function1x1(formatTop)
	register.Function3x0(joinSorted)
	register.Emitter1[string]()
	register.Emitter2[string, int64]()
	register.Emitter2[int, []byte]()
	register.Emitter1[wordCount]()
	register.Iter1[string]()
	register.Iter1[[]byte]()
}

// config is the command line of the job, apart from Beam's own flags.
type config struct {
	input, output string
	sep           string
	paragraph     bool
	decompress    bool
	sectionSize   string
	top           int
	verbose       bool
}

var cfg config

func init() {
	flag.StringVar(&cfg.input, "input", "", "`GLOB` of the files to read: a path, s3://bucket/glob or gs://bucket/glob (required)")
	flag.StringVar(&cfg.output, "output", "", "`PREFIX` of the output files PREFIX-records.tsv and PREFIX-words.tsv (required)")
	flag.StringVar(&cfg.sep, "sep", `\n`, "record separator `STR` (escapes \\n \\r \\t \\0 \\\\ \\xHH)")
	flag.BoolVar(&cfg.paragraph, "paragraph", false, "records are paragraphs, ended by a blank line (files are then read whole)")
	flag.BoolVar(&cfg.decompress, "decompress", false, "decompress gzip, zstd, bzip2 and xz files whatever their names (they are then read whole; *.gz always is)")
	flag.StringVar(&cfg.sectionSize, "section-size", "64MiB", "bytes per initial section of a file (`SIZE`: 1048576, 1MiB, 64MiB, 1GiB)")
	flag.IntVar(&cfg.top, "top", 10, "report the `N` most frequent words")
	flag.BoolVar(&cfg.verbose, "verbose", false, "show Beam's and the runner's log lines (by default only warnings and errors)")
	flag.Usage = func() {
		out := flag.CommandLine.Output()
		fmt.Fprint(out, usageHead)
		for _, name := range []string{"input", "output", "sep", "paragraph", "decompress", "section-size", "top", "verbose"} {
			f := flag.Lookup(name)
			kind, usage := flag.UnquoteUsage(f)
			fmt.Fprintf(out, "  --%s %s\n    \t%s", name, kind, usage)
			if f.DefValue != "" && f.DefValue != "false" {
				fmt.Fprintf(out, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(out)
		}
		fmt.Fprint(out, usageTail)
	}
}

const usageHead = `Usage: foreach-beam --input GLOB --output PREFIX [flags] [Beam flags]

Count the records of every file matching GLOB and find its most frequent words,
as an Apache Beam job. Writes PREFIX-records.tsv (PATH<tab>RECORDS per file,
sorted by path) and PREFIX-words.tsv (WORD<tab>COUNT, most frequent first).

Flags:
`

const usageTail = `
Beam flags pass through; the default runner is Prism, in this process.
  --runner=direct|prism|flink|spark|dataflow|universal
  --endpoint=HOST:PORT        job service of a Flink, Spark or Prism job server
  --environment_type=LOOPBACK|DOCKER|PROCESS
  --project, --region, --staging_location, --temp_location   for Dataflow
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command: it parses args (Beam's flags are on the same flag set),
// builds and runs the job, and returns the exit status: 0, 1 when the job failed, 2 for a
// bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	cfg = config{sep: `\n`, sectionSize: "64MiB", top: 10}
	flag.CommandLine.Init("foreach-beam", flag.ContinueOnError)
	flag.CommandLine.SetOutput(stderr)
	if err := flag.CommandLine.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2 // flag has printed the error and the usage
	}
	// Init must come right after the flags, before the job's own are checked: a runner
	// that starts this binary as its worker (Dataflow, Flink, Spark, Prism with PROCESS or
	// EXTERNAL workers) passes Beam's worker flags (--worker, --id, --control_endpoint …)
	// and none of the job's, and Init then serves as the worker and exits the process.
	beam.Init()
	job, err := newJob(cfg, flag.Args())
	if err != nil {
		fmt.Fprintf(stderr, "foreach-beam: %v\nRun 'foreach-beam --help' for the flags.\n", err)
		return 2
	}
	if !cfg.verbose {
		// Prism alone logs a dozen INFO lines per job, and a failed bundle is logged at
		// ERROR several times over, each with the whole execution plan. The command reports
		// the error itself, once, below; everything else is for --verbose. (Never log.Fatal
		// here: it would go to this handler and vanish.)
		slog.SetDefault(slog.New(slog.DiscardHandler))
	}

	ctx := context.Background()
	n, err := countMatches(ctx, job.input)
	if err != nil {
		fmt.Fprintf(stderr, "foreach-beam: %v\n", err)
		return 1
	}
	start := time.Now()
	if err := beamx.Run(ctx, job.pipeline()); err != nil {
		fmt.Fprintf(stderr, "foreach-beam: the job failed: %s\n", plainError(err))
		return 1
	}
	line, err := job.summary(ctx, n, time.Since(start))
	if err != nil {
		fmt.Fprintf(stderr, "foreach-beam: the job ran, but %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, line)
	return 0
}

// job is a validated command line.
type job struct {
	input, output string
	opt           linereader.Options
	sectionSize   int64
	top           int
}

func newJob(c config, rest []string) (*job, error) {
	switch {
	case len(rest) > 0:
		return nil, fmt.Errorf("unexpected argument %q: the files are given by --input", rest[0])
	case c.input == "":
		return nil, errors.New("--input GLOB is required")
	case c.output == "":
		return nil, errors.New("--output PREFIX is required")
	case c.top < 1:
		return nil, fmt.Errorf("--top %d: it must be at least 1", c.top)
	}
	j := &job{input: c.input, output: c.output, top: c.top}
	sep, err := escape.Parse(c.sep)
	if err == nil && len(sep) == 0 {
		err = errors.New("the separator is empty (use --paragraph for paragraphs)")
	}
	if err != nil {
		return nil, fmt.Errorf("--sep %q: %v", c.sep, err)
	}
	if c.paragraph {
		if c.sep != `\n` {
			return nil, errors.New("--sep and --paragraph cannot be used together")
		}
		sep = nil
	}
	j.opt = linereader.Options{Sep: sep, Paragraph: c.paragraph, Decompress: c.decompress}
	if err := j.opt.Validate(); err != nil {
		return nil, err
	}
	if j.sectionSize, err = parseSize(c.sectionSize); err != nil {
		return nil, fmt.Errorf("--section-size %q: %v", c.sectionSize, err)
	}
	return j, nil
}

// countMatches lists the glob before the job starts, so that a glob matching nothing is
// one plain sentence rather than a failed job. It lists as the job does: s3:// and gs://
// through foreachio's own clients, anything else through Beam's filesystems.
func countMatches(ctx context.Context, glob string) (int, error) {
	var n int
	if objstore.IsObjectURI(glob) {
		infos, err := objstore.List(ctx, glob)
		if err != nil {
			return 0, err // it names the glob
		}
		n = len(infos)
	} else {
		fs, err := filesystem.New(ctx, glob)
		if err != nil {
			return 0, fmt.Errorf("cannot read %s: %v", glob, err)
		}
		defer fs.Close()
		names, err := fs.List(ctx, glob)
		if err != nil {
			return 0, fmt.Errorf("cannot list %s: %v", glob, err)
		}
		n = len(names)
	}
	if n == 0 {
		return 0, fmt.Errorf("no file matches %s", glob)
	}
	return n, nil
}

func (j *job) recordsFile() string { return j.output + "-records.tsv" }
func (j *job) wordsFile() string   { return j.output + "-words.tsv" }

// pipeline is the job. The files are read once, by one splittable DoFn that counts both
// records and words inside each section and emits only totals: per section, the number of
// records of its file and the words' tallies, a few large elements (words.go). Making
// every record an element would cost several times the reading itself.
func (j *job) pipeline() *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	files := fileio.ReadMatches(s, foreachio.MatchFiles(s, j.input))

	records, words := beam.ParDo2(s.Scope("CountRecordsAndWords"), &countFn{foreachio.Sections{Options: j.opt, SectionSize: j.sectionSize}}, files)
	zeros := beam.ParDo(s, zeroRecords, files) // an empty file has no section that counts it
	perFile := stats.SumPerKey(s, beam.Flatten(s, records, zeros))
	textio.Write(s, j.recordsFile(), sortedText(s, beam.ParDo(s, formatRecords, perFile)))

	counts := beam.ParDo(s, &shardTopFn{Top: j.top}, beam.GroupByKey(s, words))
	textio.Write(s, j.wordsFile(), beam.ParDo(s, formatTop, top.Largest(s, counts, j.top, lessWordCount)))
	return p
}

// The job's counters, for the runner's monitoring (the summary line does not use them:
// see summary).
const counterNamespace = "foreach-beam"

var (
	recordsCounter = beam.NewCounter(counterNamespace, "records")
	wordsCounter   = beam.NewCounter(counterNamespace, "words")
)

// countFn counts the records of a section and its words, and emits the file's record
// count and the words' tallies per shard.
type countFn struct{ foreachio.Sections }

func (f *countFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emitRecords func(string, int64), emitWords func(int, []byte)) error {
	t := newTally()
	var records, words int64
	err := f.Each(ctx, rt, file, func(_ int64, rec []byte) error {
		records++
		for w := range bytes.FieldsSeq(rec) {
			t.add(w, emitWords)
			words++
		}
		return nil
	})
	if err != nil {
		return err
	}
	if records > 0 {
		emitRecords(file.Metadata.Path, records)
	}
	t.flush(emitWords)
	recordsCounter.Inc(ctx, records)
	wordsCounter.Inc(ctx, words)
	return nil
}

func zeroRecords(file fileio.ReadableFile, emit func(string, int64)) {
	emit(file.Metadata.Path, 0)
}

// wordCount is a word and its number of occurrences, for top.Largest.
type wordCount struct {
	Word string
	N    int64
}

// lessWordCount orders by count, and between equal counts puts the alphabetically later
// word first, so that the report lists ties in alphabetical order and is the same on
// every run.
func lessWordCount(a, b wordCount) bool {
	if a.N != b.N {
		return a.N < b.N
	}
	return a.Word > b.Word
}

// compareWordCount orders the most frequent first, as the report lists them.
func compareWordCount(a, b wordCount) int {
	if lessWordCount(a, b) {
		return 1
	}
	if lessWordCount(b, a) {
		return -1
	}
	return 0
}

func formatTop(top []wordCount) string {
	slices.SortFunc(top, compareWordCount)
	lines := make([]string, len(top))
	for i, wc := range top {
		lines[i] = fmt.Sprintf("%s\t%d", wc.Word, wc.N)
	}
	return strings.Join(lines, "\n")
}

func formatRecords(path string, n int64) string { return fmt.Sprintf("%s\t%d", path, n) }

// sortedText gathers a PCollection<string> of lines into one element, the lines sorted and
// joined, so that textio.Write (which writes elements in any order) writes them sorted.
// The records report has one line per file: it fits in memory.
func sortedText(s beam.Scope, lines beam.PCollection) beam.PCollection {
	s = s.Scope("SortLines")
	return beam.ParDo(s, joinSorted, beam.GroupByKey(s, beam.AddFixedKey(s, lines)))
}

func joinSorted(_ int, lines func(*string) bool, emit func(string)) {
	var all []string
	var l string
	for lines(&l) {
		all = append(all, l)
	}
	slices.Sort(all)
	emit(strings.Join(all, "\n"))
}

// summary is the one line printed after a successful job. The number of records is read
// back from the records report, the job's result, so it is exact however the runner split
// the work; the runner's metrics are not always (Prism was seen losing the counter
// updates of bundles it split while they ran), so the summary does not use them.
func (j *job) summary(ctx context.Context, files int, took time.Duration) (string, error) {
	records, err := j.recordsTotal(ctx)
	if err != nil {
		return "", fmt.Errorf("reading back %s: %v", j.recordsFile(), err)
	}
	what := fmt.Sprintf("%d files", files)
	if files == 1 {
		what = "1 file"
	}
	return fmt.Sprintf("foreach-beam: %s, %d records in %.1fs; wrote %s and %s", what, records, took.Seconds(), j.recordsFile(), j.wordsFile()), nil
}

// recordsTotal adds up the records report (PATH, a tab, RECORDS per line), through the
// filesystem the job wrote it with.
func (j *job) recordsTotal(ctx context.Context) (int64, error) {
	fs, err := filesystem.New(ctx, j.recordsFile())
	if err != nil {
		return 0, err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, j.recordsFile())
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	var total int64
	r := linereader.New(rc, linereader.Options{Chomp: true})
	for line := range r.Views() {
		i := bytes.LastIndexByte(line, '\t')
		n, err := strconv.ParseInt(string(line[i+1:]), 10, 64)
		if i < 0 || err != nil {
			return 0, fmt.Errorf("line %q is not PATH<tab>RECORDS", line)
		}
		total += n
	}
	return total, r.Err()
}

// plainError shortens the runner's error, which wraps the DoFn's under several layers of
// job and bundle details, to the DoFn's own message when it can find it.
func plainError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "foreachio: "); i >= 0 {
		msg = msg[i:]
		if k := strings.IndexByte(msg, '\n'); k >= 0 {
			msg = msg[:k]
		}
	}
	return msg
}

// parseSize parses a positive byte count: a number, or one followed by KiB, MiB or GiB.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return 0, errors.New("want a positive number of bytes, such as 1048576 or 64MiB")
	}
	return n * mult, nil
}
