package linereader

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"testing"
)

// The test helpers of the package, in one place. Tests in package linereader_test reach
// the exported ones (Seen, Current, Iterators, ReadAll, ReadAtMost, ReadSteps, Texts,
// Joined, RandomInput, RandomOver, Gzipped) like export_test.go hooks.

// Seen is one record as a test sees it: its bytes, LineNo after it, Offset (where it
// starts), and Partial. A record from the middle of a batch has LineNo, Offset and
// Partial unobserved (zero): during a Batches loop they describe its last record only.
// The reference splitter's records and the Ruby oracle's (which has no offsets: zero) are
// Seen too.
type Seen struct {
	Rec     string
	LineNo  int64
	Off     int64
	Partial bool
}

// String renders s for failure messages: the bytes quoted, so that separators show.
func (s Seen) String() string {
	p := ""
	if s.Partial {
		p = " partial"
	}
	return fmt.Sprintf("{%q line=%d off=%d%s}", s.Rec, s.LineNo, s.Off, p)
}

// Current is the current record as the accessors describe it: Bytes, LineNo, Offset and
// Partial.
func Current(r *Reader) Seen { return seenAt(r, r.Bytes()) }

func seenAt(r *Reader, rec []byte) Seen {
	return Seen{string(rec), r.LineNo(), r.Offset(), r.Partial()}
}

// Iterators are the ways a caller reads records, by the names ReadAll takes.
var Iterators = []string{"Next", "Lines", "Views", "Batches", "Pieces", "Runs"}

// ReadAll reads every remaining record of r with the named iterator and returns what it
// saw, then r.Err(). It checks what every iterator promises of the slices it yields; a
// violation panics, failing the test that called it: no record is nil (an empty record
// is an empty slice), Lines records are exact-size and Batches records capacity-capped,
// no batch is empty, and the records of Lines and Batches, which are the caller's, are
// unchanged at the end of the loop by the reads after them.
func ReadAll(r *Reader, how string) ([]Seen, error) { return ReadSteps(r, how, nil) }

// ReadAtMost is ReadAll giving up after limit records: with more, it returns those read
// so far and an error, so that an engine yielding records forever fails the test
// instead of hanging it.
func ReadAtMost(r *Reader, how string, limit int) ([]Seen, error) {
	n := 0
	got, err := ReadSteps(r, how, func(recs [][]byte) bool { n += len(recs); return n <= limit })
	if n > limit {
		return got, fmt.Errorf("runaway: more than %d records", limit)
	}
	return got, err
}

// ReadSteps is ReadAll with a loop body: step, when not nil, is called inside the loop
// once the records of one step are recorded, with the slices that step yielded (one
// record, piece or run; for Batches the whole batch; the slice of slices is reused after
// the call, the records are the iterator's), and a false from it breaks the loop. A loop
// nested in step, on r, takes the records after the step's.
func ReadSteps(r *Reader, how string, step func(recs [][]byte) bool) ([]Seen, error) {
	var got []Seen
	var owned [][]byte // the records of Lines and Batches, checked at the end
	one := make([][]byte, 1)
	take := func(recs [][]byte) bool {
		for _, rec := range recs {
			checkYielded(how, rec)
			got = append(got, seenAt(r, rec))
			if how == "Lines" || how == "Batches" {
				owned = append(owned, rec)
			}
		}
		return step == nil || step(recs)
	}
	switch how {
	case "Next":
		for r.Next() {
			if one[0] = r.Bytes(); !take(one) {
				break
			}
		}
	case "Batches":
		for batch := range r.Batches() {
			if len(batch) == 0 {
				panic("empty batch")
			}
			n := len(got)
			more := take(batch)
			for i := n; i < len(got)-1; i++ {
				got[i].LineNo, got[i].Off, got[i].Partial = 0, 0, false // unobserved mid-batch
			}
			if !more {
				break
			}
		}
	default:
		for rec := range records(r, how) {
			if one[0] = rec; !take(one) {
				break
			}
		}
	}
	for i, rec := range owned {
		if string(rec) != got[i].Rec {
			panic(fmt.Sprintf("%s record %d changed by later reads: %q, was %q", how, i, rec, got[i].Rec))
		}
	}
	return got, r.Err()
}

// records is the named iterator of one record (piece, run) per step.
func records(r *Reader, how string) iter.Seq[[]byte] {
	switch how {
	case "Lines":
		return r.Lines()
	case "Views":
		return r.Views()
	case "Pieces":
		return r.Pieces()
	case "Runs":
		return r.Runs()
	}
	panic("no iterator " + how)
}

// checkYielded panics where a yielded slice breaks what its iterator promises.
func checkYielded(how string, rec []byte) {
	switch {
	case rec == nil:
		panic(how + " yielded a nil record")
	case how == "Lines" && len(rec) != cap(rec):
		panic("Lines record not exact-size: " + string(rec))
	case how == "Batches" && len(rec) != cap(rec):
		panic("Batches record not capacity-capped: " + string(rec))
	}
}

// Texts returns the records' bytes as strings, for readable comparisons; no records, nil.
func Texts(s []Seen) []string {
	if len(s) == 0 {
		return nil
	}
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.Rec
	}
	return out
}

// Joined returns the records of s with the pieces of each record (Partial) joined: the
// record's bytes, its LineNo after its last piece and its Offset at its first.
func Joined(s []Seen) []Seen {
	var out []Seen
	var pending *Seen
	for _, x := range s {
		if pending != nil {
			x.Rec, x.Off = pending.Rec+x.Rec, pending.Off
		}
		if x.Partial {
			x.Partial, pending = false, &x
			continue
		}
		pending = nil
		out = append(out, x)
	}
	return out
}

// RandomInput returns n random bytes over an alphabet dense in what matters to record
// cutting: newlines (also doubled, for paragraphs), "\r", a separator "ab", a space,
// and the lead and continuation bytes of a UTF-8 character.
func RandomInput(rng *rand.Rand, n int) []byte { return RandomOver(rng, "ab\n\n\r \xE3\x81", n) }

// RandomOver returns n bytes drawn from alphabet, each byte of it equally likely: the
// one random-input generator, for tests that need the bytes of their own separators.
func RandomOver(rng *rand.Rand, alphabet string, n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return p
}

// plainRecords is the reference loop: Next, over src(in).
func plainRecords(in []byte, opt Options, src func([]byte) io.Reader) ([]Seen, Stats, error) {
	r := New(src(in), opt)
	got, err := ReadAll(r, "Next")
	return got, r.Stats(), err
}

func bytesSource(p []byte) io.Reader { return bytes.NewReader(p) }

// requireSame compares records; a record whose LineNo and Offset were not observed (in the
// middle of a batch) has them zero and is compared by its bytes only.
func requireSame(t *testing.T, want, got []Seen, what string) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.LineNo == 0 && g.Off == 0 {
			w.LineNo, w.Off = 0, 0
		}
		if w != g {
			t.Fatalf("%s: record %d is %+v, want %+v", what, i, g, want[i])
		}
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// Gzipped is data compressed as one gzip member.
func Gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
