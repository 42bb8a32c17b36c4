package objects

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foreachio/foreach/beam/internal/fakestore"
)

// TestVsTextio is the comparison of beam/bench/objstore-compare.sh, run only when asked
// for with -vs.out: a plain object of -vs.mib MiB and its gzip, on the fake S3 and GCS
// servers, read by every reader (foreachio's in 4 and in 16 sections, textio by its own
// rules) in -vs.rounds rounds that alternate the order of the runs.
var (
	vsOut    = flag.String("vs.out", "", "run TestVsTextio and write its tables, as Markdown, to `FILE`")
	vsRounds = flag.Int("vs.rounds", 3, "rounds of TestVsTextio (every run once a round, in reverse order every other round)")
	vsMiB    = flag.Int("vs.mib", 200, "the size of TestVsTextio's plain object, in MiB")
)

// vsSections are the numbers of sections foreachio is asked to cut the plain object into.
var vsSections = []int{4, 16}

// vsRun is one run of the comparison: a reader over one object of one store.
type vsRun struct {
	store    *fakestore.Server
	object   *vsObject
	reader   reader
	sections int // asked of a sized reader over a plain object; 0: the reader's own rules
}

// vsObject is an object of the comparison, put on every store under the same key.
type vsObject struct {
	name    string // "plain" or "gzip"
	key     string
	data    []byte // the object's bytes as stored
	records int64  // of its text, decompressed
}

// vsCost is what one run delivered and cost.
type vsCost struct {
	records int64
	err     error
	sent    int64 // bytes of response bodies the server sent
	reads   int64 // GETs of the object's bytes
	ranged  int64 // requests with a Range header
	textio  int64 // restrictions textio processed, by its log lines
	wall    time.Duration
	cpu     time.Duration // the whole process's: Prism, the workers and both servers
}

func (r vsRun) key() string {
	return fmt.Sprintf("%s %s %s %d", r.store.Scheme, r.object.name, r.reader.id, r.sections)
}

func (r vsRun) measure(t *testing.T) vsCost {
	runtime.GC()
	s := r.store
	sent, reads, ranged, restrictions := s.Sent.Load(), s.Reads.Load(), s.Ranged.Load(), textioRestrictions.Load()
	sectionSize := int64(0)
	if r.sections > 0 {
		sectionSize = (int64(len(r.object.data)) + int64(r.sections) - 1) / int64(r.sections)
	}
	cpu, start := cpuTime(), time.Now()
	n, err := runCount(r.reader, s.Scheme+"://b/"+r.object.key, sectionSize)
	return vsCost{
		records: n, err: err,
		wall: time.Since(start), cpu: cpuTime() - cpu,
		sent: s.Sent.Load() - sent, reads: s.Reads.Load() - reads, ranged: s.Ranged.Load() - ranged,
		textio: textioRestrictions.Load() - restrictions,
	}
}

func TestVsTextio(t *testing.T) {
	if *vsOut == "" {
		t.Skip("the comparison runs with -vs.out FILE (beam/bench/objstore-compare.sh)")
	}
	objects := vsObjects(int64(*vsMiB) << 20)
	var runs []vsRun
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		s := start(t)
		s.Bucket(t, "b")
		for _, o := range objects {
			s.Put(t, "b", o.key, o.data)
			for _, r := range readers {
				if !r.sized || o.name == "gzip" {
					runs = append(runs, vsRun{store: s, object: o, reader: r})
					continue
				}
				for _, k := range vsSections {
					runs = append(runs, vsRun{store: s, object: o, reader: r, sections: k})
				}
			}
		}
	}
	// The first pipeline of a process pays for starting Prism: a small one, not measured.
	runs[0].store.Put(t, "b", "warm-up.log", textOf(1000, 9))
	for _, r := range readers {
		if _, err := runCount(r, runs[0].store.Scheme+"://b/warm-up.log", 0); err != nil {
			t.Fatal(err)
		}
	}
	costs := make(map[string][]vsCost)
	for round := range *vsRounds {
		order := slices.Clone(runs)
		if round%2 == 1 {
			slices.Reverse(order)
		}
		for _, r := range order {
			c := r.measure(t)
			t.Logf("round %d: %s: %d records, %v, %d bytes sent, %d GETs, %d textio restrictions, wall %v, CPU %v", round+1, r.key(), c.records, c.err, c.sent, c.reads, c.textio, c.wall, c.cpu)
			costs[r.key()] = append(costs[r.key()], c)
		}
	}
	var out bytes.Buffer
	writeVsTables(&out, runs, costs)
	if err := os.WriteFile(*vsOut, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// vsObjects are the plain object of size bytes (rounded up to a whole line) and its gzip.
func vsObjects(size int64) []*vsObject {
	var text bytes.Buffer
	for seed := uint64(1); int64(text.Len()) < size; seed++ {
		text.Write(textOf(100_000, seed)) // an even number of lines: each ends in "\n"
	}
	plain := text.Bytes()
	plain = plain[:size+int64(bytes.IndexByte(plain[size-1:], '\n'))]
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	n := lfCount(plain)
	return []*vsObject{
		{name: "plain", key: "big.log", data: plain, records: n},
		{name: "gzip", key: "big.log.gz", data: gz.Bytes(), records: n},
	}
}

// textioExpected is what textio should pull for a plain object of size bytes, as a
// multiple of the size: its rule (Beam Go SDK v2.77.0) cuts the object into 64 MiB blocks,
// the last one merged into the one before when it is 16 MiB or less, and reads each block
// from byte 0 to its end (and the rest of the line there).
func textioExpected(size int64) (blocks int, ratio float64) {
	const block = 64 << 20
	var ends []int64
	for end := int64(block); end < size; end += block {
		ends = append(ends, end)
	}
	ends = append(ends, size)
	if len(ends) > 1 && size-ends[len(ends)-2] <= block/4 {
		ends = slices.Delete(ends, len(ends)-2, len(ends)-1)
	}
	var sum int64
	for _, e := range ends {
		sum += e
	}
	return len(ends), float64(sum) / float64(size)
}

func writeVsTables(w io.Writer, runs []vsRun, costs map[string][]vsCost) {
	for i, r := range runs {
		if i == 0 || r.store != runs[i-1].store || r.object != runs[i-1].object {
			writeVsHeader(w, r)
		}
		textio := median(costs[vsRun{store: r.store, object: r.object, reader: readers[0]}.key()])
		c := median(costs[r.key()])
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %.2f | %.2f | %.2f× | %.2f× |\n",
			r.reader.title, sectionsLabel(r), recordsLabel(r, costs[r.key()]),
			spread(costs[r.key()], func(c vsCost) string { return fmt.Sprintf("%.1f", float64(c.sent)/1e6) }),
			spread(costs[r.key()], func(c vsCost) string { return fmt.Sprintf("%.3f", float64(c.sent)/float64(len(r.object.data))) }),
			expectedLabel(r),
			spread(costs[r.key()], func(c vsCost) string { return gets(r, c) }),
			c.wall.Seconds(), c.cpu.Seconds(), c.wall.Seconds()/textio.wall.Seconds(), c.cpu.Seconds()/textio.cpu.Seconds())
	}
}

func writeVsHeader(w io.Writer, r vsRun) {
	what := fmt.Sprintf("%.1f MB of text", float64(len(r.object.data))/1e6)
	if r.object.name == "gzip" {
		what = fmt.Sprintf("%.1f MB, the gzip of the plain object", float64(len(r.object.data))/1e6)
	}
	store := map[string]string{"s3": "S3 (gofakes3)", "gs": "GCS (fake-gcs-server)"}[r.store.Scheme]
	fmt.Fprintf(w, "\n**%s, %s** (`%s`, %s, %d records)\n\n", store, r.object.name, r.object.key, what, r.object.records)
	fmt.Fprintln(w, "| reader | sections | records | sent MB | sent ÷ object | expected ÷ object | GETs (ranged) | wall s | CPU s | wall ÷ textio | CPU ÷ textio |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
}

// gets is a run's GETs of the object, with how many had a Range header, and for textio
// the number of restrictions it processed.
func gets(r vsRun, c vsCost) string {
	if r.reader.sized {
		return fmt.Sprintf("%d (%d)", c.reads, c.ranged)
	}
	return fmt.Sprintf("%d (%d) for %d restrictions", c.reads, c.ranged, c.textio)
}

func sectionsLabel(r vsRun) string {
	blocks, _ := textioExpected(int64(len(r.object.data)))
	switch {
	case r.reader.sized && r.object.name == "gzip":
		return "1 (read whole)"
	case r.sections > 0:
		return fmt.Sprint(r.sections)
	case r.object.name == "gzip":
		return fmt.Sprintf("%d (its 64 MiB rule, on the compressed size)", blocks)
	}
	return fmt.Sprintf("%d (its 64 MiB rule)", blocks)
}

func expectedLabel(r vsRun) string {
	size := float64(len(r.object.data))
	switch {
	case r.reader.sized && r.object.name == "gzip":
		return "1"
	case r.object.name == "gzip":
		return "—"
	case r.sections > 0:
		return fmt.Sprintf("≤ %.3f", (1.05*size+float64(r.sections)*(1<<20))/size)
	}
	_, ratio := textioExpected(int64(len(r.object.data)))
	return fmt.Sprintf("%.3f", ratio)
}

func recordsLabel(r vsRun, cs []vsCost) string {
	var labels []string
	for _, c := range cs {
		switch {
		case c.err != nil:
			labels = append(labels, "failed: "+strings.ReplaceAll(c.err.Error(), "|", "/"))
		case c.records == r.object.records:
			labels = append(labels, "exact")
		default:
			labels = append(labels, fmt.Sprintf("wrong: %d", c.records))
		}
	}
	return strings.Join(slices.Compact(labels), ", ")
}

// spread is the runs' values of f, one if they agree, else each in its round's order.
func spread(cs []vsCost, f func(vsCost) string) string {
	var vs []string
	for _, c := range cs {
		vs = append(vs, f(c))
	}
	return strings.Join(slices.Compact(vs), ", ")
}

// median is the runs' median wall and CPU time (the lower of the middle two).
func median(cs []vsCost) vsCost {
	walls := make([]time.Duration, len(cs))
	cpus := make([]time.Duration, len(cs))
	for i, c := range cs {
		walls[i], cpus[i] = c.wall, c.cpu
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	return vsCost{wall: walls[(len(cs)-1)/2], cpu: cpus[(len(cs)-1)/2]}
}
