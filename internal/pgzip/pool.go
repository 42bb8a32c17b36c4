package pgzip

import "sync"

// bufferPool keeps the buffers of the chunks no longer in flight, so that a
// long file is decoded in the memory of a few chunks.
type bufferPool struct {
	// dataSize is the capacity of every data buffer: the most text a chunk
	// holds.
	dataSize int
	mu       sync.Mutex
	data     [][]byte
	symbols  [][]uint16
}

// get returns an empty data buffer of capacity dataSize and an empty symbol
// buffer.
func (p *bufferPool) get() ([]byte, []uint16) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var d []byte
	var s []uint16
	if n := len(p.data); n > 0 {
		d, p.data = p.data[n-1], p.data[:n-1]
	} else {
		d = make([]byte, 0, p.dataSize)
	}
	if n := len(p.symbols); n > 0 {
		s, p.symbols = p.symbols[n-1], p.symbols[:n-1]
	}
	return d[:0], s[:0]
}

// put gives back a chunk's buffers.
func (p *bufferPool) put(d []byte, s []uint16) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cap(d) == p.dataSize {
		p.data = append(p.data, d[:0])
	}
	if s != nil {
		p.symbols = append(p.symbols, s[:0])
	}
}

// Stats counts what a Reader did, for the measurements of
// docs/performance.md.
type Stats struct {
	Chunks     int64 // chunks the workers decoded
	Guesses    int64 // block boundaries they guessed, false starts included
	Held       int64 // chunks whose start met the end of the text before them: used
	Missed     int64 // chunks whose start did not, or that found none: their share decoded again
	Resolved   int64 // bytes of used chunks resolved from markers by the consumer
	Sequential int64 // bytes the consumer decoded itself, where no chunk started
}
