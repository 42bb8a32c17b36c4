package pgzip

import (
	"bufio"
	"hash/crc32"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/internal/inflate"
)

// noGuess is a chunk's guess before its worker holds to one, and after it
// if it found none.
const noGuess = -1

// chunk is a piece of a member's deflate stream, decoded by a worker from a
// block boundary it guesses, with the window before it unknown.
type chunk struct {
	// lo and hi are the chunk's share of the stream, in bits of the file:
	// the worker starts at the first block boundary it guesses at or after
	// lo, and stops at the first boundary at or after hi (or at the end of
	// the final block, or when its buffer is full, at the last boundary that
	// fits).
	lo, hi int64

	// text is what the worker decoded, read by the consumer once done is
	// closed.
	text chunkText
	// guesses counts the boundaries tried, the one held included, and
	// falseStarts those that failed in their first block; times the
	// worker's time finding them and decoding.
	guesses, falseStarts int
	times                struct{ guess, decode time.Duration }
	doneAt               time.Time // when the worker finished

	// guess is text.start, published as soon as the worker holds to it
	// (after the first block decodes), so that a consumer decoding up to it
	// can take over there; noGuess before.
	guess atomic.Int64
	// cancel tells the worker that the chunk is not needed: it stops early.
	cancel atomic.Bool
	done   chan struct{}
}

// chunkText is a chunk's text.
type chunkText struct {
	// start is the boundary the decode started at (noGuess: none held);
	// end the boundary where it stopped, start <= end, or after the final
	// block (final) the bit after the stream's last byte.
	start, end int64
	final      bool
	// data is the text of [start, end), in buf (the chunk's buffer, from
	// the pool). Its first len(symbols) bytes are still to be written from
	// symbols (in syms, the chunk's symbol buffer), whose markers name
	// bytes of the 32 KiB before start; data[len(symbols):]'s CRC-32 is
	// crc.
	data, buf     []byte
	symbols, syms []uint16
	crc           uint32
}

func newChunk(lo, hi int64) *chunk {
	c := &chunk{lo: lo, hi: hi, done: make(chan struct{})}
	c.text.start, c.text.end = noGuess, noGuess
	c.guess.Store(noGuess)
	return c
}

// isDone reports whether the worker has finished with c.
func (c *chunk) isDone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// regionMargin is how far past a position its compressed bytes are read
// for guessing: a header that starts there is whole within them.
const regionMargin = 1 << 10

// worker decodes chunks. Its buffers are reused from chunk to chunk.
type worker struct {
	src  io.ReaderAt
	size int64
	bufs *bufferPool
	// region holds the compressed bytes of the chunk being guessed in.
	region []byte
	// src is read through br (the decoder's Source), reset at every start.
	br      *bufio.Reader
	markers inflate.MarkerDecoder
}

// spareWorkers holds the workers of stopped Readers, for their buffers.
var spareWorkers sync.Pool

func newWorker(src io.ReaderAt, size int64, bufs *bufferPool) *worker {
	w, ok := spareWorkers.Get().(*worker)
	if !ok {
		w = &worker{br: bufio.NewReaderSize(nil, readSize)}
	}
	w.src, w.size, w.bufs = src, size, bufs
	return w
}

// release gives w to the spares.
func (w *worker) release() {
	w.src, w.bufs = nil, nil
	w.br.Reset(nil)
	spareWorkers.Put(w)
}

// readSize is the size of the reads of the compressed file.
const readSize = 128 << 10

// sourceAt makes br read the file from byte off on.
func (w *worker) sourceAt(off int64) *bufio.Reader {
	w.br.Reset(io.NewSectionReader(w.src, off, w.size-off))
	return w.br
}

// decode decodes c and closes c.done.
func (w *worker) decode(c *chunk) {
	defer func() {
		c.doneAt = time.Now()
		close(c.done)
	}()
	t := &c.text
	t.buf, t.syms = w.bufs.get()
	for from := c.lo; from < c.hi && !c.cancel.Load(); {
		t0 := time.Now()
		p := w.guess(from, c.hi)
		c.times.guess += time.Since(t0)
		if p < 0 {
			return
		}
		c.guesses++
		w.markers.Reset(w.sourceAt(p/8), uint(p%8), t.buf, t.syms)
		if w.blocks(c, p) {
			return
		}
		from = p + 1
	}
}

// regionSize is the compressed bytes read at a time to look for a guess:
// the first block boundary is usually within tens of KiB of a share's
// start, and a share's bytes read whole would be new memory for nothing.
const regionSize = 256 << 10

// guess returns the first bit in [from, to) where inflate.NextHeader finds
// a dynamic block's header, or -1, reading the file a region at a time.
// A short read finds fewer guesses: the consumer decodes what is left.
func (w *worker) guess(from, to int64) int64 {
	for from < to {
		lo := from / 8
		hi := min(w.size, lo+regionSize, (to+7)/8+regionMargin)
		if cap(w.region) < regionSize {
			w.region = make([]byte, regionSize)
		}
		n, _ := w.src.ReadAt(w.region[:hi-lo], lo)
		// A header starts before the region's last regionMargin bytes, or
		// at the end of the file, to be found whole in it.
		end := min(to, (lo+int64(n)-regionMargin)*8)
		if lo+int64(n) >= w.size {
			end = to
		}
		if p := inflate.NextHeader(w.region[:n], from-lo*8, end-lo*8); p >= 0 {
			return p + lo*8
		}
		if n < int(hi-lo) || end <= from {
			return -1
		}
		from = end
	}
	return -1
}

// blocks decodes c's blocks from the boundary p, where the decoder was
// reset, to the first boundary at or past c.hi, the end of the final block,
// an error, or a full buffer (then to the last boundary). It returns false,
// holding nothing, if the guess p fails in its first block: a false start.
func (w *worker) blocks(c *chunk, p int64) bool {
	t0 := time.Now()
	defer func() { c.times.decode += time.Since(t0) }()
	t := &c.text
	base := p / 8 * 8
	end, kept := p, 0 // the last boundary, and the text before it
	for blocks := 0; !c.cancel.Load(); blocks++ {
		if err := w.markers.Block(); err != nil {
			if blocks == 0 {
				c.falseStarts++
				return false
			}
			break // damage, a full buffer, or a guess that held for a while: the chunk ends at the last boundary
		}
		if blocks == 0 {
			t.start = p
			c.guess.Store(p)
		}
		end, kept = base+w.markers.InputBits(), w.markers.Len()
		if w.markers.Final() {
			t.final = true
			break
		}
		if end >= c.hi {
			break
		}
	}
	if t.start == noGuess {
		return false // cancelled before the first block ended
	}
	t.data, t.symbols = w.markers.Text(kept)
	if t.symbols != nil {
		t.syms = t.symbols[:0]
	}
	t.end = end
	t.crc = crc32.ChecksumIEEE(t.data[len(t.symbols):])
	return true
}
