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
	text    int
	mu      sync.Mutex
	bufs    [][]byte
	markers [][]inflate.Marker
}

// get returns a chunk's buffer and an empty marker list.
func (p *bufferPool) get() ([]byte, []inflate.Marker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b []byte
	var mk []inflate.Marker
	if n := len(p.bufs); n > 0 {
		b, p.bufs = p.bufs[n-1], p.bufs[:n-1]
	} else {
		b = make([]byte, 0, inflate.BufferRoom(p.text))
	}
	if n := len(p.markers); n > 0 {
		mk, p.markers = p.markers[n-1], p.markers[:n-1]
	}
	return b[:0], mk[:0]
}

// put gives back a chunk's buffers.
func (p *bufferPool) put(t *chunkText) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.buf != nil {
		p.bufs = append(p.bufs, t.buf[:0])
	}
	if t.markers != nil {
		p.markers = append(p.markers, t.markers[:0])
	}
	t.buf, t.data, t.markers = nil, nil, nil
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
	Markers    int64 // bytes of used chunks that were markers, resolved by the consumer
	Checked    int64 // bytes of used chunks up to their last marker, whose CRC the consumer computed
	Sequential int64 // bytes the consumer decoded itself, where no chunk started

	GuessTime  time.Duration // workers finding guesses (inflate.NextHeader)
	DecodeTime time.Duration // workers decoding, false starts included, and their CRC
	// Resolving is the consumer's time taking chunks (markers, CRC,
	// history), Streaming its time decoding itself, Waiting its time
	// waiting for a chunk.
	Resolving, Streaming, Waiting time.Duration
}
