package linereader_test

// The same expectations through every way a source can deliver its bytes: read sizes of 1, 2,
// 3, 7, 64 and the default, one byte per Read, half reads, data returned together with
// io.EOF, short random reads (with the occasional empty read), errors in the middle of a
// record, and a source that never makes progress.

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// sampleText is shared by the read-pattern tests: CRLF and lone CR, blank-line runs for
// paragraph mode, multi-byte UTF-8, separators that overlap themselves, no final newline.
const sampleText = "one\ntwo\r\nthree\r\r\n\n\nfour\xE3\x81\x82five\n\n\n\nsix ab aba ababa\n\xF0\x9F\x98\x80\xFF\nlast"

var sampleOptions = []linereader.Options{
	{},
	{Chomp: true},
	{Sep: sep("ab")},
	{Sep: sep("aba"), Limit: 4},
	{Sep: sep("\r\n"), Chomp: true},
	{Paragraph: true},
	{Paragraph: true, Chomp: true},
	{Paragraph: true, Limit: 5},
	{Whole: true},
	{Whole: true, Limit: 3},
	{Limit: 3},
	{Limit: 2, UTF8: true, Chomp: true},
	{Limit: 5, UTF8: true, Sep: sep("e")},
}

// randomReader returns between 0 and max bytes per Read, at random (reproducibly): short
// reads, and now and then an empty read with a nil error, which io.Reader allows.
type randomReader struct {
	r   io.Reader
	rng *rand.Rand
	max int
}

func (rr *randomReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if rr.rng.IntN(8) == 0 {
		return 0, nil
	}
	n := 1 + rr.rng.IntN(min(len(p), rr.max))
	return rr.r.Read(p[:n])
}

// dataErrReader returns the last of its data together with err, like iotest.DataErrReader
// but with any error.
type dataErrReader struct {
	data string
	err  error
}

func (d *dataErrReader) Read(p []byte) (int, error) {
	n := copy(p, d.data)
	d.data = d.data[n:]
	if d.data == "" {
		return n, d.err
	}
	return n, nil
}

// readPatterns wrap a fresh source of the given text.
var readPatterns = []struct {
	name string
	wrap func(s string, seed uint64) io.Reader
}{
	{"plain", func(s string, _ uint64) io.Reader { return strings.NewReader(s) }},
	{"OneByteReader", func(s string, _ uint64) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
	{"HalfReader", func(s string, _ uint64) io.Reader { return iotest.HalfReader(strings.NewReader(s)) }},
	{"DataErrReader", func(s string, _ uint64) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) }},
	{"random short reads", func(s string, seed uint64) io.Reader {
		return &randomReader{r: strings.NewReader(s), rng: rand.New(rand.NewPCG(seed, 7)), max: 5}
	}},
	{"data with EOF", func(s string, _ uint64) io.Reader { return &dataErrReader{data: s, err: io.EOF} }},
}

func TestReadPatternsSampleDefault(t *testing.T) {
	// Written out by hand, so that this test does not depend on the reference splitter.
	want := []string{"one\n", "two\r\n", "three\r\r\n", "\n", "\n", "four\xE3\x81\x82five\n", "\n", "\n", "\n",
		"six ab aba ababa\n", "\xF0\x9F\x98\x80\xFF\n", "last"}
	require.Equal(t, want, linereader.Texts(refSplit([]byte(sampleText), linereader.Options{})))
	for _, p := range readPatterns {
		for _, bs := range bufferSizes {
			r := linereader.New(p.wrap(sampleText, uint64(bs)), linereader.Options{BufferSize: bs})
			got, err := linereader.ReadAtMost(r, "Next", 1000)
			require.NoError(t, err, "%s BufferSize %d", p.name, bs)
			assert.Equal(t, want, linereader.Texts(got), "%s BufferSize %d", p.name, bs)
		}
	}
}

func TestReadPatterns(t *testing.T) {
	for _, opt := range sampleOptions {
		want := refSplit([]byte(sampleText), opt)
		for _, p := range readPatterns {
			for _, bs := range bufferSizes {
				t.Run(fmt.Sprintf("%s/%s/%d", describeOptions(opt), p.name, bs), func(t *testing.T) {
					o := opt
					o.BufferSize = bs
					r := linereader.New(p.wrap(sampleText, uint64(bs)), o)
					got, err := linereader.ReadAtMost(r, "Next", 1000)
					require.NoError(t, err)
					require.Equal(t, want, got)
					st := r.Stats()
					assert.Equal(t, int64(len(want)), st.Records, "Stats.Records")
					assert.Equal(t, int64(len(sampleText)), st.Bytes, "Stats.Bytes")
					assert.Equal(t, refMaxRecord(want), st.MaxRecord, "Stats.MaxRecord")
				})
			}
		}
	}
}

func TestLongLineSmallBuffer(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 1<<14) // 256 KiB
	in := "a\n" + long + "\nb\n" + long
	for _, bs := range []int{1, 16, 4096, 0} {
		r := linereader.New(strings.NewReader(in), linereader.Options{BufferSize: bs})
		var got []string
		for r.Next() {
			got = append(got, r.Text())
		}
		require.NoError(t, r.Err())
		require.Equal(t, []string{"a\n", long + "\n", "b\n", long}, got, "BufferSize %d", bs)
	}
}

// An error in the middle of a record: every byte delivered before it is yielded, the bytes
// with no terminator as a last partial record, then Err is that error.
func TestReadErrorMidRecord(t *testing.T) {
	tests := []struct {
		name string
		data string
		opt  linereader.Options
		want []string
	}{
		{"partial line", "ab\ncd", linereader.Options{}, []string{"ab\n", "cd"}},
		{"error at record boundary", "ab\ncd\n", linereader.Options{}, []string{"ab\n", "cd\n"}},
		{"no data", "", linereader.Options{}, nil},
		{"partial crlf", "ab\r", linereader.Options{Chomp: true}, []string{"ab\r"}},
		{"partial multi byte sep", "x<se", linereader.Options{Sep: sep("<sep>")}, []string{"x<se"}},
		{"paragraph", "a\n\nb\n", linereader.Options{Paragraph: true}, []string{"a\n\n", "b\n"}},
		{"whole", "a\nb", linereader.Options{Whole: true}, []string{"a\nb"}},
		{"limit", "abcde", linereader.Options{Limit: 2}, []string{"ab", "cd", "e"}},
		{"utf8 incomplete at error", "a\xE3\x81", linereader.Options{Limit: 1, UTF8: true}, []string{"a", "\xE3\x81"}},
	}
	sources := map[string]func(data string) io.Reader{
		"then error": func(data string) io.Reader {
			return io.MultiReader(strings.NewReader(data), iotest.ErrReader(errBoom))
		},
		"data with error": func(data string) io.Reader { return &dataErrReader{data: data, err: errBoom} },
		"one byte then error": func(data string) io.Reader {
			return io.MultiReader(iotest.OneByteReader(strings.NewReader(data)), iotest.ErrReader(errBoom))
		},
	}
	for _, tc := range tests {
		for sname, src := range sources {
			for _, bs := range bufferSizes {
				t.Run(fmt.Sprintf("%s/%s/%d", tc.name, sname, bs), func(t *testing.T) {
					opt := tc.opt
					opt.BufferSize = bs
					r := linereader.New(src(tc.data), opt)
					got, err := linereader.ReadAtMost(r, "Next", 100)
					assert.Equal(t, tc.want, linereader.Texts(got), "records before the error")
					assert.ErrorIs(t, err, errBoom)
				})
			}
		}
	}
}

// stuckReader delivers its data, then returns 0, nil forever. As a fail-safe it returns
// errGaveUp after a million empty reads, so that an engine that never gives up still ends.
type stuckReader struct {
	data  string
	empty int
}

var errGaveUp = errors.New("stuckReader: a million empty reads, the engine never gave up")

func (s *stuckReader) Read(p []byte) (int, error) {
	if s.data != "" {
		n := copy(p, s.data)
		s.data = s.data[n:]
		return n, nil
	}
	s.empty++
	if s.empty > 1_000_000 {
		return 0, errGaveUp
	}
	return 0, nil
}

// A source that returns 0, nil forever must end with io.ErrNoProgress, as bufio does after
// 100 empty reads, after yielding what it did deliver. The goroutine and its generous
// deadline only turn a hang into a failure; nothing here measures speed.
func TestEndlessEmptyReadsErrNoProgress(t *testing.T) {
	for _, bs := range []int{1, 3, 0} {
		type result struct {
			recs []linereader.Seen
			err  error
		}
		done := make(chan result, 1)
		src := &stuckReader{data: "ab\nc"}
		go func() {
			r := linereader.New(src, linereader.Options{BufferSize: bs})
			recs, err := linereader.ReadAtMost(r, "Next", 100)
			done <- result{recs, err}
		}()
		select {
		case res := <-done:
			assert.Equal(t, []string{"ab\n", "c"}, linereader.Texts(res.recs), "BufferSize %d", bs)
			assert.ErrorIs(t, res.err, io.ErrNoProgress, "BufferSize %d", bs)
		case <-time.After(60 * time.Second):
			t.Fatalf("BufferSize %d: Next still looping on a source that returns 0, nil forever", bs)
		}
	}
}
