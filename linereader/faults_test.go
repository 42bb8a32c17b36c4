package linereader

// Faults of the source, beyond readpatterns_test.go: an error at *every* offset of a
// multi-record input (for several option sets, buffer sizes and ways of delivering the
// bytes, through Next, Views, Lines, Batches and Pieces), a timeout, io.ErrUnexpectedEOF
// from a truncated gzip stream, bursts of empty reads just under the io.ErrNoProgress
// threshold, and a file truncated or grown while it is read.
//
// The property everywhere: every byte the source delivered is yielded exactly once, in
// order, as the same records a clean read of those bytes gives; the error comes out of
// Err; and the source is never read again after it returned an error or io.EOF.

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

var errFault = errors.New("fault: injected read error")

// faultText has records of every kind: CRLF and lone CR, runs of blank lines, multi-byte
// and invalid UTF-8, NUL bytes, self-overlapping "ab" runs, and no final newline.
const faultText = "alpha\nbe\r\n\r\n\n\ngamma ab aba\x00\xE3\x81\x82\xFF\n\n\n\ndelta abab\n\x00\x00\nepsilon\r\rzeta"

var faultOptions = []Options{
	{},
	{Chomp: true},
	{Sep: []byte("ab")},
	{Sep: []byte("\r\n"), Chomp: true},
	{Paragraph: true},
	{Paragraph: true, Chomp: true},
	{Whole: true, Limit: 4},
	{Limit: 3, UTF8: true},
	{MaxRecord: 12},
}

// faultSource delivers data according to mode, then fails with err forever. It counts
// the reads made after it first returned an error (afterErr), which must stay 0.
type faultSource struct {
	data     []byte
	mode     int // 0: as much as asked; 1: one byte per read; 2: the last bytes with the error; 3: an empty read before each byte
	err      error
	failed   bool
	empty    bool
	afterErr int
}

func (s *faultSource) Read(p []byte) (int, error) {
	if s.failed {
		s.afterErr++
		return 0, s.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if len(s.data) == 0 {
		s.failed = true
		return 0, s.err
	}
	n := len(p)
	switch s.mode {
	case 1:
		n = 1
	case 3:
		if s.empty = !s.empty; s.empty {
			return 0, nil
		}
		n = 1
	}
	n = copy(p[:n], s.data)
	s.data = s.data[n:]
	if s.mode == 2 && len(s.data) == 0 {
		s.failed = true
		return n, s.err
	}
	return n, nil
}

var faultModes = []string{"whole reads", "one byte per read", "data with error", "empty read between bytes"}

// faultRun reads src through one of the ways the caller can iterate.
func faultRun(src io.Reader, opt Options, how string) ([]Seen, error) {
	got, err := ReadAll(New(src, opt), how)
	return Joined(got), err
}

func TestFaultErrorAtEveryOffset(t *testing.T) {
	in := []byte(faultText)
	for _, opt := range faultOptions {
		for _, bs := range []int{1, 2, 5, 0} {
			opt.BufferSize = bs
			for k := 0; k <= len(in); k++ {
				want, wantStats, cleanErr := plainRecords(in[:k], opt, bytesSource)
				for mode, mname := range faultModes {
					for _, how := range []string{"Next", "Views", "Lines", "Batches", "Pieces"} {
						if how != "Next" && mode != 0 && bs != 2 {
							continue // the other iterators on a subset, to keep this test short
						}
						what := fmt.Sprintf("%s, BufferSize %d, error after %d bytes, %s, %s", faultDescribe(opt), bs, k, mname, how)
						src := &faultSource{data: in[:k], mode: mode, err: errFault}
						got, err := faultRun(src, opt, how)
						requireSame(t, want, got, what)
						if cleanErr != nil {
							require.Equal(t, cleanErr, err, what) // a *TooLongError, equal field by field
						} else {
							require.ErrorIs(t, err, errFault, what)
						}
						require.Zero(t, src.afterErr, "%s: read again after an error", what)
						if !opt.Chomp && !opt.Paragraph && opt.MaxRecord == 0 {
							require.Equal(t, string(in[:k]), faultJoin(got), "%s: delivered bytes lost or repeated", what)
						}
					}
				}
				if opt.MaxRecord == 0 {
					// Stats.Bytes counts every delivered byte, the error notwithstanding.
					r := New(&faultSource{data: in[:k], err: errFault}, opt)
					for r.Next() {
					}
					require.Equal(t, wantStats.Bytes, r.Stats().Bytes)
					require.Equal(t, int64(k), r.Stats().Bytes)
				}
			}
		}
	}
}

func faultJoin(recs []Seen) string {
	var b bytes.Buffer
	for _, s := range recs {
		b.WriteString(s.Rec)
	}
	return b.String()
}

func faultDescribe(opt Options) string {
	return fmt.Sprintf("%+v", opt)
}

// io.EOF delivered early by a source that would have more (a terminal after ^D): the
// engine must not read past it, or a terminal would block waiting for a second ^D.
func TestFaultNoReadAfterEOF(t *testing.T) {
	in := []byte(faultText)
	for _, opt := range faultOptions {
		for _, mode := range []int{0, 1, 2} {
			src := &faultSource{data: in, mode: mode, err: io.EOF}
			got, err := faultRun(src, opt, "Next")
			want, _, wantErr := plainRecords(in, opt, bytesSource)
			require.Equal(t, want, got)
			require.Equal(t, wantErr, err)
			require.Zero(t, src.afterErr, "%s mode %d: Read called after io.EOF", faultDescribe(opt), mode)
		}
	}
}

// iotest.TimeoutReader fails its second read with iotest.ErrTimeout and no data: the
// bytes of the first read are yielded, then Err is the timeout (not io.EOF, not nil).
func TestFaultTimeoutReader(t *testing.T) {
	in := []byte(faultText)
	for _, opt := range faultOptions {
		for _, bs := range []int{1, 3, 16, 0} {
			opt.BufferSize = bs
			first := min(len(in), newConfig(opt).readSize)
			want, _, cleanErr := plainRecords(in[:first], opt, bytesSource)
			for _, how := range []string{"Next", "Views", "Lines", "Batches", "Pieces"} {
				got, err := faultRun(iotest.TimeoutReader(bytes.NewReader(in)), opt, how)
				what := fmt.Sprintf("%s %s", faultDescribe(opt), how)
				requireSame(t, want, got, what)
				if cleanErr != nil {
					require.Equal(t, cleanErr, err, what)
				} else {
					require.ErrorIs(t, err, iotest.ErrTimeout, what)
				}
			}
		}
	}
}

// A gzip stream cut short fails with io.ErrUnexpectedEOF after the bytes it could
// decompress: those are yielded as a prefix of the whole text, and Err is
// io.ErrUnexpectedEOF, never mistaken for a clean end.
func TestFaultTruncatedGzipUnexpectedEOF(t *testing.T) {
	in := bytes.Repeat([]byte(faultText+"\n"), 60)
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.NoCompression) // stored blocks: many cut points yield data
	zw.Write(in)
	require.NoError(t, zw.Close())
	whole := z.Bytes()
	unexpected := 0
	for cut := 20; cut < len(whole); cut += 61 {
		zr, err := gzip.NewReader(bytes.NewReader(whole[:cut]))
		if err != nil {
			continue // the header itself is cut
		}
		for _, opt := range []Options{{}, {BufferSize: 7}, {Limit: 5, BufferSize: 3}} {
			zr.Reset(bytes.NewReader(whole[:cut]))
			r := New(zr, opt)
			var got bytes.Buffer
			for r.Next() {
				got.Write(r.Bytes())
			}
			require.True(t, bytes.HasPrefix(in, got.Bytes()), "cut %d: yielded bytes are not a prefix of the text", cut)
			require.Error(t, r.Err(), "cut %d: a truncated stream read as a clean end", cut)
			require.False(t, errors.Is(r.Err(), io.EOF), "cut %d: Err is io.EOF", cut)
			if errors.Is(r.Err(), io.ErrUnexpectedEOF) {
				unexpected++
			}
		}
	}
	require.Greater(t, unexpected, 10, "io.ErrUnexpectedEOF hardly ever seen")
}

// emptyBurstReader returns burst empty reads (0, nil) before every byte it delivers.
type emptyBurstReader struct {
	data  []byte
	burst int
	n     int
}

func (e *emptyBurstReader) Read(p []byte) (int, error) {
	if len(e.data) == 0 {
		return 0, io.EOF
	}
	if e.n < e.burst {
		e.n++
		return 0, nil
	}
	e.n = 0
	n := copy(p[:1], e.data)
	e.data = e.data[n:]
	return n, nil
}

// Up to maxEmptyReads-1 empty reads in a row are patience, not an error: the count
// starts over after every read that delivers data. maxEmptyReads in a row is
// io.ErrNoProgress, after every byte delivered before them.
func TestFaultEmptyReadBursts(t *testing.T) {
	in := []byte(faultText)
	for _, opt := range []Options{{}, {Sep: []byte("ab")}, {Paragraph: true}, {Limit: 3, UTF8: true}} {
		want, _, _ := plainRecords(in, opt, bytesSource)
		for _, how := range []string{"Next", "Lines"} {
			got, err := faultRun(&emptyBurstReader{data: in, burst: maxEmptyReads - 1}, opt, how)
			require.NoError(t, err, "%s %s", faultDescribe(opt), how)
			require.Equal(t, want, got, "%s %s", faultDescribe(opt), how)
		}
		// The whole input, then endless empty reads.
		got, err := faultRun(&stuckSource{data: in}, opt, "Lines")
		require.ErrorIs(t, err, io.ErrNoProgress)
		require.Equal(t, want, got)
	}
}

// stuckSource delivers its data, then 0, nil for ever (a fail-safe error after a million
// reads turns a hang into a failure).
type stuckSource struct {
	data  []byte
	empty int
}

func (s *stuckSource) Read(p []byte) (int, error) {
	if len(s.data) > 0 {
		n := copy(p, s.data)
		s.data = s.data[n:]
		return n, nil
	}
	if s.empty++; s.empty > 1_000_000 {
		return 0, errors.New("stuckSource: the engine never gave up")
	}
	return 0, nil
}

// numberedLines is n lines of 64 bytes, each naming its own offset, so that a byte out of
// place shows.
func numberedLines(n int) []byte {
	b := make([]byte, 0, 64*n)
	for i := range n {
		b = fmt.Appendf(b, "%015d %047d\n", 64*i, i)
	}
	return b
}

// A file truncated while it is read: what is yielded is a prefix of what the file held,
// with no error (a shorter file reads as an earlier end), and never bytes that were not
// in it.
func TestFaultFileTruncatedWhileRead(t *testing.T) {
	in := numberedLines(80_000) // 5.1 MB: many buffers' worth
	name := filepath.Join(t.TempDir(), "shrinks")
	for _, tc := range []struct {
		how    string
		cutAt  int   // records into the loop
		newLen int64 // the file's new size
	}{
		{"Lines", 1, int64(len(in)/2 + 5)},
		{"Lines", 20_000, 0},
		{"Batches", 1, int64(len(in)/3 + 7)},
		{"Next", 10, 1000},
	} {
		require.NoError(t, os.WriteFile(name, in, 0o644))
		r, err := Open(name, Options{BufferSize: 4096})
		require.NoError(t, err)
		var got bytes.Buffer
		n := 0
		ReadSteps(r, tc.how, func(recs [][]byte) bool {
			for _, rec := range recs {
				got.Write(rec)
				if n++; n == tc.cutAt {
					require.NoError(t, os.Truncate(name, tc.newLen))
				}
			}
			return true
		})
		what := fmt.Sprintf("%s, truncated to %d after %d records", tc.how, tc.newLen, tc.cutAt)
		require.NoError(t, r.Err(), what)
		require.True(t, bytes.HasPrefix(in, got.Bytes()), "%s: yielded bytes that the file never held", what)
		require.GreaterOrEqual(t, int64(got.Len()), min(tc.newLen, int64(64*tc.cutAt)), what)
		require.Equal(t, int64(got.Len()), r.Stats().Bytes, what)
		require.NoError(t, r.Close())
	}
}

// A file that grows while it is read: the bytes appended before the reader reaches
// the end are read, the rest are not; either way the records are a prefix of the final
// content and cover at least the original file.
func TestFaultFileGrowsWhileRead(t *testing.T) {
	in := numberedLines(20_000)
	more := numberedLines(40_000)[len(in):]
	name := filepath.Join(t.TempDir(), "grows")
	for _, how := range []string{"Lines", "Next"} {
		require.NoError(t, os.WriteFile(name, in, 0o644))
		r, err := Open(name, Options{BufferSize: 4096})
		require.NoError(t, err)
		var got bytes.Buffer
		n := 0
		step := func(rec []byte) {
			got.Write(rec)
			if n++; n == 10 {
				f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
				require.NoError(t, err)
				_, err = f.Write(more)
				require.NoError(t, err)
				require.NoError(t, f.Close())
			}
		}
		if how == "Lines" {
			for rec := range r.Lines() {
				step(rec)
			}
		} else {
			for r.Next() {
				step(r.Bytes())
			}
		}
		require.NoError(t, r.Err(), how)
		final := append(bytes.Clone(in), more...)
		require.True(t, bytes.HasPrefix(final, got.Bytes()), "%s: yielded bytes that the file never held", how)
		require.GreaterOrEqual(t, got.Len(), len(in), how)
		require.NoError(t, r.Close())
	}
}
