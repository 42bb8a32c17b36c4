package pgzip

import (
	"bufio"
	"errors"
	"hash/crc32"
	"io"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
)

// streamer decodes a member's text sequentially from a block boundary, in
// the consumer's goroutine, where no chunk starts: until a pending chunk's
// start is met (the chunk takes over there) or the stream ends.
type streamer struct {
	dec *inflate.Decoder
	br  *bufio.Reader
	src countingReader
	// base is the byte of the file where the decoder's source starts (its
	// bit 0 is the file's bit base*8).
	base int64
	// out is the text delivered since the start.
	out int64
	// stopOut is the text before the boundary stopBit where the first
	// pending chunk starts, once the decoder has met it (noGuess before);
	// window is the 32 KiB before that boundary.
	stopOut, stopBit int64
	window           []byte
}

// countingReader counts the bytes read from r, and keeps its last error
// other than io.EOF.
type countingReader struct {
	r     io.Reader
	n     int64
	ioErr error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		c.ioErr = err
	}
	return n, err
}

// startStream starts decoding at pos, with the history before it.
func (m *member) startStream() {
	s := m.stream
	if s = m.r.streamer; s == nil {
		s = &streamer{dec: inflate.NewReader(nil), br: bufio.NewReaderSize(nil, readSize)}
		m.r.streamer = s
	}
	s.base = m.pos / 8
	s.src = countingReader{r: io.NewSectionReader(m.r.src, s.base, m.r.size-s.base)}
	s.br.Reset(&s.src)
	s.dec.ResetAt(s.br, uint(m.pos%8), m.hist.bytes())
	s.dec.SetBlockFunc(m.atBoundary)
	s.out, s.stopOut, s.stopBit = 0, noGuess, noGuess
	m.stream = s
}

// atBoundary is called by the streamer's decoder at every block boundary
// it meets. If the first pending chunk starts there, the decoder is to stop
// there; chunks that cannot start there or later are let go.
func (m *member) atBoundary(b inflate.Block) {
	s := m.stream
	if s.stopOut != noGuess {
		return
	}
	x := s.base*8 + b.Bit
	for m.send(); len(m.plan.pending) > 0; m.send() {
		c := m.plan.pending[0]
		g := c.guess.Load()
		switch {
		case g == x:
			s.stopOut, s.stopBit = b.Out, x
			s.window = append(s.window[:0], s.dec.Window()...)
			return
		case g > x:
			return // it may start further on
		case g == noGuess && x < c.hi && !c.isDone():
			return // not known yet
		}
		m.drop()
	}
}

// readStream reads text from the streamer, up to where a chunk takes over.
// It returns 0 bytes and no error when the streamer has stopped there, or
// at the stream's end.
func (m *member) readStream(p []byte) (n int, err error) {
	t0 := time.Now()
	defer func() {
		m.r.stats.Streaming += time.Since(t0)
		m.plan.streamed(n, time.Since(t0))
	}()
	s := m.stream
	if s.stopOut != noGuess {
		left := s.stopOut - s.out
		if left <= 0 {
			m.pos = s.stopBit
			m.hist.n = copy(m.hist.buf[:], s.window)
			m.endStream()
			return 0, nil
		}
		p = p[:min(int64(len(p)), left)]
	}
	n, err = s.dec.Read(p)
	if s.stopOut != noGuess && s.out+int64(n) >= s.stopOut {
		// The boundary was met in this Read, which decoded on past it: the
		// text from there is the chunk's, and so is what the decoder found
		// there.
		n, err = int(s.stopOut-s.out), nil
	}
	m.crc = crc32.Update(m.crc, crc32.IEEETable, p[:n])
	m.size += uint32(n)
	s.out += int64(n)
	switch {
	case err == io.EOF:
		m.pos, m.ended = s.base*8+s.dec.InputBits(), true
		m.endStream()
		return n, nil
	case err != nil:
		return n, m.streamError(err)
	}
	return n, nil
}

// endStream stops streaming.
func (m *member) endStream() {
	m.r.stats.Sequential += m.stream.out
	m.stream.dec.SetBlockFunc(nil)
	m.stream = nil
}

// streamError returns the error the decoder stopped with as decompress
// reports it: an error of the file as it is, damage as a *decompress.Error
// at the byte of the file the decoder had consumed, with a *CorruptError's
// bit counted from the start of the deflate stream.
func (m *member) streamError(err error) error {
	s := m.stream
	if s.src.ioErr != nil && errors.Is(err, s.src.ioErr) {
		return err
	}
	var ce *inflate.CorruptError
	if errors.As(err, &ce) {
		err = &inflate.CorruptError{Bit: ce.Bit + s.base*8 - m.start, Reason: ce.Reason}
	}
	return &decompress.Error{Format: decompress.Gzip, Offset: s.base + s.src.n - int64(s.br.Buffered()), Err: err}
}
