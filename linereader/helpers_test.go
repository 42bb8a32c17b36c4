package linereader

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

// The test helpers of the package, in one place. Tests in package linereader_test reach
// the exported ones (Seen, ReadAll, RandomInput, Iterators) like export_test.go hooks.

// Seen is one record as a test sees it: its bytes, LineNo and Offset after it, and
// Partial. A record from the middle of a batch has LineNo and Offset unobserved (zero):
// during a Batches loop they describe the batch's last record only.
type Seen struct {
	Rec     string
	LineNo  int64
	Off     int64
	Partial bool
}

// Iterators are the ways a caller reads records, by the names ReadAll takes.
var Iterators = []string{"Next", "Lines", "Views", "Batches", "Pieces", "Runs"}

// ReadAll reads every remaining record of r with the named iterator and returns what it
// saw, then r.Err(). Lines records are checked to be exact-size and Batches records
// capacity-capped; a violation panics, failing the test that called it.
func ReadAll(r *Reader, how string) ([]Seen, error) {
	var got []Seen
	add := func(rec []byte) { got = append(got, Seen{string(rec), r.LineNo(), r.Offset(), r.Partial()}) }
	switch how {
	case "Next":
		for r.Next() {
			add(r.Bytes())
		}
	case "Lines":
		for rec := range r.Lines() {
			if len(rec) != cap(rec) {
				panic("Lines record not exact-size: " + string(rec))
			}
			add(rec)
		}
	case "Views":
		for rec := range r.Views() {
			add(rec)
		}
	case "Pieces":
		for rec := range r.Pieces() {
			add(rec)
		}
	case "Runs":
		for run := range r.Runs() {
			add(run)
		}
	case "Batches":
		for batch := range r.Batches() {
			if len(batch) == 0 {
				panic("empty batch")
			}
			for _, rec := range batch {
				if len(rec) != cap(rec) {
					panic("Batches record not capacity-capped: " + string(rec))
				}
				got = append(got, Seen{Rec: string(rec)})
			}
			got[len(got)-1].LineNo, got[len(got)-1].Off = r.LineNo(), r.Offset()
		}
	default:
		panic("no iterator " + how)
	}
	return got, r.Err()
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
func RandomInput(rng *rand.Rand, n int) []byte {
	alphabet := []byte("ab\n\n\r \xE3\x81")
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
