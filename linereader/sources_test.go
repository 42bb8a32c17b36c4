package linereader

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// inputs is a MultiSource over several inputs, each read in reads of at most step bytes;
// after the last one it returns end (io.EOF, or ErrStop for a stopped source).
type inputs struct {
	parts []string
	step  int
	end   error
	cur   io.Reader
}

func (s *inputs) Read(p []byte) (int, error) {
	if s.cur == nil {
		if len(s.parts) == 0 {
			return 0, s.end
		}
		s.cur = iotest.HalfReader(&limitedReads{data: s.parts[0], step: s.step})
	}
	n, err := s.cur.Read(p)
	if err == io.EOF && len(s.parts) == 1 && s.end != io.EOF {
		return n, s.end // the last input ends with the stop, not with an end
	}
	return n, err
}

func (s *inputs) NextInput() bool {
	if len(s.parts) <= 1 {
		return false
	}
	s.parts, s.cur = s.parts[1:], nil
	return true
}

type limitedReads struct {
	data string
	step int
}

func (l *limitedReads) Read(p []byte) (int, error) {
	if len(l.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), l.step)], l.data)
	l.data = l.data[n:]
	return n, nil
}

// An input's unterminated tail is its last record, offsets start again at each input, line
// numbers go on across them, and Stats.Bytes counts them all.
func TestMultiInputEndsEachInputsLastRecord(t *testing.T) {
	for _, step := range []int{1, 2, 3, 64} {
		src := &inputs{parts: []string{"a\nbc", "", "d\n\ne", "f\n"}, step: step, end: io.EOF}
		r := New(src, Options{BufferSize: 4})
		got, _ := ReadAll(r, "Next")
		want := []Seen{{"a\n", 1, 0, false}, {"bc", 2, 2, false}, {"d\n", 3, 0, false}, {"\n", 4, 2, false}, {"e", 5, 3, false}, {"f\n", 6, 0, false}}
		if len(got) != len(want) {
			t.Fatalf("step %d: got %+v, want %+v", step, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("step %d: record %d is %+v, want %+v", step, i, got[i], want[i])
			}
		}
		if err := r.Err(); err != nil {
			t.Errorf("step %d: Err = %v", step, err)
		}
		if b := r.Stats().Bytes; b != 10 {
			t.Errorf("step %d: Stats.Bytes = %d, want 10", step, b)
		}
	}
}

// A stopped source ends iteration with no error, after the complete records buffered;
// the bytes after the last separator are not a record.
func TestStoppedSourceDropsTheUnterminatedTail(t *testing.T) {
	for _, step := range []int{1, 5, 64} {
		src := &inputs{parts: []string{"x\n", "ab\ncd\nhalf a rec"}, step: step, end: ErrStop}
		r := New(src, Options{Chomp: true})
		got, _ := ReadAll(r, "Lines")
		if recs, want := Texts(got), []string{"x", "ab", "cd"}; len(recs) != 3 || recs[0] != want[0] || recs[1] != want[1] || recs[2] != want[2] {
			t.Errorf("step %d: records %q, want %q", step, recs, want)
		}
		if err := r.Err(); err != nil {
			t.Errorf("step %d: Err = %v, want nil", step, err)
		}
		if r.LineNo() != 3 || r.Offset() != 3 {
			t.Errorf("step %d: LineNo %d Offset %d after the loop, want 3 and 3", step, r.LineNo(), r.Offset())
		}
	}
}

// NewAt counts offsets from the source's place in its input, and Stats.Bytes from there;
// Reset starts again from 0.
func TestNewAtCountsOffsetsFromStart(t *testing.T) {
	r := NewAt(strings.NewReader("ab\ncd"), 100, Options{})
	var offs, ends []int64
	for r.Next() {
		offs, ends = append(offs, r.Offset()), append(ends, r.EndOffset())
	}
	if len(offs) != 2 || offs[0] != 100 || offs[1] != 103 || ends[0] != 103 || ends[1] != 105 {
		t.Fatalf("offsets %v ends %v, want [100 103] [103 105]", offs, ends)
	}
	if b := r.Stats().Bytes; b != 5 {
		t.Errorf("Stats.Bytes = %d, want 5", b)
	}
	r.Reset(strings.NewReader("x\n"))
	if !r.Next() || r.Offset() != 0 {
		t.Errorf("after Reset: Offset %d, want 0", r.Offset())
	}
}

// stoppable is a Stopper written outside the engine's knowledge: Close calls Stop and the
// next Read returns ErrStop.
type stoppable struct {
	io.Reader
	stopped bool
}

func (s *stoppable) Read(p []byte) (int, error) {
	if s.stopped {
		return 0, ErrStop
	}
	return s.Reader.Read(p)
}

func (s *stoppable) Stop() error { s.stopped = true; return nil }

// Close stops a Stopper source rather than ending the reader itself; the loop ends
// cleanly with the records before the stop, and the unterminated tail is not a record.
func TestCloseStopsAStopperSource(t *testing.T) {
	src := &stoppable{Reader: iotest.OneByteReader(strings.NewReader("a\nb\ntail"))}
	r := New(src, Options{})
	var got []string
	for rec := range r.Lines() {
		got = append(got, string(rec))
		if len(got) == 1 {
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(got) != 1 || got[0] != "a\n" {
		t.Errorf("records %q, want only \"a\\n\" (the stop came during the second)", got)
	}
	if err := r.Err(); err != nil {
		t.Errorf("Err = %v, want nil after a stop", err)
	}
}

// resuming is an inputs whose inputs begin at the offsets in starts: a ResumingSource.
type resuming struct {
	inputs
	starts []int64
}

func (s *resuming) NextInput() bool {
	if !s.inputs.NextInput() {
		return false
	}
	s.starts = s.starts[1:]
	return true
}

func (s *resuming) InputStart() int64 { return s.starts[0] }

// A ResumingSource's next input counts its offsets from the start it gives, through every
// iterator; line numbers go on and Stats.Bytes counts the bytes read, not the offsets.
func TestResumingSourceCountsOffsetsFromInputStart(t *testing.T) {
	for _, it := range []string{"Next", "Lines", "Views"} {
		for _, step := range []int{1, 3, 64} {
			src := &resuming{inputs{parts: []string{"a\nbc\n", "d\ne\n", "fg\n"}, step: step, end: io.EOF}, []int64{7, 1000, 5}}
			r := NewAt(src, 7, Options{BufferSize: 4})
			got, _ := ReadAll(r, it)
			want := []Seen{{"a\n", 1, 7, false}, {"bc\n", 2, 9, false}, {"d\n", 3, 1000, false}, {"e\n", 4, 1002, false}, {"fg\n", 5, 5, false}}
			if len(got) != len(want) {
				t.Fatalf("%s step %d: got %+v, want %+v", it, step, got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s step %d: record %d is %+v, want %+v", it, step, i, got[i], want[i])
				}
			}
			if b := r.Stats().Bytes; b != 12 {
				t.Errorf("%s step %d: Stats.Bytes = %d, want 12", it, step, b)
			}
			if r.EndOffset() != 8 {
				t.Errorf("%s step %d: EndOffset %d after the loop, want 8", it, step, r.EndOffset())
			}
		}
	}
}
