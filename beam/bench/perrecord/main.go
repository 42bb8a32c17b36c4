// Command perrecord is foreach-beam's job written the way one would write it with textio:
// every record becomes an element (foreachio.ReadRecordsWithPosition) and the counting
// happens downstream. beam/bench.sh times it against foreach-beam, which counts inside
// each section, to show what making every record an element costs.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/linereader"
)

func init() {
	register.Function2x0(fileOf)
	register.Function2x0(wordsOf)
	register.Function2x0(report)
	register.Function2x1(toWordCount)
	register.Function2x1(lessWordCount)
	register.Function1x0(printTop)
	register.Emitter2[string, int64]()
}

func fileOf(r foreachio.Record, emit func(string, int64)) { emit(r.File, 1) }

func wordsOf(r foreachio.Record, emit func(string, int64)) {
	for w := range strings.FieldsSeq(r.Text) {
		emit(w, 1)
	}
}

// report prints each file's count: there are few, and printing them keeps the runner from
// pruning the branch.
func report(path string, n int64) { fmt.Printf("%s\t%d\n", path, n) }

type wordCount struct {
	Word string
	N    int64
}

func toWordCount(w string, n int64) wordCount { return wordCount{w, n} }

func lessWordCount(a, b wordCount) bool {
	if a.N != b.N {
		return a.N < b.N
	}
	return a.Word > b.Word
}

func printTop(top []wordCount) {
	for _, wc := range top {
		fmt.Printf("%s\t%d\n", wc.Word, wc.N)
	}
}

func main() {
	input := flag.String("input", "", "GLOB of the files to read")
	flag.Parse()
	beam.Init()
	slog.SetDefault(slog.New(slog.DiscardHandler))

	p, s := beam.NewPipelineWithRoot()
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, *input))
	records := foreachio.ReadRecordsWithPosition(s, files, linereader.Options{})
	beam.ParDo0(s, report, stats.SumPerKey(s, beam.ParDo(s, fileOf, records)))
	words := beam.ParDo(s, toWordCount, stats.SumPerKey(s, beam.ParDo(s, wordsOf, records)))
	beam.ParDo0(s, printTop, top.Largest(s, words, 10, lessWordCount)) // as foreach-beam's report
	if err := beamx.Run(context.Background(), p); err != nil {
		fmt.Fprintln(os.Stderr, "perrecord:", err)
		os.Exit(1)
	}
}
