package pgzip

import (
	"sync"
	"time"

	"github.com/foreachio/foreach/internal/inflate"
)

// bufferPool keeps the buffers of the chunks no longer in flight, so that a
// long file is decoded in the memory of a few chunks. The buffers of a
// Reader that has stopped go to spares, for the next Reader of the
// process: memory is costly the first time it is touched (a page fault a
// page: here, about 0.7 ms a MiB), and a chunk's is tens of MiB.
type bufferPool struct {
	// text is the most text a chunk holds: its buffer's room is
	// inflate.BufferRoom(text).
	text int
	mu   sync.Mutex
	bufs []*[]byte
	syms []*[]uint16
}

// spareText and spareSymbols hold *[]byte and *[]uint16 buffers of stopped
// Readers.
var spareText, spareSymbols sync.Pool

// get returns a chunk's text buffer and symbol buffer (nil if there is
// none to reuse: the decoder makes one).
func (p *bufferPool) get() ([]byte, []uint16) {
	p.mu.Lock()
	defer p.mu.Unlock()
	room := inflate.BufferRoom(p.text)
	var b []byte
	if n := len(p.bufs); n > 0 {
		b, p.bufs = *p.bufs[n-1], p.bufs[:n-1]
	} else if spare, ok := spareText.Get().(*[]byte); ok && cap(*spare) >= room {
		b = *spare
	} else {
		b = make([]byte, 0, room)
	}
	var s []uint16
	if n := len(p.syms); n > 0 {
		s, p.syms = *p.syms[n-1], p.syms[:n-1]
	} else if spare, ok := spareSymbols.Get().(*[]uint16); ok {
		s = *spare
	}
	return b[:0], s
}

// put gives back a chunk's buffers.
func (p *bufferPool) put(t *chunkText) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.buf != nil {
		b := t.buf[:0]
		p.bufs = append(p.bufs, &b)
	}
	if t.syms != nil {
		s := t.syms[:0]
		p.syms = append(p.syms, &s)
	}
	t.buf, t.data, t.syms, t.symbols = nil, nil, nil, nil
}

// release gives the buffers to the spares; the pool is not used again.
func (p *bufferPool) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range p.bufs {
		spareText.Put(b)
	}
	for _, s := range p.syms {
		spareSymbols.Put(s)
	}
	p.bufs, p.syms = nil, nil
}

// Stats counts what a Reader did, for the measurements of
// docs/performance.md. The times are wall-clock times of the goroutines
// named, summed over the workers.
type Stats struct {
	Chunks  int64 // chunks the workers decoded
	Guesses int64 // block boundaries they guessed: the header probe's hits
	// FalseStarts counts the guesses that failed in their first block
	// (the others held, or were let go before it ended).
	FalseStarts int64
	// Started counts the chunks whose guess held through its first block.
	Started    int64
	Held       int64 // chunks whose start met the end of the text before them: used
	Missed     int64 // chunks whose start did not, or that found none: their share decoded again
	Resolved   int64 // bytes of used chunks up to their last marker, decoded as symbols and resolved by the consumer
	Sequential int64 // bytes the consumer decoded itself, where no chunk started

	GuessTime  time.Duration // workers finding guesses (inflate.NextHeader)
	DecodeTime time.Duration // workers decoding, false starts included, and their CRC
	// Resolving is the consumer's time taking chunks (markers, CRC,
	// history), Streaming its time decoding itself, Waiting its time
	// waiting for a chunk.
	Resolving, Streaming, Waiting time.Duration
}
