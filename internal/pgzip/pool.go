package pgzip

import (
	"sync"
	"time"

	"github.com/foreachio/foreach/internal/inflate"
)

// bufferPool keeps the buffers of the chunks no longer in flight, so that a
// long file is decoded in the memory of a few chunks.
type bufferPool struct {
	// text is the most text a chunk holds: its buffer's room is
	// inflate.BufferRoom(text).
	text int
	mu   sync.Mutex
	bufs [][]byte
	syms [][]uint16
}

// get returns a chunk's text buffer and symbol buffer (nil at first: the
// decoder makes one).
func (p *bufferPool) get() ([]byte, []uint16) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b []byte
	var s []uint16
	if n := len(p.bufs); n > 0 {
		b, p.bufs = p.bufs[n-1], p.bufs[:n-1]
	} else {
		b = make([]byte, 0, inflate.BufferRoom(p.text))
	}
	if n := len(p.syms); n > 0 {
		s, p.syms = p.syms[n-1], p.syms[:n-1]
	}
	return b[:0], s
}

// put gives back a chunk's buffers.
func (p *bufferPool) put(t *chunkText) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.buf != nil {
		p.bufs = append(p.bufs, t.buf[:0])
	}
	if t.syms != nil {
		p.syms = append(p.syms, t.syms[:0])
	}
	t.buf, t.data, t.syms, t.symbols = nil, nil, nil, nil
}

// Stats counts what a Reader did, for the measurements of
// docs/performance.md. The times are wall-clock times of the goroutines
// named, summed over the workers.
type Stats struct {
	Chunks  int64 // chunks the workers decoded
	Guesses int64 // block boundaries they guessed: the header probe's hits
	// Started counts the chunks whose guess held through its first block;
	// the other guesses (Guesses - Started) were false starts.
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
