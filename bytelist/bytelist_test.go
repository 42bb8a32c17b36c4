package bytelist_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/bytelist"
)

var (
	_ io.Writer     = (*bytelist.ByteList)(nil)
	_ io.ByteWriter = (*bytelist.ByteList)(nil)
	_ io.ReaderFrom = (*bytelist.ByteList)(nil)
	_ fmt.Stringer  = (*bytelist.ByteList)(nil)
)

// sample is the text the tests share: three short lines and a longer one.
const sample = "alpha\nbeta\ngamma\nthe quick brown fox jumps over the lazy dog, twice over\n"

// sameArray reports whether a and b use the same backing array (both non-empty).
func sameArray(a, b *bytelist.ByteList) bool {
	ra, rb := bytelist.Raw(a), bytelist.Raw(b)
	return len(ra) > 0 && len(rb) > 0 && &ra[0] == &rb[0]
}

// array returns the address of b's backing array, nil if it has none.
func array(b *bytelist.ByteList) *byte {
	if r := bytelist.Raw(b); len(r) > 0 {
		return &r[0]
	}
	return nil
}

func check(t *testing.T, b *bytelist.ByteList, want string) {
	t.Helper()
	if got := b.String(); got != want {
		t.Fatalf("contents = %q, want %q", got, want)
	}
	if b.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", b.Len(), len(want))
	}
	if b.Cap() < b.Len() {
		t.Fatalf("Cap %d < Len %d", b.Cap(), b.Len())
	}
	if s := b.Stats(); s.PeakCap < b.Cap() {
		t.Fatalf("PeakCap %d < Cap %d", s.PeakCap, b.Cap())
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", name)
		}
	}()
	f()
}

func TestZeroValue(t *testing.T) {
	var b bytelist.ByteList
	check(t, &b, "")
	if b.Cap() != 0 || b.Stats() != (bytelist.Stats{}) {
		t.Fatalf("zero value: Cap %d, Stats %+v", b.Cap(), b.Stats())
	}
	if c := b.Clone(); c == nil || len(c) != 0 || cap(c) != 0 {
		t.Fatalf("Clone of empty list = %#v, want a non-nil empty slice", c)
	}
	b.WriteByte('a')
	check(t, &b, "a")
	want := bytelist.Stats{Grows: 1, BytesMoved: 0, PeakCap: bytelist.MinCap}
	if b.Cap() != bytelist.MinCap || b.Stats() != want {
		t.Fatalf("after first byte: Cap %d, Stats %+v; want Cap %d, Stats %+v",
			b.Cap(), b.Stats(), bytelist.MinCap, want)
	}
}

func TestNewExactCapacity(t *testing.T) {
	for _, c := range []int{0, 1, 7, 64, 100, 1 << 16} {
		b := bytelist.New(c)
		check(t, b, "")
		if b.Cap() != c || b.Stats() != (bytelist.Stats{PeakCap: c}) {
			t.Errorf("New(%d): Cap %d, Stats %+v", c, b.Cap(), b.Stats())
		}
		b.Write(make([]byte, c))
		if b.Cap() != c || b.Stats().Grows != 0 {
			t.Errorf("New(%d) filled to capacity: Cap %d, Grows %d", c, b.Cap(), b.Stats().Grows)
		}
	}
}

func TestNewPanics(t *testing.T) {
	mustPanic(t, "New(-1)", func() { bytelist.New(-1) })
	for _, f := range []float64{0, 1, 1.2, 1.2499, -2, math.NaN(), math.Inf(1), math.Inf(-1)} {
		mustPanic(t, fmt.Sprintf("NewWithGrowth(8, %v)", f), func() { bytelist.NewWithGrowth(8, f) })
	}
	bytelist.NewWithGrowth(0, 1.25) // the smallest allowed factor
	bytelist.NewWithGrowth(0, 1000)
}

// Init on a list held by value, and on one that was in use: it starts over, empty, with
// the new capacity and factor and fresh Stats, and panics as NewWithGrowth does.
func TestInitByValue(t *testing.T) {
	var holder struct {
		n    int
		list bytelist.ByteList
	}
	b := &holder.list
	b.Init(100, 1.5)
	check(t, b, "")
	if b.Cap() != 100 || b.Stats() != (bytelist.Stats{PeakCap: 100}) {
		t.Fatalf("Init(100, 1.5): Cap %d, Stats %+v", b.Cap(), b.Stats())
	}
	b.Write(make([]byte, 101))
	if b.Cap() != 150 {
		t.Errorf("growth after Init(100, 1.5): Cap %d, want 150", b.Cap())
	}
	b.Init(0, 2)
	check(t, b, "")
	if b.Cap() != 0 || b.Stats() != (bytelist.Stats{}) {
		t.Errorf("Init again: Cap %d, Stats %+v, want an empty list with fresh Stats", b.Cap(), b.Stats())
	}
	mustPanic(t, "Init(-1, 2)", func() { b.Init(-1, 2) })
	mustPanic(t, "Init(8, 1.2)", func() { b.Init(8, 1.2) })
}

func TestGrowthPolicy(t *testing.T) {
	tests := []struct {
		name    string
		factor  float64
		cap     int
		len     int // bytes written before the growth
		n       int // Grow(n)
		wantCap int
	}{
		{"double", 2, 100, 100, 1, 200},
		{"one and a half", 1.5, 100, 100, 1, 150},
		{"smallest factor", 1.25, 100, 100, 1, 125},
		{"rounds up", 1.25, 65, 65, 1, 82}, // 81.25
		{"rounds up 1.5", 1.5, 101, 101, 1, 152},
		{"need beats factor", 2, 100, 10, 1000, 1010},
		{"need beats factor, empty", 2, 100, 0, 1000, 1000},
		{"floor from empty", 2, 0, 0, 1, bytelist.MinCap},
		{"floor from tiny", 2, 3, 3, 1, bytelist.MinCap},
		{"floor with small factor", 1.25, 10, 10, 1, bytelist.MinCap},
		{"need beats floor", 2, 0, 0, 1000, 1000},
		{"room already", 2, 100, 50, 50, 100},
		{"zero", 2, 100, 100, 0, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytelist.NewWithGrowth(tt.cap, tt.factor)
			b.Write(bytes.Repeat([]byte{'x'}, tt.len))
			before := b.Stats()
			b.Grow(tt.n)
			if b.Cap() != tt.wantCap {
				t.Fatalf("Cap = %d, want %d", b.Cap(), tt.wantCap)
			}
			check(t, b, strings.Repeat("x", tt.len))
			grew := tt.wantCap != tt.cap
			want := before
			if grew {
				want.Grows++
				want.BytesMoved += int64(tt.len)
				want.PeakCap = tt.wantCap
			}
			if b.Stats() != want {
				t.Fatalf("Stats = %+v, want %+v", b.Stats(), want)
			}
		})
	}
}

func TestGrowthSequenceFromZero(t *testing.T) {
	var b bytelist.ByteList
	var caps []int
	for i := 0; i < 1000; i++ {
		b.WriteByte(byte(i))
		if len(caps) == 0 || caps[len(caps)-1] != b.Cap() {
			caps = append(caps, b.Cap())
		}
	}
	want := []int{64, 128, 256, 512, 1024}
	if fmt.Sprint(caps) != fmt.Sprint(want) {
		t.Fatalf("capacities = %v, want %v", caps, want)
	}
	// Each growth copied the whole list it replaced: 64+128+256+512.
	if s := b.Stats(); s.Grows != 5 || s.BytesMoved != 960 || s.PeakCap != 1024 {
		t.Fatalf("Stats = %+v", s)
	}
}

// A growth replaces the backing array at most once, however much one write needs.
func TestGrowAtMostOnce(t *testing.T) {
	b := bytelist.New(4)
	b.Write([]byte("abc"))
	b.Write(make([]byte, 1<<20))
	if s := b.Stats(); s.Grows != 1 || s.BytesMoved != 3 {
		t.Fatalf("one large write: Stats %+v, want 1 growth moving 3 bytes", s)
	}
	if b.Cap() != 3+1<<20 {
		t.Fatalf("Cap = %d, want exactly the need %d", b.Cap(), 3+1<<20)
	}
}

func TestGrowKeepsArrayWhenRoom(t *testing.T) {
	b := bytelist.New(100)
	b.Write([]byte(sample[:10]))
	a := array(b)
	b.Grow(90)
	b.Write(make([]byte, 90))
	if array(b) != a || b.Stats().Grows != 0 {
		t.Fatal("Grow within capacity replaced the backing array")
	}
}

func TestGrowPanics(t *testing.T) {
	b := bytelist.New(8)
	mustPanic(t, "Grow(-1)", func() { b.Grow(-1) })
	b.WriteByte('x')
	defer func() {
		if r := recover(); r != bytelist.ErrTooLarge {
			t.Fatalf("Grow(MaxInt) with one byte in: panic %v, want ErrTooLarge", r)
		}
	}()
	b.Grow(math.MaxInt)
}

func TestWrite(t *testing.T) {
	var b bytelist.ByteList
	var want strings.Builder
	for i := 0; i < 50; i++ {
		n, err := b.Write([]byte(sample))
		if n != len(sample) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
		want.WriteString(sample)
	}
	check(t, &b, want.String())
	if n, err := b.Write(nil); n != 0 || err != nil {
		t.Fatalf("Write(nil) = %d, %v", n, err)
	}
	check(t, &b, want.String())
}

// WriteString appends exactly as Write does, grows geometrically like it, and satisfies
// io.StringWriter.
func TestWriteString(t *testing.T) {
	var _ io.StringWriter = (*bytelist.ByteList)(nil)
	var b, w bytelist.ByteList
	for i := 0; i < 50; i++ {
		n, err := b.WriteString(sample)
		if n != len(sample) || err != nil {
			t.Fatalf("WriteString = %d, %v", n, err)
		}
		w.Write([]byte(sample))
	}
	check(t, &b, w.String())
	if b.Stats() != w.Stats() {
		t.Fatalf("WriteString grew as %+v, Write as %+v", b.Stats(), w.Stats())
	}
	if n, err := b.WriteString(""); n != 0 || err != nil {
		t.Fatalf(`WriteString("") = %d, %v`, n, err)
	}
	check(t, &b, w.String())
}

// Writing a list's own view into it must work whether or not the write grows the list.
func TestWriteSelf(t *testing.T) {
	for _, c := range []int{0, 8, 16, 1000} {
		b := bytelist.New(c)
		b.Write([]byte("abcdefgh"))
		b.Write(b.Bytes())
		check(t, b, "abcdefghabcdefgh")
		b.Write(b.Bytes()[2:5])
		check(t, b, "abcdefghabcdefghcde")
	}
}

func TestBytesIsCappedView(t *testing.T) {
	b := bytelist.New(16)
	b.Write([]byte("abc"))
	v := b.Bytes()
	if len(v) != 3 || cap(v) != 3 {
		t.Fatalf("Bytes: len %d cap %d, want 3 3", len(v), cap(v))
	}
	v[0] = 'A' // a view: the list sees the change
	check(t, b, "Abc")
	v = append(v, 'x') // reallocates: the list's spare capacity is untouched
	b.WriteByte('d')
	check(t, b, "Abcd")
	if string(v) != "Abcx" {
		t.Fatalf("appended view = %q", v)
	}
}

func TestClone(t *testing.T) {
	b := bytelist.New(64)
	b.Write([]byte(sample[:20]))
	c := b.Clone()
	if string(c) != sample[:20] || len(c) != cap(c) {
		t.Fatalf("Clone = %q, len %d cap %d", c, len(c), cap(c))
	}
	c[0] = 'X'
	check(t, b, sample[:20])
	b.Reset()
	b.Write([]byte("zzzzzzzzzzzzzzzzzzzzzz"))
	if string(c[1:]) != sample[1:20] {
		t.Fatalf("Clone changed with the list: %q", c)
	}
}

func TestStringNil(t *testing.T) {
	var b *bytelist.ByteList
	if s := b.String(); s != "<nil>" {
		t.Fatalf("nil String = %q", s)
	}
}

func TestReset(t *testing.T) {
	b := bytelist.New(32)
	b.Write([]byte("hello, world"))
	a := array(b)
	b.Reset()
	check(t, b, "")
	if b.Cap() != 32 || array(b) != a {
		t.Fatal("Reset did not keep the backing array")
	}
	if got := string(bytelist.Raw(b)[:12]); got != "hello, world" {
		t.Fatalf("Reset cleared the old bytes: %q", got)
	}
	b.Reset()
	b.Write([]byte("bye"))
	check(t, b, "bye")
	if s := b.Stats(); s.Resets != 2 || s.Grows != 0 {
		t.Fatalf("Stats = %+v, want 2 resets and no growth", s)
	}
}

func TestTruncate(t *testing.T) {
	b := bytelist.New(32)
	b.Write([]byte("abcdef"))
	b.Truncate(6)
	check(t, b, "abcdef")
	b.Truncate(2)
	check(t, b, "ab")
	b.Truncate(0)
	check(t, b, "")
	if b.Cap() != 32 || b.Stats().Resets != 0 {
		t.Fatalf("Truncate changed Cap (%d) or counted a reset", b.Cap())
	}
	b.Write([]byte("xyz"))
	mustPanic(t, "Truncate(-1)", func() { b.Truncate(-1) })
	mustPanic(t, "Truncate(Len+1)", func() { b.Truncate(4) })
	check(t, b, "xyz")
}

func TestDiscard(t *testing.T) {
	tests := []struct {
		n         int
		want      string
		wantMoved int64
	}{
		{0, "abcdef", 0},
		{1, "bcdef", 5},
		{4, "ef", 2},
		{6, "", 0},
	}
	for _, tt := range tests {
		b := bytelist.New(8)
		b.Write([]byte("abcdef"))
		a := array(b)
		b.Discard(tt.n)
		check(t, b, tt.want)
		if s := b.Stats(); s.BytesMoved != tt.wantMoved || s.Grows != 0 || array(b) != a {
			t.Errorf("Discard(%d): Stats %+v, want %d bytes moved in place", tt.n, s, tt.wantMoved)
		}
		// The freed room is at the end: filling it does not grow.
		b.Write(make([]byte, b.Cap()-b.Len()))
		if b.Stats().Grows != 0 {
			t.Errorf("Discard(%d) did not free room at the end", tt.n)
		}
	}
	b := bytelist.New(8)
	b.Write([]byte("abc"))
	mustPanic(t, "Discard(-1)", func() { b.Discard(-1) })
	mustPanic(t, "Discard(Len+1)", func() { b.Discard(4) })
	check(t, b, "abc")
}

// endless is a reader that never ends: it fills every buffer with x.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// emptyReader returns no data and no error, forever.
type emptyReader struct{ calls int }

func (r *emptyReader) Read(p []byte) (int, error) { r.calls++; return 0, nil }

// dataWithErr returns all of s (room permitting) together with err in one Read.
type dataWithErr struct {
	s   string
	err error
}

func (r *dataWithErr) Read(p []byte) (int, error) {
	n := copy(p, r.s)
	r.s = r.s[n:]
	return n, r.err
}

// badReader returns n, whatever it is given.
type badReader struct{ n int }

func (r badReader) Read(p []byte) (int, error) { return r.n, nil }

// recorder counts the Reads made of it and remembers the room each was given.
type recorder struct {
	r     io.Reader
	calls int
	lens  []int
	caps  []int
}

func (r *recorder) Read(p []byte) (int, error) {
	r.calls++
	r.lens = append(r.lens, len(p))
	r.caps = append(r.caps, cap(p))
	return r.r.Read(p)
}

func TestReadFrom(t *testing.T) {
	big := strings.Repeat(sample, 10000) // ~740 KB
	errBoom := errors.New("boom")
	tests := []struct {
		name    string
		r       io.Reader
		want    string
		wantErr error
	}{
		{"empty", strings.NewReader(""), "", nil},
		{"sample", strings.NewReader(sample), sample, nil},
		{"big", strings.NewReader(big), big, nil},
		{"one byte per read", iotest.OneByteReader(strings.NewReader(sample)), sample, nil},
		{"half reads", iotest.HalfReader(strings.NewReader(big)), big, nil},
		{"data with EOF", iotest.DataErrReader(strings.NewReader(sample)), sample, nil},
		{"error at once", iotest.ErrReader(errBoom), "", errBoom},
		{"error after data", io.MultiReader(strings.NewReader(sample), iotest.ErrReader(errBoom)), sample, errBoom},
		{"error on second read", iotest.TimeoutReader(strings.NewReader(sample)), sample, iotest.ErrTimeout},
		{"data together with error", &dataWithErr{sample, errBoom}, sample, errBoom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytelist.New(0)
			b.Write([]byte("head:"))
			n, err := b.ReadFrom(tt.r)
			if err != tt.wantErr {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if n != int64(len(tt.want)) {
				t.Fatalf("n = %d, want %d", n, len(tt.want))
			}
			check(t, b, "head:"+tt.want)
		})
	}
}

func TestReadFromGrowsGeometrically(t *testing.T) {
	b := bytelist.New(0)
	const size = 1 << 20
	n, err := b.ReadFrom(io.LimitReader(endless{}, size))
	if n != size || err != nil {
		t.Fatalf("ReadFrom = %d, %v", n, err)
	}
	// The first growth makes room for MinRead (512); each later one doubles, up to 1 MiB,
	// and one more for the MinRead of room ReadFrom wants before it sees EOF: 13 growths,
	// each copying the whole list it replaced (512 + 1024 + ... + 1 MiB).
	want := bytelist.Stats{Grows: 13, BytesMoved: 2*size - bytelist.MinRead, PeakCap: 2 * size}
	if s := b.Stats(); s != want {
		t.Fatalf("Stats = %+v, want %+v", s, want)
	}
}

func TestReadFromNoProgress(t *testing.T) {
	r := &emptyReader{}
	var b bytelist.ByteList
	n, err := b.ReadFrom(r)
	if n != 0 || err != io.ErrNoProgress || r.calls != bytelist.MaxEmptyReads {
		t.Fatalf("ReadFrom = %d, %v after %d reads", n, err, r.calls)
	}
}

func TestReadFromInvalidCount(t *testing.T) {
	for _, n := range []int{-1, bytelist.MinRead + 1} {
		b := bytelist.New(bytelist.MinRead)
		mustPanic(t, fmt.Sprintf("ReadFrom(reader returning %d)", n), func() { b.ReadFrom(badReader{n}) })
	}
}

func TestFill(t *testing.T) {
	t.Run("one read of at most n", func(t *testing.T) {
		r := &recorder{r: strings.NewReader(sample)}
		b := bytelist.New(100)
		n, err := b.Fill(r, 10)
		if n != 10 || err != nil || r.calls != 1 {
			t.Fatalf("Fill = %d, %v after %d reads", n, err, r.calls)
		}
		if r.lens[0] != 10 || r.caps[0] != 10 {
			t.Fatalf("room given to Read: len %d cap %d, want 10 10", r.lens[0], r.caps[0])
		}
		check(t, b, sample[:10])
	})
	t.Run("n below 1 means 1", func(t *testing.T) {
		for _, n := range []int{0, -5} {
			r := &recorder{r: strings.NewReader(sample)}
			b := bytelist.New(0)
			got, err := b.Fill(r, n)
			if got != 1 || err != nil || r.lens[0] != 1 {
				t.Fatalf("Fill(r, %d) = %d, %v; Read given %d bytes", n, got, err, r.lens[0])
			}
			check(t, b, sample[:1])
		}
	})
	t.Run("short read", func(t *testing.T) {
		b := bytelist.New(100)
		n, err := b.Fill(iotest.OneByteReader(strings.NewReader(sample)), 50)
		if n != 1 || err != nil {
			t.Fatalf("Fill = %d, %v", n, err)
		}
		check(t, b, sample[:1])
	})
	t.Run("grows only when less than n is spare", func(t *testing.T) {
		b := bytelist.New(16)
		b.Write([]byte("0123456789"))
		r := strings.NewReader(sample)
		b.Fill(r, 6) // exactly the spare room
		if b.Cap() != 16 || b.Stats().Grows != 0 {
			t.Fatalf("Fill within capacity grew: Cap %d", b.Cap())
		}
		b.Fill(r, 1) // none spare: one geometric growth
		if b.Cap() != bytelist.MinCap || b.Stats() != (bytelist.Stats{Grows: 1, BytesMoved: 16, PeakCap: bytelist.MinCap}) {
			t.Fatalf("Fill with no room: Cap %d, Stats %+v", b.Cap(), b.Stats())
		}
		b.Fill(r, 1000) // more than geometric growth gives: exactly the need
		if b.Cap() != 17+1000 || b.Stats().Grows != 2 {
			t.Fatalf("Fill(1000): Cap %d, Grows %d", b.Cap(), b.Stats().Grows)
		}
		check(t, b, "0123456789"+sample) // the last Fill had room for the rest of it
	})
	t.Run("EOF is passed through", func(t *testing.T) {
		b := bytelist.New(0)
		r := strings.NewReader("ab")
		if n, err := b.Fill(r, 10); n != 2 || err != nil {
			t.Fatalf("first Fill = %d, %v", n, err)
		}
		if n, err := b.Fill(r, 10); n != 0 || err != io.EOF {
			t.Fatalf("Fill at end = %d, %v, want 0, EOF", n, err)
		}
		check(t, b, "ab")
	})
	t.Run("data together with an error is kept", func(t *testing.T) {
		b := bytelist.New(0)
		r := iotest.DataErrReader(strings.NewReader("abc"))
		n, err := b.Fill(r, 10)
		if n != 3 || err != io.EOF {
			t.Fatalf("Fill = %d, %v, want 3, EOF", n, err)
		}
		check(t, b, "abc")
	})
	t.Run("invalid counts panic", func(t *testing.T) {
		for _, n := range []int{-1, 11} {
			b := bytelist.New(100)
			mustPanic(t, fmt.Sprintf("Fill(reader returning %d, 10)", n), func() { b.Fill(badReader{n}, 10) })
		}
	})
}

func TestRelease(t *testing.T) {
	tests := []struct {
		name      string
		cap, len  int
		keep      int
		wantCap   int
		wantMoved int64
	}{
		{"shrink to keep", 1000, 10, 100, 100, 10},
		{"shrink to len", 1000, 500, 100, 500, 500},
		{"shrink to len, keep 0", 1000, 7, 0, 7, 7},
		{"negative keep acts as 0", 1000, 7, -3, 7, 7},
		{"drop the array", 1000, 0, 0, 0, 0},
		{"cap equals keep", 100, 10, 100, 100, 0},
		{"cap below keep", 100, 10, 200, 100, 0},
		{"full list", 100, 100, 10, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytelist.New(tt.cap)
			content := strings.Repeat("y", tt.len)
			b.Write([]byte(content))
			a := array(b)
			b.Release(tt.keep)
			check(t, b, content)
			if b.Cap() != tt.wantCap {
				t.Fatalf("Cap = %d, want %d", b.Cap(), tt.wantCap)
			}
			want := bytelist.Stats{PeakCap: tt.cap, BytesMoved: tt.wantMoved}
			if b.Stats() != want {
				t.Fatalf("Stats = %+v, want %+v", b.Stats(), want)
			}
			if replaced := array(b) != a; replaced != (tt.wantCap != tt.cap) {
				t.Fatalf("backing array replaced: %v", replaced)
			}
			b.Write([]byte("z")) // still usable
			check(t, b, content+"z")
		})
	}
}

// A long record raises the peak; Release brings the capacity down but not the peak, and
// the next growth starts from the released capacity.
func TestPeakCapAcrossRelease(t *testing.T) {
	b := bytelist.New(100)
	b.Write(make([]byte, 10000))
	b.Reset()
	b.Release(100)
	s := b.Stats()
	if b.Cap() != 100 || s.PeakCap != 10000 || s.Grows != 1 || s.Resets != 1 || s.BytesMoved != 0 {
		t.Fatalf("Cap %d, Stats %+v", b.Cap(), s)
	}
	b.Write(make([]byte, 101))
	if b.Cap() != 200 {
		t.Fatalf("growth after Release: Cap %d, want 200", b.Cap())
	}
}

// TestRandomOperations compares a ByteList with a plain []byte over random sequences of
// every mutating operation, checking the contents and the Stats accounting after each.
func TestRandomOperations(t *testing.T) {
	for seed := range 200 {
		ops := make([]byte, 300)
		x := uint32(seed)*2654435761 + 1
		for i := range ops {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			ops[i] = byte(x)
		}
		runOps(t, ops)
	}
}

func FuzzOperations(f *testing.F) {
	f.Add([]byte{0, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("\x00\xff\x02\x03\x04\x05\x06\x07\x08\x09\x00\x80\x05\x01"))
	f.Fuzz(runOps)
}

// runOps interprets ops as pairs (operation, argument) against both a ByteList and a
// reference slice.
func runOps(t *testing.T, ops []byte) {
	t.Helper()
	if len(ops) == 0 {
		return
	}
	factors := []float64{2, 1.25, 1.5, 3}
	factor := factors[int(ops[0]/4)%len(factors)]
	b := bytelist.NewWithGrowth(int(ops[0]%4)*8, factor)
	var ref []byte
	src := strings.NewReader(strings.Repeat(sample, 100))
	var next byte
	for i := 1; i+1 < len(ops); i += 2 {
		op, arg := ops[i]%9, int(ops[i+1])
		before, oldLen, oldCap := b.Stats(), b.Len(), b.Cap()
		need := -1 // bytes of room the operation asks for, if it may grow
		switch op {
		case 0:
			p := bytes.Repeat([]byte{next}, arg)
			next++
			b.Write(p)
			ref = append(ref, p...)
			need = arg
		case 1:
			b.WriteByte(next)
			ref = append(ref, next)
			next++
			need = 1
		case 2:
			b.Grow(arg)
			need = arg
		case 3:
			b.Reset()
			ref = ref[:0]
		case 4:
			n := arg % (len(ref) + 1)
			b.Truncate(n)
			ref = ref[:n]
		case 5:
			n := arg % (len(ref) + 1)
			b.Discard(n)
			ref = append(ref[:0], ref[n:]...)
		case 6:
			if src.Len() == 0 {
				src.Reset(sample)
			}
			got, _ := b.Fill(src, arg)
			ref = append(ref, b.Bytes()[b.Len()-got:]...)
			need = max(arg, 1)
		case 7:
			b.Release(arg)
		case 8:
			if oldLen > 4096 { // doubling without bound would only exhaust memory
				continue
			}
			b.Write(b.Bytes())
			ref = append(ref, ref...)
			need = oldLen
		}
		if !bytes.Equal(b.Bytes(), ref) {
			t.Fatalf("op %d(%d): contents %q, want %q", op, arg, b.Bytes(), ref)
		}
		after := b.Stats()
		if after.PeakCap < b.Cap() || after.PeakCap < before.PeakCap {
			t.Fatalf("op %d(%d): PeakCap %d, Cap %d, PeakCap before %d", op, arg, after.PeakCap, b.Cap(), before.PeakCap)
		}
		grew := after.Grows - before.Grows
		moved := after.BytesMoved - before.BytesMoved
		switch {
		case need >= 0 && need > oldCap-oldLen:
			// One growth, geometric or to the need, copying the old contents.
			floor := max(int(math.Ceil(float64(oldCap)*factor)), bytelist.MinCap)
			if grew != 1 || moved != int64(oldLen) || b.Cap() != max(floor, oldLen+need) {
				t.Fatalf("op %d(%d) from len %d cap %d: grew %d, moved %d, cap %d",
					op, arg, oldLen, oldCap, grew, moved, b.Cap())
			}
		case grew != 0:
			t.Fatalf("op %d(%d) grew without need", op, arg)
		case op == 5:
			if moved != int64(b.Len()) && !(arg%(oldLen+1) == 0 && moved == 0) {
				t.Fatalf("Discard moved %d bytes, kept %d", moved, b.Len())
			}
		case op == 7 && b.Cap() != oldCap:
			if moved != int64(oldLen) || b.Cap() != max(oldLen, arg) {
				t.Fatalf("Release(%d) from len %d cap %d: cap %d, moved %d", arg, oldLen, oldCap, b.Cap(), moved)
			}
		case moved != 0:
			t.Fatalf("op %d(%d) moved %d bytes", op, arg, moved)
		}
	}
}
