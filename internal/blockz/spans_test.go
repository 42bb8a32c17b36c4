package blockz_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/foreachio/foreach/internal/blockz"
)

// failingAt is a ReaderAt of data that fails from offset bad on.
type failingAt struct {
	data []byte
	bad  int64
}

var errBad = errors.New("bad bytes")

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.bad {
		return 0, errBad
	}
	n := copy(p, f.data[off:min(int64(len(f.data)), f.bad)])
	if n < len(p) {
		if off+int64(n) >= int64(len(f.data)) {
			return n, io.EOF
		}
		return n, errBad
	}
	return n, nil
}

// spanConfigs are the Options the span reader is read with: one worker, two,
// more workers than cores with a small window, and runs held in chunks
// (JobMemory below a span's size).
var spanConfigs = []blockz.Options{
	{Workers: 1},
	{Workers: 2},
	{Workers: 4, Window: 2},
	{Workers: 3, Window: 5, JobMemory: 300 << 10},
}

// TestSpanReader reads a text of several runs (points far enough apart to
// make them, and close ones merged) through the span reader with every
// config and reads of random sizes: the bytes in order, then the end
// given; a failing ReadAt gives every byte before it, then its error (read
// again alone from its span's start); Close midway stops the workers.
func TestSpanReader(t *testing.T) {
	defer goleak.VerifyNone(t)
	rng := rand.New(rand.NewPCG(4, 39))
	size := 21<<20 + 12345
	if raceEnabled {
		size /= 4
	}
	data := make([]byte, size)
	rand.NewChaCha8([32]byte{4, 39}).Read(data)
	var points []int64
	for p := int64(0); p < int64(size); p += int64(rng.IntN(3<<20)) + 1 {
		points = append(points, p)
	}
	trailing := errors.New("the end")
	opts := spanConfigs
	if raceEnabled {
		opts = spanConfigs[1:3]
	}
	for _, opt := range opts {
		what := fmt.Sprintf("%+v", opt)
		s := blockz.NewSpanReader(bytes.NewReader(data), int64(size), points, trailing, opt)
		got, err := readSmall(s, rng)
		if !bytes.Equal(got, data) || err != trailing || blockz.Replays(s) != 0 {
			t.Errorf("%s: %d bytes, %v, %d replays; want %d, %v", what, len(got), err, blockz.Replays(s), size, trailing)
		}
		s.Close()

		bad := int64(rng.IntN(size))
		s = blockz.NewSpanReader(failingAt{data, bad}, int64(size), points, nil, opt)
		got, err = readSmall(s, rng)
		if int64(len(got)) != bad || !bytes.Equal(got, data[:bad]) || !errors.Is(err, errBad) {
			t.Errorf("%s, failing at %d: %d bytes, %v", what, bad, len(got), err)
		}
		s.Close()

		s = blockz.NewSpanReader(bytes.NewReader(data), int64(size), points, nil, opt)
		io.CopyN(io.Discard, s, int64(size)/4)
		s.Close()
		if n, err := s.Read(make([]byte, 10)); n != 0 || err == nil {
			t.Errorf("%s: a read after Close: %d, %v", what, n, err)
		}
	}
}

// TestSpanReaderEdges: an empty text gives its end at once; a text with no
// points, or points out of order and past its size, is read whole; a text
// shorter than its size ends with an unexpected end of data after its bytes.
func TestSpanReaderEdges(t *testing.T) {
	defer goleak.VerifyNone(t)
	end := errors.New("end")
	s := blockz.NewSpanReader(bytes.NewReader(nil), 0, nil, end, blockz.Options{Workers: 2})
	if n, err := s.Read(make([]byte, 5)); n != 0 || err != end {
		t.Errorf("empty text: %d, %v", n, err)
	}
	s.Close()
	data := bytes.Repeat([]byte("0123456789\n"), 100_000)
	for _, points := range [][]int64{nil, {0}, {5, 3, 1 << 40, 700_000}} {
		s := blockz.NewSpanReader(bytes.NewReader(data), int64(len(data)), points, nil, blockz.Options{Workers: 2})
		got, err := io.ReadAll(s)
		if !bytes.Equal(got, data) || err != nil {
			t.Errorf("points %v: %d bytes, %v", points, len(got), err)
		}
		s.Close()
	}
	s = blockz.NewSpanReader(bytes.NewReader(data), int64(len(data))+10, []int64{500_000}, nil, blockz.Options{Workers: 2})
	got, err := io.ReadAll(s)
	if !bytes.Equal(got, data) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a short text: %d bytes, %v", len(got), err)
	}
	s.Close()
}

// panicAt is a ReaderAt of data that panics at a read past offset bad,
// closing panicking first (once) when it is not nil.
type panicAt struct {
	data       []byte
	bad        int64
	panicking  chan struct{}
	signalOnce *sync.Once
}

func (p panicAt) ReadAt(b []byte, off int64) (int, error) {
	if off+int64(len(b)) > p.bad {
		if p.panicking != nil {
			p.signalOnce.Do(func() { close(p.panicking) })
		}
		panic("the injected panic")
	}
	return bytes.NewReader(p.data).ReadAt(b, off)
}

// TestWorkerPanic: a panic in a worker (its ReadAt, here, as in a decoder)
// is raised again in the reading goroutine, with the worker's stack, after
// every byte before its run; the workers are all stopped by then. A panic
// the reading does not reach (Close before it) is Close's error.
func TestWorkerPanic(t *testing.T) {
	defer goleak.VerifyNone(t)
	mib := 1 << 20 // spans of 4 MiB: runs of their own
	data := bytes.Repeat([]byte("0123456789abcdef"), mib)
	points := []int64{0, int64(4 * mib), int64(8 * mib), int64(12 * mib)}
	opts := spanConfigs
	if raceEnabled {
		opts = spanConfigs[3:]
	}
	for _, opt := range opts {
		s := blockz.NewSpanReader(panicAt{data: data, bad: int64(9 * mib)}, int64(len(data)), points, nil, opt)
		var got []byte
		v := func() (v any) {
			defer func() { v = recover() }()
			buf := make([]byte, 64<<10)
			for {
				n, err := s.Read(buf)
				got = append(got, buf[:n]...)
				if err != nil {
					return nil
				}
			}
		}()
		msg, _ := v.(string)
		if !strings.Contains(msg, "the injected panic") || !strings.Contains(msg, "in a blockz worker") {
			t.Fatalf("%+v: recovered %v", opt, v)
		}
		// Every byte before the panicking read, which may be the run's
		// first (at 8 MiB) or a chunk of it (at 9 MiB, in runs held in
		// chunks of 1 MiB).
		if len(got) < 8*mib || len(got) > 9*mib || !bytes.Equal(got, data[:len(got)]) {
			t.Fatalf("%+v: %d bytes before the panic, or not the text's", opt, len(got))
		}
		if err := s.Close(); err != nil {
			t.Errorf("%+v: Close after the panic was raised: %v", opt, err)
		}

		// The second run panics while the reader takes the first: Close
		// comes after the panic has begun, before the reader reaches it.
		at := panicAt{data, int64(5 * mib), make(chan struct{}), new(sync.Once)}
		s = blockz.NewSpanReader(at, int64(len(data)), points, nil, blockz.Options{Workers: 2, Window: 3})
		if _, err := io.ReadFull(s, make([]byte, 1000)); err != nil {
			t.Fatal(err)
		}
		<-at.panicking
		if err := s.Close(); err == nil || !strings.Contains(err.Error(), "the injected panic") {
			t.Errorf("Close before the panic was reached: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close again: %v", err)
		}
	}
}

// readSmall reads r to its end in reads of random sizes up to 300 KiB.
func readSmall(r io.Reader, rng *rand.Rand) ([]byte, error) {
	var out []byte
	buf := make([]byte, 300<<10)
	for {
		n, err := r.Read(buf[:rng.IntN(len(buf))+1])
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
}

// TestWorkerPanicPieces: a piece decoder's panic in a worker, over a file
// of pieces, is raised in the reading goroutine after every byte of the
// pieces before it, and no goroutine is left.
func TestWorkerPanicPieces(t *testing.T) {
	defer goleak.VerifyNone(t)
	data := sample(t, 3<<20, 33)
	file := bgzf(t, data, 65280, true)
	offs := blockz.Pieces(bytes.NewReader(file), int64(len(file)))
	at := offs[len(offs)/2]
	opts := configs
	if raceEnabled {
		opts = configs[2:]
	}
	for _, opt := range opts {
		r, err := blockz.NewReaderPanicking(bytes.NewReader(file), int64(len(file)), opt, at)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		v := func() (v any) {
			defer func() { v = recover() }()
			buf := make([]byte, 64<<10)
			for {
				n, err := r.Read(buf)
				got = append(got, buf[:n]...)
				if err != nil {
					return nil
				}
			}
		}()
		if msg, _ := v.(string); !strings.Contains(msg, "the injected panic") {
			t.Fatalf("%+v: recovered %v", opt, v)
		}
		want := len(offs) / 2 * 65280 // the members before the panicking one, whole
		if len(got) > want || !bytes.Equal(got, data[:len(got)]) {
			t.Fatalf("%+v: %d bytes before the panic (at most %d), or not the text's", opt, len(got), want)
		}
		r.Close()
	}
}
