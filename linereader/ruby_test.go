package linereader_test

// Ruby as the oracle. testdata/ruby/cases.json holds, for many inputs and option sets, what
// CRuby's IO.foreach yields: the records and the line number after each. gen.rb made it and
// decided, case by case, whether Ruby differs from this project's rules (docs/semantics.md):
// where it does, the case also holds our records ("ours_records") and the id of the
// deliberate difference that explains it. The test needs no Ruby.
//
// Every case runs through every path a caller has to its records:
//
//   - iterators: Next, Lines, Views (each record copied), Batches, Runs, Pieces (the pieces
//     of each record joined) and Foreach, each through the package's one test driver
//     (ReadAll);
//   - read patterns: a bytes.Reader, one byte per Read, half reads, the last data together
//     with io.EOF, random short reads with empty ones, an error after the data, a timeout
//     after the data, a regular file (Open), and, where the options are splittable, the
//     concatenation of NewSection readers at random cuts.
//
// Foreach takes a file name, so it runs on the regular file only; sections exist only for
// splittable options. Every other iterator runs under every read pattern. Buffer sizes
// rotate over 1, 2, 3, 7 and 16 bytes from case to case and pattern to pattern, so that
// records and separators straddle reads and buffer edges.
//
// Under the race detector the full matrix (about 60 readers per case) takes minutes on a
// small machine, so there every case runs every iterator and Foreach once, each iterator under a read pattern that rotates with the
// case: every case still meets every iterator, and every iterator meets every read
// pattern on thousands of cases. The plain run covers the whole matrix.
//
// What is compared: records and line numbers, with Ruby's where Ruby agrees with our rules
// and with ours where it deliberately does not; for a deliberate difference the test also
// asserts that Ruby's records really differ from ours. Batches and Foreach give no line
// number per record: their records are compared, and for Batches the line number after the
// loop. Where runs of several records are allowed (see Runs), the runs joined are split after
// every separator and compared record by record, and LineNo during each run must count the
// records completed so far; otherwise the runs are compared as one concatenation, with the
// line number after the loop. Runs are never assumed to end on a record boundary: a record
// longer than the buffer may come in pieces. An error pattern must
// end with its error from Err, every other with nil.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/linereader"
)

type rubyCase struct {
	Input       int      `json:"input"` // index into rubyCases.Inputs
	Mode        string   `json:"mode"`  // default, sep, paragraph, whole
	Sep         []byte   `json:"sep"`
	Limit       int      `json:"limit"`
	Chomp       bool     `json:"chomp"`
	UTF8        bool     `json:"utf8"`
	Records     [][]byte `json:"records"` // Ruby's
	LineNos     []int64  `json:"linenos"`
	Ours        string   `json:"ours"` // non-empty: the id of the deliberate difference
	OursRecords [][]byte `json:"ours_records"`
	OursLineNos []int64  `json:"ours_linenos"`
}

type rubyCases struct {
	RubyVersion string            `json:"ruby_version"`
	Differences map[string]string `json:"differences"`
	Inputs      [][]byte          `json:"inputs"`
	Cases       []rubyCase        `json:"cases"`
}

// rubyDifferences are the ids of the deliberate differences from CRuby, each explained in
// docs/semantics.md under a heading that names it.
var rubyDifferences = []string{"whole-chomp", "whole-limit-ff", "limit-multibyte-sep", "utf8-final-lineno"}

func (c rubyCase) options() linereader.Options {
	opt := linereader.Options{Limit: c.Limit, Chomp: c.Chomp, UTF8: c.UTF8}
	switch c.Mode {
	case "sep":
		opt.Sep = c.Sep
	case "paragraph":
		opt.Paragraph = true
	case "whole":
		opt.Whole = true
	}
	return opt
}

// oracleRecords are records as the oracle knows them: the bytes and the line number after
// each (Ruby gives no offsets: Off is not compared, and zero in what the engine yielded).
// cases.json holds them as two lists, records and linenos.
type oracleRecords []linereader.Seen

// String renders the records for failure messages, with no offsets.
func (recs oracleRecords) String() string {
	parts := make([]string, len(recs))
	for i, r := range recs {
		parts[i] = fmt.Sprintf("{%q %d}", r.Rec, r.LineNo)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func decodeRecords(data [][]byte, linenos []int64) oracleRecords {
	recs := make(oracleRecords, len(data))
	for i := range data {
		recs[i] = linereader.Seen{Rec: string(data[i]), LineNo: linenos[i]}
	}
	return recs
}

// ruby returns what Ruby yields; want what the engine must yield.
func (c rubyCase) ruby() oracleRecords { return decodeRecords(c.Records, c.LineNos) }

func (c rubyCase) want() oracleRecords {
	if c.Ours != "" {
		return decodeRecords(c.OursRecords, c.OursLineNos)
	}
	return c.ruby()
}

func sameOracleRecords(a, b oracleRecords) bool {
	return slices.EqualFunc(a, b, func(x, y linereader.Seen) bool {
		return x.Rec == y.Rec && x.LineNo == y.LineNo
	})
}

func loadRubyCases(t *testing.T) rubyCases {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "ruby", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rc rubyCases
	if err := json.Unmarshal(data, &rc); err != nil {
		t.Fatal(err)
	}
	if len(rc.Cases) == 0 || rc.RubyVersion == "" {
		t.Fatalf("cases.json: %d cases, Ruby version %q", len(rc.Cases), rc.RubyVersion)
	}
	for i, c := range rc.Cases {
		if len(c.Records) != len(c.LineNos) || len(c.OursRecords) != len(c.OursLineNos) || (c.Ours != "") != (c.OursLineNos != nil) {
			t.Fatalf("case %d is malformed: %+v", i, c)
		}
	}
	return rc
}

// raceEnabled reports whether the test binary was built with -race (see TestRubyOracle).
var raceEnabled = func() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}()

// errAfterData is the error the "error after the data" pattern injects.
var errAfterData = errors.New("injected: error after the data")

// piecesThenError returns its data a few bytes per Read, then (0, err) for ever.
type piecesThenError struct {
	data []byte
	rng  *rand.Rand
	err  error
}

func (p *piecesThenError) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, p.err
	}
	n := copy(b[:min(len(b), 1+p.rng.IntN(3))], p.data)
	p.data = p.data[n:]
	return n, nil
}

// shortReads returns between 0 and 4 bytes per Read, at random: short reads and, now and
// then, an empty read with a nil error, which io.Reader allows.
type shortReads struct {
	r   io.Reader
	rng *rand.Rand
}

func (s *shortReads) Read(b []byte) (int, error) {
	if len(b) == 0 || s.rng.IntN(6) == 0 {
		return 0, nil
	}
	return s.r.Read(b[:min(len(b), 1+s.rng.IntN(4))])
}

// oracleSource is one way of delivering an input to a Reader: it makes a fresh Reader (or,
// for sections, several, read one after the other) and says which error must end it.
type oracleSource struct {
	name string
	// open returns the readers whose records, in order, are the input's; base line numbers
	// are added to each reader's LineNo (sections count from 0 within a section).
	open func(in []byte, opt linereader.Options, seed uint64, file string) []*linereader.Reader
	err  error // the error Err must return at the end; nil for a clean end
	// splittableOnly: only where the options are splittable.
	splittableOnly bool
}

var oracleBufferSizes = []int{1, 2, 3, 7, 16}

func withBuffer(opt linereader.Options, seed uint64) linereader.Options {
	opt.BufferSize = oracleBufferSizes[seed%uint64(len(oracleBufferSizes))]
	return opt
}

func one(r *linereader.Reader) []*linereader.Reader { return []*linereader.Reader{r} }

var oracleSources = []oracleSource{
	{name: "bytes.Reader", open: func(in []byte, opt linereader.Options, seed uint64, _ string) []*linereader.Reader {
		return one(linereader.New(bytes.NewReader(in), withBuffer(opt, seed)))
	}},
	{name: "one byte per read", open: func(in []byte, opt linereader.Options, seed uint64, _ string) []*linereader.Reader {
		return one(linereader.New(iotest.OneByteReader(bytes.NewReader(in)), withBuffer(opt, seed)))
	}},
	{name: "half reads", open: func(in []byte, opt linereader.Options, seed uint64, _ string) []*linereader.Reader {
		return one(linereader.New(iotest.HalfReader(bytes.NewReader(in)), withBuffer(opt, seed)))
	}},
	{name: "data with EOF", open: func(in []byte, opt linereader.Options, seed uint64, _ string) []*linereader.Reader {
		return one(linereader.New(iotest.DataErrReader(bytes.NewReader(in)), withBuffer(opt, seed)))
	}},
	{name: "random short reads", open: func(in []byte, opt linereader.Options, seed uint64, _ string) []*linereader.Reader {
		return one(linereader.New(&shortReads{r: bytes.NewReader(in), rng: rand.New(rand.NewPCG(seed, 1))}, withBuffer(opt, seed)))
	}},
	{name: "error after the data", err: errAfterData, open: func(in []byte, opt linereader.Options, seed uint64, _ string) []*linereader.Reader {
		return one(linereader.New(&piecesThenError{data: in, rng: rand.New(rand.NewPCG(seed, 2)), err: errAfterData}, withBuffer(opt, seed)))
	}},
	// TimeoutReader fails its second Read with ErrTimeout: the first must deliver the whole
	// input, so the buffer is larger than any input here. An empty input ends at EOF first.
	{name: "timeout after the data", err: iotest.ErrTimeout, open: func(in []byte, opt linereader.Options, _ uint64, _ string) []*linereader.Reader {
		opt.BufferSize = 128
		return one(linereader.New(iotest.TimeoutReader(bytes.NewReader(in)), opt))
	}},
	{name: "regular file", open: func(_ []byte, opt linereader.Options, seed uint64, file string) []*linereader.Reader {
		r, err := linereader.Open(file, withBuffer(opt, seed))
		if err != nil {
			panic(err)
		}
		return one(r)
	}},
	{name: "sections at random cuts", splittableOnly: true, open: func(in []byte, opt linereader.Options, seed uint64, _ string) []*linereader.Reader {
		rng := rand.New(rand.NewPCG(seed, 3))
		cuts := []int64{0, int64(len(in))}
		for range rng.IntN(4) {
			cuts = append(cuts, rng.Int64N(int64(len(in))+1))
		}
		sort.Slice(cuts, func(i, j int) bool { return cuts[i] < cuts[j] })
		var rs []*linereader.Reader
		for i := 1; i < len(cuts); i++ {
			rs = append(rs, linereader.NewSection(bytes.NewReader(in), cuts[i-1], cuts[i], withBuffer(opt, seed+uint64(i))))
		}
		return rs
	}},
}

// oracleRun is what one iterator made of one reader: the records with the line number after
// each (LineNo during the loop), the line number after the loop, and Err.
type oracleRun struct {
	recs   oracleRecords
	lineNo int64
	err    error
}

// oracleIterator reads a Reader's records one way. perRecordLineNo: the iterator gives a
// line number per record; runs: the records are runs to be split or joined (Runs).
type oracleIterator struct {
	name            string
	perRecordLineNo bool
	runs            bool
}

var oracleIterators = []oracleIterator{
	{name: "Next", perRecordLineNo: true},
	{name: "Lines", perRecordLineNo: true},
	{name: "Views", perRecordLineNo: true},
	{name: "Batches"},
	{name: "Runs", runs: true, perRecordLineNo: true},
	{name: "Pieces", perRecordLineNo: true},
}

// read reads every record of r with the iterator, the pieces of a record joined.
func (it oracleIterator) read(r *linereader.Reader) (o oracleRun) {
	seen, _ := linereader.ReadAll(r, it.name)
	for _, s := range linereader.Joined(seen) {
		o.recs = append(o.recs, linereader.Seen{Rec: s.Rec, LineNo: s.LineNo})
	}
	return o
}

// iteratorNames are the iterators a caller has, for the summary: Foreach runs on the
// regular file.
func iteratorNames() []string {
	names := map[string]bool{"Foreach": true}
	for _, it := range oracleIterators {
		names[it.name] = true
	}
	return slices.Sorted(maps.Keys(names))
}

// splittable reports whether sections accept opt (see NewSection): a separator that cannot
// overlap itself, and no Paragraph, Whole or Limit.
func splittable(opt linereader.Options) bool {
	return !opt.Paragraph && !opt.Whole && opt.Limit <= 0 && !overlapsItself(opt.Sep)
}

// overlapsItself reports whether a proper suffix of sep is also a prefix of it ("aa", "aba").
func overlapsItself(sep []byte) bool {
	for k := 1; k < len(sep); k++ {
		if bytes.HasPrefix(sep, sep[k:]) {
			return true
		}
	}
	return false
}

// runsSplit reports whether Runs may yield several records at once for opt, so that its
// runs can be split after every separator: see Runs.
func runsSplit(opt linereader.Options) bool {
	return splittable(opt) && !opt.Chomp && opt.MaxRecord == 0
}

// checkRunsSplit checks what Runs yielded where runs of several records are allowed: the
// runs joined, split after every separator (with no Limit every record counts one line),
// must be want, and LineNo during each run must be the line number of the last record that
// the runs so far complete. A run may end inside a record (a long record comes in pieces),
// so runs are never assumed to hold whole records.
func checkRunsSplit(runs, want oracleRecords, sep []byte) string {
	if len(sep) == 0 {
		sep = []byte("\n")
	}
	joined := joinRecords(runs)
	var split oracleRecords
	for rest := joined; len(rest) > 0; {
		n := len(rest)
		if i := bytes.Index(rest, sep); i >= 0 {
			n = i + len(sep)
		}
		split = append(split, linereader.Seen{Rec: string(rest[:n]), LineNo: int64(len(split) + 1)})
		rest = rest[n:]
	}
	if !sameOracleRecords(split, want) {
		return fmt.Sprintf("runs %v split after every separator give %v, want %v", runs, split, want)
	}
	var end, done int // bytes yielded so far; records of want that they complete
	complete := 0     // bytes of those records
	for j, run := range runs {
		end += len(run.Rec)
		for done < len(want) && complete+len(want[done].Rec) <= end {
			complete += len(want[done].Rec)
			done++
		}
		if w := lastLineNo(want[:done]); run.LineNo != w {
			return fmt.Sprintf("runs %v: LineNo %d during run %d, which completes %d records (line %d)", runs, run.LineNo, j, done, w)
		}
	}
	return ""
}

func joinRecords(recs oracleRecords) []byte {
	var b []byte
	for _, r := range recs {
		b = append(b, r.Rec...)
	}
	return b
}

func lastLineNo(recs oracleRecords) int64 {
	if len(recs) == 0 {
		return 0
	}
	return recs[len(recs)-1].LineNo
}

// runIterator reads every reader of one source with it, adding each reader's line numbers
// to the count of the readers before it.
func runIterator(it oracleIterator, rs []*linereader.Reader) oracleRun {
	var all oracleRun
	for _, r := range rs {
		o := it.read(r)
		for i := range o.recs {
			if it.perRecordLineNo {
				o.recs[i].LineNo += all.lineNo
			}
		}
		all.recs = append(all.recs, o.recs...)
		all.lineNo += r.LineNo()
		all.err = errors.Join(all.err, r.Err(), r.Close())
	}
	return all
}

// checkRun compares what it made of one source with want, and returns what differs ("" if
// nothing).
func checkRun(it oracleIterator, got oracleRun, want oracleRecords, opt linereader.Options, wantErr error) string {
	if !errors.Is(got.err, wantErr) || (wantErr == nil && got.err != nil) {
		return fmt.Sprintf("Err %v, want %v", got.err, wantErr)
	}
	if got.lineNo != lastLineNo(want) {
		return fmt.Sprintf("LineNo after the loop %d, want %d", got.lineNo, lastLineNo(want))
	}
	recs := got.recs
	switch {
	case it.runs && runsSplit(opt):
		return checkRunsSplit(recs, want, opt.Sep)
	case it.runs:
		if g, w := joinRecords(recs), joinRecords(want); !bytes.Equal(g, w) {
			return fmt.Sprintf("runs joined %q, want %q", g, w)
		}
		return ""
	}
	if it.perRecordLineNo {
		if !sameOracleRecords(recs, want) {
			return fmt.Sprintf("records %v, want %v", recs, want)
		}
		return ""
	}
	if !slices.EqualFunc(recs, want, func(a, b linereader.Seen) bool { return a.Rec == b.Rec }) {
		return fmt.Sprintf("records %v, want %v (line numbers not compared)", recs, want)
	}
	return ""
}

func TestRubyOracle(t *testing.T) {
	rc := loadRubyCases(t)
	o := &oracleCheck{t: t, file: filepath.Join(t.TempDir(), "case"), ran: map[string]int{}}
	for i, c := range rc.Cases {
		o.runCase(i, c, rc.Inputs[c.Input])
	}
	o.checkCoverage(rc)
	t.Logf("ruby oracle: %d cases, %d compared, %d deliberate differences asserted, 0 skipped, %d iterators x %d read patterns",
		len(rc.Cases), o.compared, o.deliberate, len(iteratorNames()), len(oracleSources))
}

// oracleCheck is TestRubyOracle's state: what ran, and the failures so far.
type oracleCheck struct {
	t                              *testing.T
	file                           string         // the regular file each case is written to
	ran                            map[string]int // "iterator/source" -> cases
	compared, deliberate, failures int
}

func (o *oracleCheck) fail(format string, a ...any) {
	o.t.Helper()
	o.t.Errorf(format, a...)
	if o.failures++; o.failures >= 10 {
		o.t.Fatal("stopping after 10 failures")
	}
}

// runCase runs case i through every iterator under every read pattern that applies to
// it (under the race detector, each iterator under one pattern that rotates with the
// case), and through Foreach.
func (o *oracleCheck) runCase(i int, c rubyCase, in []byte) {
	opt, want := c.options(), c.want()
	if c.Ours != "" {
		o.deliberate++
		if !slices.Contains(rubyDifferences, c.Ours) {
			o.fail("case %d: deliberate difference %q is not one this test knows", i, c.Ours)
		}
		if sameOracleRecords(c.ruby(), want) {
			o.fail("case %d: marked %q, but Ruby yields exactly our records %v", i, c.Ours, want)
		}
	} else {
		o.compared++
	}
	if err := os.WriteFile(o.file, in, 0o644); err != nil {
		o.t.Fatal(err)
	}
	describe := func(path string) string {
		s := fmt.Sprintf("case %d (input %q, %+v) via %s", i, in, opt, path)
		if c.Ours != "" {
			s += fmt.Sprintf(", deliberate difference %s (Ruby yields %v)", c.Ours, c.ruby())
		}
		return s
	}
	var sources []int // the read patterns that apply to this case
	for si, src := range oracleSources {
		if !src.splittableOnly || splittable(opt) {
			sources = append(sources, si)
		}
	}
	for _, si := range sources {
		src := oracleSources[si]
		for ii, it := range oracleIterators {
			if raceEnabled && sources[(i+ii)%len(sources)] != si {
				continue
			}
			got := runIterator(it, src.open(in, opt, uint64(i*131+si*17+ii), o.file))
			wantErr := src.err
			if src.name == "timeout after the data" && len(in) == 0 {
				wantErr = nil
			}
			if diff := checkRun(it, got, want, opt, wantErr); diff != "" {
				o.fail("%s: %s", describe(it.name+" over "+src.name), diff)
			}
			o.ran[it.name+"/"+src.name]++
		}
	}
	var got oracleRecords
	err := linereader.Foreach(o.file, withBuffer(opt, uint64(i)), func(line []byte) error {
		got = append(got, linereader.Seen{Rec: string(line)})
		return nil
	})
	if diff := checkRun(oracleIterator{name: "Foreach"}, oracleRun{recs: got, lineNo: lastLineNo(want), err: err}, want, opt, nil); diff != "" {
		o.fail("%s: %s", describe("Foreach"), diff)
	}
	o.ran["Foreach/regular file"]++
}

// checkCoverage checks that every case ran every path that applies to it: every
// iterator under every read pattern (sections only where splittable), and Foreach; under
// the race detector every iterator once per case, and every iterator under every read
// pattern on some cases.
func (o *oracleCheck) checkCoverage(rc rubyCases) {
	t := o.t
	patterns := map[string]bool{}
	perIterator := map[string]int{}
	for key, n := range o.ran {
		it, src, _ := strings.Cut(key, "/")
		patterns[src] = true
		perIterator[it] += n
		full := len(rc.Cases)
		if it != "Foreach" && src == "sections at random cuts" {
			full = 0
			for _, c := range rc.Cases {
				if splittable(c.options()) {
					full++
				}
			}
		}
		if raceEnabled && n == 0 || !raceEnabled && n != full {
			t.Errorf("%s ran %d times, want %d", key, n, full)
		}
	}
	if len(patterns) != len(oracleSources) || len(o.ran) != (len(iteratorNames())-1)*len(oracleSources)+1 {
		t.Errorf("%d read patterns and %d iterator-pattern pairs ran, want %d and %d", len(patterns), len(o.ran),
			len(oracleSources), (len(iteratorNames())-1)*len(oracleSources)+1)
	}
	if raceEnabled {
		for it, n := range perIterator {
			if n != len(rc.Cases) {
				t.Errorf("under -race %s ran %d times, want once per case (%d)", it, n, len(rc.Cases))
			}
		}
	}
}

// The reference splitter (reference_test.go) agrees with every case: with Ruby where we do
// not deliberately differ, with our stored records where we do.
func TestReferenceAgreesWithRuby(t *testing.T) {
	rc := loadRubyCases(t)
	failures := 0
	for i, c := range rc.Cases {
		in := rc.Inputs[c.Input]
		got := oracleRecords(refSplit(in, c.options()))
		if want := c.want(); !sameOracleRecords(got, want) {
			t.Errorf("case %d: input %q options %+v (difference %q): want %v, reference %v", i, in, c.options(), c.Ours, want, got)
			if failures++; failures >= 10 {
				t.Fatal("stopping after 10 failures")
			}
		}
	}
}

// The deliberate differences in cases.json are exactly the ones this test knows, each is
// explained in docs/semantics.md under a heading naming its id, and each is met by at least
// one case, so none is listed without evidence.
func TestRubyDeliberateDifferencesDocumented(t *testing.T) {
	rc := loadRubyCases(t)
	if got := slices.Sorted(maps.Keys(rc.Differences)); !slices.Equal(got, slices.Sorted(slices.Values(rubyDifferences))) {
		t.Fatalf("cases.json lists differences %q, this test knows %q", got, rubyDifferences)
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "semantics.md"))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]int{}
	for _, c := range rc.Cases {
		if c.Ours != "" {
			cases[c.Ours]++
		}
	}
	for _, id := range rubyDifferences {
		if !bytes.Contains(doc, []byte("(`"+id+"`)")) {
			t.Errorf("docs/semantics.md has no heading naming (`%s`)", id)
		}
		if cases[id] == 0 {
			t.Errorf("no case shows the difference %s", id)
		}
	}
}

// Every example of docs/semantics.md, as the document states it: the records, and the line
// numbers and offsets where it gives them. A change to the rules that the document does not
// follow fails here.
// semanticsDocExamples are the examples of docs/semantics.md, each with the records the
// document says it yields; a line number or offset of -1 is one the document does not state.
var semanticsDocExamples = []struct {
	in   string
	opt  linereader.Options
	want []linereader.Seen
}{
	{"a\nb", linereader.Options{}, []linereader.Seen{doc("a\n"), doc("b")}},
	{"", linereader.Options{}, nil},
	{"\n\n\n", linereader.Options{}, []linereader.Seen{doc("\n"), doc("\n"), doc("\n")}},
	{"a<>b<>c", sepOf("<>"), []linereader.Seen{doc("a<>"), doc("b<>"), doc("c")}},
	{"aaaaa", sepOf("aa"), []linereader.Seen{doc("aa"), doc("aa"), doc("a")}},
	{"ababababa", sepOf("aba"), []linereader.Seen{doc("aba"), doc("baba"), doc("ba")}},
	{"\n\none\ntwo\n\n\n\nthree\n", linereader.Options{Paragraph: true}, []linereader.Seen{{Rec: "one\ntwo\n\n", LineNo: -1, Off: 2}, {Rec: "three\n", LineNo: -1, Off: 13}}},
	{"a\r\n\r\nb", linereader.Options{Paragraph: true}, []linereader.Seen{doc("a\r\n\r\nb")}},
	{"\n\n\n", linereader.Options{Paragraph: true}, nil},
	{"a\nb", linereader.Options{Whole: true}, []linereader.Seen{doc("a\nb")}},
	{"abcdefg", linereader.Options{Whole: true, Limit: 3}, []linereader.Seen{doc("abc"), doc("def"), doc("g")}},
	{"a\r\nb\nc\r", linereader.Options{Chomp: true}, []linereader.Seen{doc("a"), doc("b"), doc("c\r")}},
	{"x\r\r\n", linereader.Options{Chomp: true}, []linereader.Seen{doc("x\r")}},
	{"a\r\nb\n", linereader.Options{Sep: []byte("\r\n"), Chomp: true}, []linereader.Seen{doc("a"), doc("b\n")}},
	{"\n\none\ntwo\n\n\n\nthree\n", linereader.Options{Paragraph: true, Chomp: true}, []linereader.Seen{doc("one\ntwo"), doc("three\n")}},
	{"a\nb\n", linereader.Options{Whole: true, Chomp: true}, []linereader.Seen{doc("a\nb\n")}},
	{"abcdef\nxy\n", linereader.Options{Limit: 4}, []linereader.Seen{{Rec: "abcd", LineNo: 0, Off: -1}, {Rec: "ef\n", LineNo: 1, Off: -1}, {Rec: "xy\n", LineNo: 2, Off: -1}}},
	{"xab", linereader.Options{Sep: []byte("ab"), Limit: 3}, []linereader.Seen{{Rec: "xab", LineNo: 1, Off: -1}}},
	{"xxabyyab", linereader.Options{Sep: []byte("ab"), Limit: 3}, []linereader.Seen{doc("xxa"), doc("byy"), doc("ab")}},
	{"a\xE3\x81\x82bcd", linereader.Options{Limit: 2, UTF8: true}, []linereader.Seen{doc("a\xE3\x81\x82"), doc("bc"), doc("d")}},
	{"a\xE3\x81\x82bcd", linereader.Options{Limit: 2}, []linereader.Seen{doc("a\xE3"), doc("\x81\x82"), doc("bc"), doc("d")}},
	{"a\xE3\x81bcd", linereader.Options{Limit: 2, UTF8: true}, []linereader.Seen{doc("a\xE3\x81b"), doc("cd")}},
	{"a\xFFbc", linereader.Options{Limit: 2, UTF8: true}, []linereader.Seen{doc("a\xFF"), doc("bc")}},
	{"a\xE3\n", linereader.Options{Limit: 2, UTF8: true}, []linereader.Seen{{Rec: "a\xE3\n", LineNo: 1, Off: -1}}},
	{"a\xE3\n", linereader.Options{Limit: 2, UTF8: true, Chomp: true}, []linereader.Seen{{Rec: "a\xE3", LineNo: 1, Off: -1}}},
	{"abc", linereader.Options{Limit: 3}, []linereader.Seen{{Rec: "abc", LineNo: 0, Off: -1}}},
	{"abc", linereader.Options{Limit: 4}, []linereader.Seen{{Rec: "abc", LineNo: 1, Off: -1}}},
	// The deliberate differences' examples: ours.
	{"ab\xFFcd\ne", linereader.Options{Whole: true, Limit: 2}, []linereader.Seen{doc("ab"), doc("\xFFc"), doc("d\n"), doc("e")}},
	{"\n", linereader.Options{Sep: []byte("\r\n"), Limit: 1}, []linereader.Seen{{Rec: "\n", LineNo: 0, Off: -1}}},
	{"\xE3\x81\x82\xE3\x81\x82\n\xE3\x81\x82", linereader.Options{Paragraph: true, Limit: 7, UTF8: true}, []linereader.Seen{doc("\xE3\x81\x82\xE3\x81\x82\n"), doc("\xE3\x81\x82")}},
	{"a\r\x81b\xE3", linereader.Options{Limit: 1, UTF8: true}, []linereader.Seen{doc("a"), doc("\r"), doc("\x81"), doc("b"), {Rec: "\xE3", LineNo: 0, Off: -1}}},
}

func doc(data string) linereader.Seen { return linereader.Seen{Rec: data, LineNo: -1, Off: -1} }

func sepOf(s string) linereader.Options { return linereader.Options{Sep: []byte(s)} }

func TestSemanticsDocExamples(t *testing.T) {
	for _, tc := range semanticsDocExamples {
		got, err := linereader.ReadAll(linereader.New(strings.NewReader(tc.in), tc.opt), "Next")
		if err != nil {
			t.Errorf("%q %+v: %v", tc.in, tc.opt, err)
			continue
		}
		ok := len(got) == len(tc.want)
		for i := 0; ok && i < len(got); i++ {
			w := tc.want[i]
			ok = got[i].Rec == w.Rec && (w.LineNo < 0 || got[i].LineNo == w.LineNo) && (w.Off < 0 || got[i].Off == w.Off)
		}
		if !ok {
			t.Errorf("%q %+v: got %+v, the document says %+v (line number or offset -1: not stated)", tc.in, tc.opt, got, tc.want)
		}
	}
}
