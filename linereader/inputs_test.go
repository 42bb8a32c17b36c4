package linereader

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parts is a sequence of inputs for NewInputs, each read in reads of at most step bytes
// (and halved again by iotest.HalfReader), beginning at the offsets in starts (0 where
// starts is short); the last one ends with end (io.EOF, or ErrStop for a stopped source).
type parts struct {
	texts  []string
	starts []int64
	step   int
	end    error
	calls  int // calls of next
}

func (p *parts) next() (Input, bool) {
	p.calls++
	if len(p.texts) == 0 {
		return Input{}, false
	}
	var r io.Reader = iotest.HalfReader(&limitedReads{data: p.texts[0], step: p.step})
	if len(p.texts) == 1 && p.end != io.EOF {
		r = &endsWith{r: r, err: p.end}
	}
	in := Input{R: r}
	if len(p.starts) > 0 {
		in.Start, p.starts = p.starts[0], p.starts[1:]
	}
	p.texts = p.texts[1:]
	return in, true
}

// endsWith is r, whose io.EOF is replaced by err.
type endsWith struct {
	r   io.Reader
	err error
}

func (e *endsWith) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		err = e.err
	}
	return n, err
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
func TestInputsEndEachInputsLastRecord(t *testing.T) {
	for _, step := range []int{1, 2, 3, 64} {
		src := &parts{texts: []string{"a\nbc", "", "d\n\ne", "f\n"}, step: step, end: io.EOF}
		r := NewInputs(src.next, Options{BufferSize: 4})
		got, err := ReadAll(r, "Next")
		want := []Seen{{"a\n", 1, 0, false}, {"bc", 2, 2, false}, {"d\n", 3, 0, false}, {"\n", 4, 2, false}, {"e", 5, 3, false}, {"f\n", 6, 0, false}}
		require.NoError(t, err, "step %d", step)
		assert.Equal(t, want, got, "step %d", step)
		assert.Equal(t, int64(10), r.Stats().Bytes, "step %d", step)
		assert.Equal(t, 5, src.calls, "step %d: next is called once per input, and once more", step)
	}
}

// next is asked for nothing before the first Next, and an empty sequence has no record.
func TestInputsNoneAndLazy(t *testing.T) {
	src := &parts{step: 4, end: io.EOF}
	r := NewInputs(src.next, Options{})
	assert.Equal(t, 0, src.calls)
	assert.False(t, r.Next())
	require.NoError(t, r.Err())
	assert.Equal(t, 1, src.calls)
	assert.False(t, r.Next())
	assert.Equal(t, 1, src.calls, "next is not asked again once it reported false")
}

// A stopped input ends iteration with no error, after the complete records buffered;
// the bytes after the last separator are not a record.
func TestStoppedInputDropsTheUnterminatedTail(t *testing.T) {
	for _, step := range []int{1, 5, 64} {
		src := &parts{texts: []string{"x\n", "ab\ncd\nhalf a rec"}, step: step, end: ErrStop}
		r := NewInputs(src.next, Options{Chomp: true})
		got, err := ReadAll(r, "Lines")
		require.NoError(t, err, "step %d", step)
		assert.Equal(t, []string{"x", "ab", "cd"}, Texts(got), "step %d", step)
		assert.Equal(t, int64(3), r.LineNo(), "step %d", step)
		assert.Equal(t, int64(3), r.Offset(), "step %d: the last record's offset stays", step)
	}
}

// An input's Start sets where its offsets count from, through every iterator; line
// numbers go on and Stats.Bytes counts the bytes read, not the offsets.
func TestInputStartCountsOffsets(t *testing.T) {
	for _, it := range Iterators {
		for _, step := range []int{1, 3, 64} {
			src := &parts{texts: []string{"a\nbc\n", "d\ne\n", "fg\n"}, starts: []int64{7, 1000, 5}, step: step, end: io.EOF}
			r := NewInputs(src.next, Options{BufferSize: 4})
			got, err := ReadAll(r, it)
			require.NoError(t, err)
			if it == "Batches" || it == "Runs" {
				assert.Equal(t, []string{"a\n", "bc\n", "d\n", "e\n", "fg\n"}, Texts(got), "%s step %d", it, step)
			} else {
				want := []Seen{{"a\n", 1, 7, false}, {"bc\n", 2, 9, false}, {"d\n", 3, 1000, false}, {"e\n", 4, 1002, false}, {"fg\n", 5, 5, false}}
				assert.Equal(t, want, got, "%s step %d", it, step)
			}
			assert.Equal(t, int64(12), r.Stats().Bytes, "%s step %d", it, step)
			assert.Equal(t, int64(8), r.EndOffset(), "%s step %d: EndOffset after the loop", it, step)
		}
	}
}

// Ready is false with nothing buffered while another input may come (its first read
// may block), and true once next has said there is none.
func TestInputsReady(t *testing.T) {
	src := &parts{texts: []string{"a\n", "b\n"}, step: 64, end: io.EOF}
	r := NewInputs(src.next, Options{})
	require.True(t, r.Next())
	assert.False(t, r.Ready(), "the first input's end is not known without a read")
	require.True(t, r.Next())
	assert.False(t, r.Next())
	assert.True(t, r.Ready())
}

// With Decompress, each input is decompressed on its own, and Stats counts the
// compressed bytes of them all.
func TestInputsDecompressEach(t *testing.T) {
	var gz []string
	total := 0
	for _, text := range []string{"one\ntwo\n", "three\n"} {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(text))
		w.Close()
		gz = append(gz, b.String())
		total += b.Len()
	}
	src := &parts{texts: append(gz, "plain\n"), step: 64, end: io.EOF}
	r := NewInputs(src.next, Options{Decompress: true})
	got, err := ReadAll(r, "Lines")
	require.NoError(t, err)
	assert.Equal(t, []string{"one\n", "two\n", "three\n", "plain\n"}, Texts(got))
	assert.Equal(t, int64(total+len("plain\n")), r.Stats().CompressedBytes)
}

// Reset makes a Reader of several inputs a Reader of the one source given.
func TestInputsReset(t *testing.T) {
	src := &parts{texts: []string{"a\n", "b\n"}, step: 64, end: io.EOF}
	r := NewInputs(src.next, Options{})
	require.True(t, r.Next())
	r.Reset(strings.NewReader("x\ny"))
	got, err := ReadAll(r, "Views")
	require.NoError(t, err)
	assert.Equal(t, []string{"x\n", "y"}, Texts(got))
	assert.Equal(t, 1, src.calls)
}
