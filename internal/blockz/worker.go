package blockz

import (
	"fmt"
	"io"
	"runtime/debug"
)

// job is a run of consecutive pieces decoded by one worker, whose messages
// the reader takes in order.
type job struct {
	pieces []Piece
	// budget is the most decompressed bytes the job holds before its worker
	// waits for the reader: its size when that is known and below
	// Options.JobMemory, JobMemory otherwise.
	budget int64
	// whole: the job's bytes are known to fit in budget (its pieces' sizes,
	// or bounds, say so), and are decoded into one buffer.
	whole bool
	// out carries the job's messages, in order; the worker closes it after
	// the last.
	out chan message
}

// capacity is the size of out: room for every message of a job whose bytes
// fit its budget, so that its worker never waits on it.
func (j *job) capacity() int {
	return len(j.pieces) + int(j.budget/chunkSize) + 2
}

// message is a run of a piece's decompressed bytes, the end of the piece,
// or both.
type message struct {
	piece int    // the piece's index in the job's pieces
	data  []byte // its next bytes
	// recycle is the buffer data lies in, when the worker is done with it:
	// the reader gives it back once data is read.
	recycle []byte
	// done: the piece has ended, its checks passed unless err is set (then
	// it is damaged: data is what was decoded before the damage).
	done   bool
	err    error
	result pieceResult
	// panicked is the value of a panic in the worker, with its stack: the
	// reader panics with it.
	panicked any
}

// pieceDecoder decodes the pieces of one format; each worker has its own,
// whose state (tables, windows) serves piece after piece.
type pieceDecoder interface {
	// open starts decoding p. Reading the reader it returns to io.EOF gives
	// p's decompressed bytes with every check of the piece passed (its
	// checksum, and that it ends where its structure says); any other
	// error is damage.
	open(p *Piece) (io.Reader, error)
	// result is what decoding the last piece opened found that the reader
	// checks in file order (where a bzip2 block ends, its CRC).
	result() pieceResult
}

// appender is a pieceDecoder that decodes a piece whole straight into a
// buffer, which the worker uses for jobs decoded into one buffer.
type appender interface {
	// appendPiece appends p's decompressed bytes to dst, whose capacity is
	// at least p's bound, checking p as open's reader does.
	appendPiece(p *Piece, dst []byte) ([]byte, error)
}

// pieceResult is what a piece's decoding tells the sequencer.
type pieceResult struct {
	bz bzipBlockEnd
}

// work decodes the jobs handed out until the pipeline stops; in is where
// d gets the pieces' bytes.
func (p *pipeline) work(d pieceDecoder, in *input) {
	defer p.wg.Done()
	for {
		select {
		case <-p.quit:
			return
		case j := <-p.jobs:
			if !p.decodeJob(d, in, j) {
				return
			}
		}
	}
}

// maxSpan is the most compressed bytes read at once for a job's pieces.
const maxSpan = 16 << 20

// decodeJob decodes j's pieces into its messages, stopping after a damaged
// one. It reports false when the pipeline stopped meanwhile. A panic of the
// decoder goes to the reader in a message.
func (p *pipeline) decodeJob(d pieceDecoder, in *input, j *job) (ok bool) {
	defer close(j.out)
	defer func() {
		if v := recover(); v != nil {
			v = fmt.Sprintf("%v\n\nin a blockz worker:\n%s", v, debug.Stack())
			p.mu.Lock()
			if p.panicked == nil {
				p.panicked = v
			}
			p.mu.Unlock()
			p.send(j, message{panicked: v})
			ok = false
		}
	}()
	// One buffer holds the whole job when its size is known; otherwise
	// chunks of chunkSize go out as they fill. The slack lets the read that
	// returns io.EOF find room.
	size := chunkSize
	if j.whole {
		size = roundUp(int(j.budget) + 512)
	}
	in.span = in.span[:0]
	if first, last := &j.pieces[0], &j.pieces[len(j.pieces)-1]; p.preload && j.whole && last.end()-first.Offset <= maxSpan {
		// A failed read is read again, piece by piece, to fail at its piece.
		in.load(first.Offset, last.end())
	}
	buf := p.get(size)
	// A whole job's messages go out together at its end: the reader, which
	// is faster than a worker, then takes them without waiting for each (a
	// wake-up per BGZF member cost more than the member's bookkeeping).
	var held []message
	for i := range j.pieces {
		m, ok := p.decodePiece(d, j, i, &buf, size)
		if !ok {
			return false
		}
		last := m.err != nil || i == len(j.pieces)-1
		if last {
			m.recycle = buf
		}
		if held = append(held, m); last || !j.whole {
			for _, m := range held {
				if !p.send(j, m) {
					return false
				}
			}
			held = held[:0]
		}
		if m.err != nil {
			return true
		}
	}
	return true
}

// decodePiece decodes piece i of j into *buf, sending the buffer on when it
// fills and taking another of the given size, and returns the message that
// ends the piece. ok is false when the pipeline stopped meanwhile.
func (p *pipeline) decodePiece(d pieceDecoder, j *job, i int, buf *[]byte, size int) (m message, ok bool) {
	pc := &j.pieces[i]
	start := len(*buf)
	if a, ok := d.(appender); ok && j.whole {
		// The piece gets room for its bound and no more: a decoder that
		// needs more (a damaged piece) fails or moves to another array.
		room := (*buf)[: start : start+int(pc.bound)]
		b, err := a.appendPiece(pc, room)
		switch {
		case err != nil:
			b = room
		case !sameArray(b, room):
			b, err = room, fmt.Errorf("blockz: a piece at %d decodes to more than the %d bytes its structure gives", pc.Offset, pc.bound)
		default:
			err = checkSize(pc, int64(len(b)-start))
		}
		*buf = (*buf)[:len(b)]
		return message{piece: i, data: b[start:], done: true, err: err, result: d.result()}, true
	}
	var produced int64
	r, err := d.open(pc)
	for err == nil {
		b := *buf
		if len(b) == cap(b) {
			if !p.send(j, message{piece: i, data: b[start:], recycle: b}) {
				return m, false
			}
			b, start = p.get(size), 0
		}
		var n int
		n, err = r.Read(b[len(b):cap(b)])
		*buf = b[:len(b)+n]
		produced += int64(n)
		if pc.bound >= 0 && produced > pc.bound {
			err = fmt.Errorf("blockz: a piece at %d decodes to more than the %d bytes its structure gives", pc.Offset, pc.bound)
		}
	}
	if err == io.EOF {
		err = checkSize(pc, produced)
	}
	return message{piece: i, data: (*buf)[start:], done: true, err: err, result: d.result()}, true
}

// roundUp rounds a buffer's size up to a multiple of chunkSize, so that the
// buffers of jobs of about the same size serve one another.
func roundUp(n int) int {
	if n <= chunkSize {
		return n
	}
	return (n + chunkSize - 1) / chunkSize * chunkSize
}

// sameArray reports whether a and b (of nonzero capacity) share their
// backing array's start.
func sameArray(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// checkSize returns an error unless p decoded to its size, when known.
func checkSize(p *Piece, produced int64) error {
	if p.Size >= 0 && produced != p.Size {
		return fmt.Errorf("blockz: a piece at %d decodes to %d bytes, not the %d its structure gives", p.Offset, produced, p.Size)
	}
	return nil
}

// send hands m to the reader; false when the pipeline stopped first.
func (p *pipeline) send(j *job, m message) bool {
	select {
	case j.out <- m:
		return true
	case <-p.quit:
		return false
	}
}
