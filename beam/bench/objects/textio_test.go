package objects

// foreachio and Beam's own textio side by side on the same fake stores: the pipelines run
// on Prism in this process (ptest's default runner, loopback workers), so the servers'
// counters, taken before and after a run, count what that run's readers pulled.
//
// textio reads s3:// and gs:// through Beam's own filesystems (io/filesystem/s3 and
// io/filesystem/gcs), unchanged: fakestore points aws-sdk-go-v2's default chain and
// cloud.google.com/go/storage at the servers through the environment (AWS_ENDPOINT_URL,
// STORAGE_EMULATOR_HOST), and Beam's filesystems build their clients from those defaults.
// foreachio reads them through beam/objstore, configured by the same environment.

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/beam/internal/fakestore"
	"github.com/foreachio/foreach/linereader"
)

func TestMain(m *testing.M) {
	ptest.Main(m)
}

// countTextioLogs puts textioLogCounter in front of the log handler beam.Init set up (in
// ptest.Main), once.
var countTextioLogs = sync.OnceFunc(func() {
	next := slog.Default().Handler()
	if !testing.Verbose() {
		next = slog.DiscardHandler // Prism logs every job
	}
	slog.SetDefault(slog.New(textioLogCounter{next}))
})

// textioRestrictions counts textio's "Reading from" log lines, which it writes once for
// every restriction it processes (each a GET of the object from byte 0): Prism passes the
// workers' log lines to this process's slog.
var textioRestrictions atomic.Int64

// textioLogCounter counts textio's log lines and passes every line on to next.
type textioLogCounter struct{ next slog.Handler }

func (h textioLogCounter) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelInfo || h.next.Enabled(ctx, l)
}

func (h textioLogCounter) Handle(ctx context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "Reading from ") {
		textioRestrictions.Add(1)
	}
	if !h.next.Enabled(ctx, r.Level) {
		return nil
	}
	return h.next.Handle(ctx, r)
}

func (h textioLogCounter) WithAttrs(as []slog.Attr) slog.Handler {
	return textioLogCounter{h.next.WithAttrs(as)}
}

func (h textioLogCounter) WithGroup(name string) slog.Handler {
	return textioLogCounter{h.next.WithGroup(name)}
}

func init() {
	register.Combiner3[int64, string, int64](&countLinesFn{})
	register.DoFn1x0[int64](&storeCountFn{})
}

// countLinesFn counts the elements of a PCollection<string>. The combine is lifted: each
// worker counts what it reads before anything is shuffled.
type countLinesFn struct{}

func (*countLinesFn) CreateAccumulator() int64           { return 0 }
func (*countLinesFn) AddInput(n int64, _ string) int64   { return n + 1 }
func (*countLinesFn) MergeAccumulators(a, b int64) int64 { return a + b }
func (*countLinesFn) ExtractOutput(n int64) int64        { return n }

// counts holds each pipeline's result by its run's ID: the workers run in this process.
var counts sync.Map

// storeCountFn keeps the count a pipeline ends with, under the run's ID.
type storeCountFn struct{ ID string }

func (f *storeCountFn) ProcessElement(n int64) { counts.Store(f.ID, n) }

// A reader is one contender: it adds to s the reading of uri in sections of sectionSize
// bytes (where it lets that be chosen) and returns a PCollection<int64> of one element,
// the number of records.
type reader struct {
	id    string
	title string
	// sized contenders cut the object as asked; the others (textio) by their own rules.
	sized bool
	build func(s beam.Scope, uri string, sectionSize int64) beam.PCollection
}

var readers = []reader{
	{id: "textio", title: "textio.Read → count", build: func(s beam.Scope, uri string, _ int64) beam.PCollection {
		return beam.Combine(s, &countLinesFn{}, textio.Read(s, uri))
	}},
	{id: "count", title: "foreachio.CountRecords", sized: true, build: func(s beam.Scope, uri string, size int64) beam.PCollection {
		files := fileio.ReadMatches(s, foreachio.MatchFiles(s, uri))
		perFile := foreachio.CountRecords(s, files, linereader.Options{}, foreachio.WithSectionSize(size))
		return stats.Sum(s, beam.DropKey(s, perFile))
	}},
	{id: "records", title: "foreachio.ReadRecords → count", sized: true, build: func(s beam.Scope, uri string, size int64) beam.PCollection {
		files := fileio.ReadMatches(s, foreachio.MatchFiles(s, uri))
		return beam.Combine(s, &countLinesFn{}, foreachio.ReadRecords(s, files, linereader.Options{}, foreachio.WithSectionSize(size)))
	}},
}

// runCount runs one reader over uri and returns the number of records it delivered.
func runCount(r reader, uri string, sectionSize int64) (int64, error) {
	countTextioLogs()
	id := fmt.Sprintf("%s %s %d", r.id, uri, sectionSize)
	counts.Delete(id)
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, &storeCountFn{ID: id}, r.build(s, uri, sectionSize))
	if err := ptest.Run(p); err != nil {
		return 0, err
	}
	n, ok := counts.Load(id)
	if !ok {
		return 0, nil // nothing read: no element reached the count
	}
	return n.(int64), nil
}

// lfCount is the number of records of data by the LF rule: its "\n"s, and one more for a
// last line without one.
func lfCount(data []byte) int64 {
	n := int64(bytes.Count(data, []byte("\n")))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// Every reader counts the records of small objects exactly on both stores, textio through
// Beam's own S3 and GCS filesystems pointed at the fakes: what the comparison of
// beam/bench/objstore-compare.sh relies on.
func TestTextioAndForeachioCountTheSameObjects(t *testing.T) {
	objects := map[string][]byte{
		"lines.txt":   []byte("one\ntwo\n\nthree\n"),
		"nofinal.txt": []byte("a\nb\nc"),
		"crlf.txt":    []byte("a\r\nb\r\n\r\nlast"),
		"empty.txt":   nil,
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(textOf(3000, 7))
	zw.Close()
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		s := start(t)
		s.Bucket(t, "b")
		for name, data := range objects {
			checkCounts(t, s, s.Put(t, "b", name, data), lfCount(data), 4)
		}
		checkGzip(t, s, s.Put(t, "b", "small.log.gz", gz.Bytes()), textOf(3000, 7), int64(gz.Len()))
		big := textOf(5000, 8)
		checkCounts(t, s, s.Put(t, "b", "sections.log", big), lfCount(big), int64(len(big)/5+1))
	}
}

func checkCounts(t *testing.T, s *fakestore.Server, uri string, want, sectionSize int64) {
	t.Helper()
	for _, r := range readers {
		reads := s.Reads.Load()
		got, err := runCount(r, uri, sectionSize)
		if err != nil {
			t.Fatalf("%s over %s: %v", r.title, uri, err)
		}
		if got != want {
			t.Errorf("%s over %s: %d records, want %d", r.title, uri, got, want)
		}
		if want > 0 && s.Reads.Load() == reads {
			t.Errorf("%s over %s: the server saw no read of the object", r.title, uri)
		}
	}
}

// textio splits a .gz object by its compressed size and reads each split's range of
// offsets in the decompressed text: it delivers the records that start before the
// compressed size and drops the rest (Beam Go SDK v2.77.0). foreachio reads it whole.
func checkGzip(t *testing.T, s *fakestore.Server, uri string, text []byte, compressed int64) {
	t.Helper()
	for _, r := range readers {
		want := lfCount(text)
		if r.id == "textio" {
			want = 1 + int64(bytes.Count(text[:compressed-1], []byte("\n"))) // the records starting before offset compressed
		}
		got, err := runCount(r, uri, 0)
		if err != nil {
			t.Fatalf("%s over %s: %v", r.title, uri, err)
		}
		if got != want {
			t.Errorf("%s over %s: %d records, want %d (of %d)", r.title, uri, got, want, lfCount(text))
		}
	}
}

// textOf is n lines of words from a vocabulary made from seed (the last line without its
// newline when n is odd): text that gzip compresses about as much as logs.
func textOf(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	words := make([]string, 4096)
	for i := range words {
		w := make([]byte, 2+rng.IntN(9))
		for j := range w {
			w[j] = byte('a' + rng.IntN(26))
		}
		words[i] = string(w)
	}
	var b bytes.Buffer
	for i := range n {
		for j := range rng.IntN(30) {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		if i < n-1 || n%2 == 0 {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
