package pgzip

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
)

// member reads one gzip member's text: the chunks the workers decoded, in
// order, each used when its start meets the end of the text before it, and
// the text between them decoded here (stream); then the trailer.
type member struct {
	r *Reader
	// start is the bit of the file where the deflate stream starts.
	start int64
	// pos is a block boundary (a bit of the file): the text before it is
	// delivered or being delivered (serving), the text after it not yet
	// decoded here. Once ended, it is the bit after the stream's last byte.
	pos   int64
	ended bool
	// hist is the text's last 32 KiB before pos (while not streaming).
	hist history
	// crc and size are the CRC-32 and length (modulo 2^32) of the text
	// delivered or being delivered, to check against the trailer.
	crc, size uint32
	// plan cuts the stream into shares, the workers' and its own.
	plan plan
	// serving is the chunk whose text is being read out, from off.
	serving *chunk
	off     int
	// stream decodes the text from pos when no chunk starts there; nil
	// otherwise.
	stream *streamer
	// end is the byte after the member, once its trailer is read.
	end int64
}

func newMember(r *Reader, start int64) *member {
	return &member{r: r, start: start, pos: start, plan: newPlan(start, r.opt)}
}

// Read reads the member's text, and returns io.EOF once the trailer is
// read and matches, or the error of a damaged member as decompress reports
// it.
func (m *member) Read(p []byte) (int, error) {
	for {
		if c := m.serving; c != nil {
			if m.off < len(c.text.data) {
				n := copy(p, c.text.data[m.off:])
				m.off += n
				return n, nil
			}
			m.serving = nil
			m.r.crew.bufs.put(&c.text)
			continue
		}
		if m.stream != nil {
			if n, err := m.readStream(p); n > 0 || err != nil {
				return n, err
			}
			continue
		}
		if m.ended {
			m.dropAll()
			return 0, m.trailer()
		}
		m.next()
	}
}

// next goes on at pos: with the first pending chunk if it starts there and
// its markers resolve, else by decoding from pos (stream). Chunks that
// cannot start there or later are let go. A chunk whose share begins past
// pos cannot start there: the consumer decodes on without waiting for it
// (its own share, while the chunk's worker decodes the next).
func (m *member) next() {
	for {
		m.send()
		if len(m.plan.pending) == 0 || m.plan.pending[0].lo > m.pos {
			m.startStream()
			return
		}
		c := m.plan.pending[0]
		t0 := time.Now()
		<-c.done
		waited := time.Since(t0)
		m.r.stats.Waiting += waited
		if c.text.start == m.pos && m.accept(c) {
			m.plan.pending = m.plan.pending[1:]
			m.plan.balance(waited, t0.Sub(c.doneAt))
			return
		}
		if c.text.start > m.pos {
			m.startStream()
			return
		}
		m.drop()
	}
}

// accept takes chunk c, which starts at pos: its markers resolved with the
// text before it, its text delivered next. It reports false, keeping
// nothing, when a marker names a byte before the stream's start (the
// stream is damaged there: decoding it here finds where).
func (m *member) accept(c *chunk) bool {
	t0 := time.Now()
	defer func() { m.r.stats.Resolving += time.Since(t0) }()
	t := &c.text
	head := t.data[:len(t.symbols)]
	if !m.r.resolver.Resolve(head, t.symbols, m.hist.bytes()) {
		return false
	}
	m.crc = crc32.Update(m.crc, crc32.IEEETable, head)
	m.crc = crcCombine(m.crc, t.crc, int64(len(t.data)-len(head)))
	m.size += uint32(len(t.data))
	m.hist.push(t.data)
	m.serving, m.off = c, 0
	m.plan.took(t, time.Since(t0))
	m.pos, m.ended = t.end, t.final
	m.count(c)
	m.r.stats.Held++
	m.r.stats.Resolved += int64(len(head))
	return true
}

// count counts a chunk done with, taken or let go.
func (m *member) count(c *chunk) {
	m.r.stats.Chunks++
	m.r.stats.Guesses += int64(c.guesses)
	m.r.stats.FalseStarts += int64(c.falseStarts)
	if c.text.start != noGuess {
		m.r.stats.Started++
	}
	m.r.stats.GuessTime += c.times.guess
	m.r.stats.DecodeTime += c.times.decode
}

// drop lets the first pending chunk go, stopping its worker.
func (m *member) drop() {
	c := m.plan.pending[0]
	m.plan.pending = m.plan.pending[1:]
	c.cancel.Store(true)
	<-c.done
	m.count(c)
	m.r.stats.Missed++
	m.r.crew.bufs.put(&c.text)
}

// dropAll lets every chunk go: the member has ended, or reading stops.
func (m *member) dropAll() {
	for _, c := range m.plan.pending {
		c.cancel.Store(true)
	}
	for len(m.plan.pending) > 0 {
		m.drop()
	}
	if m.serving != nil {
		m.r.crew.bufs.put(&m.serving.text)
		m.serving = nil
	}
}

// trailer reads the member's trailer after the stream's end, and checks it
// against the text: as inflate.Member does, its errors at the offsets
// decompress gives them.
func (m *member) trailer() error {
	at := m.pos / 8
	var t [8]byte
	n, err := io.NewSectionReader(m.r.src, 0, m.r.size).ReadAt(t[:], at)
	if n < len(t) {
		if err != nil && err != io.EOF {
			return err
		}
		return &decompress.Error{Format: decompress.Gzip, Offset: m.r.size, Err: io.ErrUnexpectedEOF}
	}
	m.end = at + int64(len(t))
	if binary.LittleEndian.Uint32(t[:]) != m.crc || binary.LittleEndian.Uint32(t[4:]) != m.size {
		return &decompress.Error{Format: decompress.Gzip, Offset: m.end, Err: inflate.ErrChecksum}
	}
	return io.EOF
}

// history is the last 32 KiB of text.
type history struct {
	buf [inflate.WindowSize]byte
	n   int // buf[:n] is the history
}

func (h *history) bytes() []byte { return h.buf[:h.n] }

// push appends b to the history.
func (h *history) push(b []byte) {
	if len(b) >= len(h.buf) {
		h.n = copy(h.buf[:], b[len(b)-len(h.buf):])
		return
	}
	if h.n+len(b) > len(h.buf) {
		keep := len(h.buf) - len(b)
		copy(h.buf[:], h.buf[h.n-keep:h.n])
		h.n = keep
	}
	h.n += copy(h.buf[h.n:], b)
}
