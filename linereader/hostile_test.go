package linereader

// Hostile inputs: endless input (/dev/zero, endless newlines) with and without
// MaxRecord, every byte value and invalid UTF-8, a FIFO, a directory, a missing or
// unreadable file, and (with FOREACH_HEAVY=1 only) a single line of a gigabyte or more.
// Memory is checked through the buffer's own accounting (Stats.Buffer.PeakCap), which is
// exact and does not depend on the garbage collector's timing.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/foreachio/foreach/internal/testkit/testfifo"

	"github.com/stretchr/testify/require"
)

// endlessReader repeats pattern until total bytes have been delivered, then fails with
// errFault (so that an engine that never stops on its own still ends the test).
type endlessReader struct {
	pattern []byte
	total   int64
	off     int64
	block   []byte // the pattern repeated, for copies of more than a few bytes at a time
}

func (e *endlessReader) Read(p []byte) (int, error) {
	if e.off >= e.total {
		return 0, errFault
	}
	if e.block == nil {
		e.block = bytes.Repeat(e.pattern, max(1, (64<<10)/len(e.pattern)))
	}
	n := 0
	for n < len(p) && e.off < e.total {
		i := int(e.off % int64(len(e.pattern)))
		k := copy(p[n:min(len(p), n+int(e.total-e.off))], e.block[i:])
		n += k
		e.off += int64(k)
	}
	return n, nil
}

// /dev/zero has no separator: with MaxRecord it fails with *TooLongError after reading
// about MaxRecord bytes, through every iterator, and the buffer stays within a small
// multiple of MaxRecord.
func TestHostileDevZeroMaxRecord(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	const maxRec = 1 << 20
	for _, opt := range []Options{
		{MaxRecord: maxRec},
		{MaxRecord: maxRec, BufferSize: 4096},
		{MaxRecord: maxRec, Sep: []byte("\r\n"), Chomp: true},
		{MaxRecord: maxRec, Paragraph: true},
		{MaxRecord: maxRec, Whole: true},
	} {
		for _, how := range []string{"Next", "Lines", "Batches", "Views"} {
			r, err := Open("/dev/zero", opt)
			require.NoError(t, err)
			// Reading gives up at the first record: endless records fail the test, not hang it.
			got, _ := ReadAtMost(r, how, 0)
			what := fmt.Sprintf("%+v %s", opt, how)
			require.Zero(t, len(got), what)
			var tl *TooLongError
			require.ErrorAs(t, r.Err(), &tl, what)
			require.Equal(t, TooLongError{Offset: 0, LineNo: 1, Max: maxRec}, *tl, what)
			st := r.Stats()
			require.LessOrEqual(t, st.Buffer.PeakCap, 2*maxRec+2*newConfig(opt).readSize, "%s: buffer peak", what)
			require.NoError(t, r.Close())
		}
	}
	// Count and Foreach fail the same way.
	_, err := Count("/dev/zero", Options{MaxRecord: maxRec}, 2)
	var tl *TooLongError
	require.ErrorAs(t, err, &tl)
	err = Foreach("/dev/zero", Options{MaxRecord: maxRec}, func([]byte) error { return nil })
	require.ErrorAs(t, err, &tl)
}

// Endless input that does split into records (or into nothing) keeps the buffer at its
// initial size: paragraph mode over endless newlines skips them all, a Limit cuts
// endless zeros into pieces, and "ab" runs end records of two bytes.
func TestHostileEndlessInputBoundedBuffer(t *testing.T) {
	const total = 1 << 20
	for _, tc := range []struct {
		pattern string
		opt     Options
		records int64
	}{
		{"\n", Options{Paragraph: true}, 0},
		{"\n", Options{Paragraph: true, MaxRecord: 10, BufferSize: 1000}, 0},
		{"\x00", Options{Limit: 100, BufferSize: 4096}, total / 100},
		{"\x00", Options{Whole: true, Limit: 1 << 16}, total >> 16},
		{"ab", Options{Sep: []byte("ab"), BufferSize: 512}, total / 2},
		{"\r\r\n", Options{Sep: []byte("\r\n"), Chomp: true}, total / 3},
	} {
		what := fmt.Sprintf("%q %+v", tc.pattern, tc.opt)
		r := New(&endlessReader{pattern: []byte(tc.pattern), total: total}, tc.opt)
		var n int64
		for r.Next() {
			n++
		}
		require.ErrorIs(t, r.Err(), errFault, what)
		st := r.Stats()
		require.Equal(t, int64(total), st.Bytes, what)
		// The last piece of a Limit cut may be shorter; it is still a record.
		require.InDelta(t, tc.records, n, 1, what)
		require.LessOrEqual(t, st.Buffer.PeakCap, 2*newConfig(tc.opt).readSize, "%s: the buffer grew on endless but splittable input", what)
	}
}

// Every byte value, NUL included, and invalid UTF-8 (overlong forms, surrogates, lone
// continuation bytes, a truncated 4-byte sequence, bytes that never occur in UTF-8) pass
// through byte for byte, with every option that does not drop separators.
func TestHostileAllBytesAndInvalidUTF8(t *testing.T) {
	var in []byte
	for i := range 256 {
		in = append(in, byte(i))
	}
	for i := 255; i >= 0; i -= 3 {
		in = append(in, byte(i), '\n', 0)
	}
	in = append(in, "\xC0\xAF\xE0\x80\xAF\xED\xA0\x80\xED\xBF\xBF\x80\xBF\xF0\x9F\x98\xF8\x88\x80\x80\x80\xFE\xFF\n\x00\x00\r\n\xF4\x90\x80\x80\xE3\x81"...)
	for _, opt := range []Options{
		{}, {Sep: []byte{0}}, {Sep: []byte("\x00\n")}, {Sep: []byte("\xFF\xFE")},
		{Limit: 3, UTF8: true}, {Limit: 1, UTF8: true, Sep: []byte{0x80}}, {Whole: true, Limit: 5, UTF8: true}, {Whole: true},
	} {
		for _, bs := range []int{1, 2, 3, 4, 64, 0} {
			opt.BufferSize = bs
			r := New(bytes.NewReader(in), opt)
			var got []byte
			for r.Next() {
				got = append(got, r.Bytes()...)
			}
			require.NoError(t, r.Err())
			require.True(t, bytes.Equal(in, got), "%+v: output differs from the input", opt)
		}
	}
}

// A FIFO is read as a stream, in whatever pieces the writer sends, never ahead.
func TestHostileFIFO(t *testing.T) {
	name := testfifo.Make(t, "fifo")
	in := numberedLines(3000)
	for _, how := range []string{"Lines", "Batches", "Foreach"} {
		done := make(chan error, 1)
		go func() {
			w, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				done <- err
				return
			}
			for p := in; len(p) > 0 && err == nil; p = p[min(len(p), 1000):] {
				_, err = w.Write(p[:min(len(p), 1000)]) // pieces that cut lines
			}
			w.Close()
			done <- err
		}()
		var got bytes.Buffer
		n := 0
		switch how {
		case "Foreach":
			require.NoError(t, Foreach(name, Options{BufferSize: 333}, func(rec []byte) error {
				got.Write(rec)
				n++
				return nil
			}))
		default:
			r, err := Open(name, Options{BufferSize: 333})
			require.NoError(t, err)
			recs, err := ReadAll(r, how)
			for _, rec := range recs {
				got.WriteString(rec.Rec)
			}
			n = len(recs)
			require.NoError(t, err)
			require.NoError(t, r.Close())
		}
		require.NoError(t, <-done)
		require.Equal(t, 3000, n, how)
		require.True(t, bytes.Equal(in, got.Bytes()), how)
	}
}

// A directory opens on Linux but cannot be read: the first Next returns false and Err
// says why; Foreach and Count return the error. Nothing panics.
func TestHostileDirectory(t *testing.T) {
	dir := t.TempDir()
	r, err := Open(dir, Options{})
	if err != nil {
		require.ErrorIs(t, err, syscall.EISDIR)
		return
	}
	for range r.Lines() {
		t.Fatal("a record from a directory")
	}
	require.ErrorIs(t, r.Err(), syscall.EISDIR)
	require.NoError(t, r.Close())
	require.ErrorIs(t, Foreach(dir, Options{}, func([]byte) error { return nil }), syscall.EISDIR)
	_, err = Count(dir, Options{}, 2)
	require.ErrorIs(t, err, syscall.EISDIR)
}

func TestHostileMissingAndUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	err := Foreach(missing, Options{}, func([]byte) error { return nil })
	require.ErrorIs(t, err, fs.ErrNotExist)
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)

	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	secret := filepath.Join(dir, "secret")
	require.NoError(t, os.WriteFile(secret, []byte("a\n"), 0o000))
	_, err = Open(secret, Options{})
	require.ErrorIs(t, err, fs.ErrPermission)
	require.ErrorIs(t, Foreach(secret, Options{}, func([]byte) error { return nil }), fs.ErrPermission)
	_, err = Count(secret, Options{}, 2)
	require.ErrorIs(t, err, fs.ErrPermission)
}

// A single line of a gigabyte (FOREACH_HEAVY=1; FOREACH_HEAVY_SIZE sets the size in bytes,
// 1 GiB by default). It logs the time, the buffer's peak and growths, and the memory the
// process obtained from the system; docs/RELIABILITY.md has the figures.
func TestHostileHeavyGigabyteLine(t *testing.T) {
	if os.Getenv("FOREACH_HEAVY") != "1" {
		t.Skip("set FOREACH_HEAVY=1 to read a line of a gigabyte")
	}
	size := int64(1 << 30)
	if s := os.Getenv("FOREACH_HEAVY_SIZE"); s != "" {
		var err error
		size, err = strconv.ParseInt(s, 10, 64)
		require.NoError(t, err)
	}
	for _, how := range []string{"Next", "Lines"} {
		runtime.GC()
		src := io.MultiReader(&stopAtFault{&endlessReader{pattern: []byte("x"), total: size}}, bytes.NewReader([]byte("\ntail\n")))
		r := New(src, Options{})
		begin := time.Now()
		var lens []int
		if how == "Next" {
			for r.Next() {
				lens = append(lens, len(r.Bytes()))
			}
		} else {
			for rec := range r.Lines() {
				lens = append(lens, len(rec))
			}
		}
		elapsed := time.Since(begin)
		require.NoError(t, r.Err())
		require.Equal(t, []int{int(size) + 1, 5}, lens)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		st := r.Stats()
		t.Logf("%s: line of %d bytes in %v (%.0f MB/s); buffer peak %d MiB, %d growths, %d MiB moved; process Sys %d MiB",
			how, size, elapsed.Round(time.Millisecond), float64(size)/elapsed.Seconds()/1e6,
			st.Buffer.PeakCap>>20, st.Buffer.Grows, st.Buffer.BytesMoved>>20, ms.Sys>>20)
		require.LessOrEqual(t, int64(st.Buffer.PeakCap), 2*size+2*DefaultBufferSize)
	}
}

// stopAtFault turns endlessReader's errFault at its end into io.EOF, so that the
// multi-reader goes on to the next part.
type stopAtFault struct{ r io.Reader }

func (s *stopAtFault) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if errors.Is(err, errFault) {
		err = io.EOF
	}
	return n, err
}
