package pgzip

import (
	"bufio"
	"hash/crc32"
	"io"
	"sync/atomic"

	"github.com/foreachio/foreach/internal/inflate"
)

// noGuess is a chunk's guess before its worker holds to one, and after it
// if it found none.
const noGuess = -1

// chunk is a piece of a member's deflate stream, decoded by a worker from a
// block boundary it guesses (for the first chunk, the stream's start), with
// the window before it unknown.
type chunk struct {
	// lo and hi are the chunk's share of the stream, in bits of the file:
	// the worker starts at the first block boundary it guesses at or after
	// lo, and stops at the first boundary at or after hi (or at the end of
	// the final block, or when data is full, at the last boundary that fits).
	lo, hi int64
	// first says that lo is the stream's first bit: no guess, no window.
	first bool

	// Written by the worker, read by the consumer once done is closed.
	//
	// start is the boundary the decode started at (noGuess: none held);
	// end the boundary where it stopped, start <= end, or after the final
	// block (final) the bit after the stream's last byte.
	start, end int64
	final      bool
	// data is the decoded text of [start, end); its first len(symbols)
	// bytes are still to be resolved from symbols, the markers among which
	// name bytes of the 32 KiB before start. crc is data[len(symbols):]'s
	// CRC-32.
	data    []byte
	symbols []uint16
	crc     uint32
	// guesses counts the boundaries tried, the one held included.
	guesses int

	// guess is start, published as soon as the worker holds to it (after
	// the first block decodes), so that a consumer decoding up to it can
	// take over there; noGuess before.
	guess atomic.Int64
	// cancel tells the worker that the chunk is not needed: it stops early.
	cancel atomic.Bool
	done   chan struct{}
}

func newChunk(lo, hi int64, first bool) *chunk {
	c := &chunk{lo: lo, hi: hi, first: first, start: noGuess, end: noGuess, done: make(chan struct{})}
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

// regionMargin is how far past a chunk's share its compressed bytes are read
// for guessing: a header that starts before hi is whole within it.
const regionMargin = 1 << 10

// worker decodes chunks. Its buffers are reused from chunk to chunk.
type worker struct {
	src  io.ReaderAt
	size int64
	bufs *bufferPool
	// region holds the compressed bytes of the chunk being guessed in.
	region []byte
	// src is read through br (the decoders' Source), reset at every start.
	br  *bufio.Reader
	md  inflate.MarkerDecoder
	dec *inflate.Decoder
	// boundary is the last block boundary the byte decoder reported before
	// the chunk's end: its bit in the file, and the bytes before it.
	boundary struct{ bit, out int64 }
}

func newWorker(src io.ReaderAt, size int64, bufs *bufferPool) *worker {
	return &worker{src: src, size: size, bufs: bufs, br: bufio.NewReaderSize(nil, readSize), dec: inflate.NewReader(nil)}
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
	defer close(c.done)
	c.data, c.symbols = w.bufs.get()
	if c.first {
		c.start = c.lo
		c.guess.Store(c.lo)
		w.bytes(c, c.lo, nil)
		return
	}
	lo := c.lo / 8
	hi := min(w.size, (c.hi+7)/8+regionMargin)
	if int64(cap(w.region)) < hi-lo {
		w.region = make([]byte, hi-lo)
	}
	n, _ := w.src.ReadAt(w.region[:hi-lo], lo) // a short read finds fewer guesses: the consumer decodes what is left
	region := w.region[:n]
	for from := c.lo; from < c.hi && !c.cancel.Load(); {
		p := inflate.NextHeader(region, from-lo*8, c.hi-lo*8)
		if p < 0 {
			return
		}
		p += lo * 8
		c.guesses++
		if w.markers(c, p) {
			return
		}
		from = p + 1
	}
}

// markers decodes c from the guessed boundary p with the window unknown,
// into symbols, until the markers die out (then going on as bytes), or the
// chunk ends. It returns false if the guess fails in its first block: a
// false start.
func (w *worker) markers(c *chunk, p int64) bool {
	base := p / 8 * 8
	w.md.Reset(w.sourceAt(p/8), uint(p%8), cap(c.data))
	end, kept := p, 0 // the last boundary, and the symbols before it
	for blocks := 0; !c.cancel.Load(); blocks++ {
		if err := w.md.Block(); err != nil {
			if blocks == 0 {
				return false
			}
			break // damage, or a guess that held for a while: the chunk ends at the last boundary
		}
		if blocks == 0 {
			c.start = p
			c.guess.Store(p)
		}
		end, kept = base+w.md.InputBits(), len(w.md.Symbols())
		if w.md.Final() {
			c.final = true
			break
		}
		if end >= c.hi {
			break
		}
		if kept-w.md.MarkersEnd() >= inflate.WindowSize {
			w.keepSymbols(c, kept)
			w.bytes(c, end, c.data[len(c.data)-inflate.WindowSize:])
			return true
		}
	}
	if c.start == noGuess {
		return false // cancelled before the first block ended
	}
	w.keepSymbols(c, kept)
	c.end = end
	c.crc = crc32.ChecksumIEEE(c.data[len(c.symbols):])
	return true
}

// keepSymbols puts the first n symbols decoded into c: those up to the last
// marker in c.symbols, to be resolved into data, the rest into data as
// bytes.
func (w *worker) keepSymbols(c *chunk, n int) {
	syms := w.md.Symbols()[:n]
	m := min(w.md.MarkersEnd(), n)
	c.symbols = append(c.symbols[:0], syms[:m]...)
	c.data = c.data[:n]
	inflate.Resolve(c.data[m:], syms[m:], nil) // no marker there
}

// bytes decodes c as bytes from the block boundary bit, with window the 32
// KiB before it (fewer at the stream's start), appending to c.data, and
// sets c's end and CRC.
func (w *worker) bytes(c *chunk, bit int64, window []byte) {
	base := bit / 8 * 8
	w.dec.ResetAt(w.sourceAt(bit/8), uint(bit%8), window)
	from := int64(len(c.data)) // where the bytes decoded from bit start in data
	w.boundary.bit, w.boundary.out = bit, 0
	stop := int64(noGuess) // the bytes before the first boundary at or after hi, once passed
	w.dec.SetBlockFunc(func(b inflate.Block) {
		if stop != noGuess {
			return
		}
		if base+b.Bit >= c.hi {
			stop = b.Out
		}
		if from+b.Out <= int64(cap(c.data)) {
			w.boundary.bit, w.boundary.out = base+b.Bit, b.Out
		}
	})
	defer w.dec.SetBlockFunc(nil)
	for {
		if stop != noGuess && int64(len(c.data))-from >= stop {
			c.data = c.data[:from+stop]
			c.end = w.boundary.bit
			break
		}
		if len(c.data) == cap(c.data) || c.cancel.Load() {
			c.data = c.data[:from+w.boundary.out]
			c.end = w.boundary.bit
			break
		}
		n, err := w.dec.Read(c.data[len(c.data):cap(c.data)])
		c.data = c.data[:len(c.data)+n]
		if err == io.EOF {
			c.final = true
			c.end = base + w.dec.InputBits()
			break
		}
		if err != nil {
			c.data = c.data[:from+w.boundary.out]
			c.end = w.boundary.bit
			break
		}
	}
	c.crc = crc32.ChecksumIEEE(c.data[len(c.symbols):])
}
