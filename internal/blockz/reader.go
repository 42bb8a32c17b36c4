package blockz

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/foreachio/foreach/internal/decompress"
)

// reading is where a Reader is in the pieces.
type reading struct {
	// piece is the piece whose bytes are being read (nil before the first);
	// streamOut counts the bytes of piece's stream delivered so far, which a
	// sequential reread of the stream skips.
	piece     *Piece
	streamOut int64
	// skipping: the piece being read is not one of the file's (a false
	// bzip2 match): its messages are dropped.
	skipping bool
}

// Options configure a Reader.
type Options struct {
	// Workers is the number of goroutines decoding pieces; < 1 means
	// GOMAXPROCS.
	Workers int
	// Window is the most jobs (a piece, or a run of small pieces) decoded or
	// waiting to be read at once, the one being read included; < 1 means
	// Workers + 1.
	Window int
	// JobMemory is the most decompressed bytes a job holds while it waits to
	// be read; a worker whose job has that many waits for the reader. < 1
	// means DefaultJobMemory. A job whose size is known and smaller holds
	// only its size.
	JobMemory int64
}

// DefaultJobMemory is the default Options.JobMemory: 32 MiB, room for a
// whole block of xz -T at its default level (24 MiB), so that its blocks
// decode side by side.
const DefaultJobMemory = 32 << 20

const (
	// chunkSize is the size of the buffers a job's bytes are handed over in
	// when its size is not known (or larger than JobMemory).
	chunkSize = 1 << 20
	// smallJob is the decompressed bytes of a run of small pieces decoded as
	// one job (BGZF members of 64 KiB), so that handing a job over costs
	// little beside decoding it.
	smallJob = 4 << 20
)

// Reader decodes a compressed file's pieces (see Layout) on several
// goroutines and yields the decompressed stream in order: the same bytes,
// and at the end the same error, as decompress.NewReader reading the file
// from its start. Pieces are decoded ahead of the reader within a window of
// Options.Window jobs, each holding at most Options.JobMemory bytes, so that
// its memory is bounded by Memory whatever the file.
//
// A damaged piece ends the parallel reading: every byte before it is
// delivered, and the stream it belongs to is read again sequentially from
// its start (the bytes already delivered skipped), so that the damage is
// reported as decompress.NewReader reports it, format and compressed offset
// included. What follows the last stream found by the structure is read
// sequentially too (decompress.NewReaderAfter): padding, trailing data, and
// streams the structure could not be followed through.
//
// It is the one ordered fetcher of the project: NewSpanReader reads the
// text of an index by its spans with the same window, memory bound, panic
// rule and stop rule. A Reader is not safe for concurrent use; its
// goroutines are its own, and none outlives Close. A panic in a worker is
// raised again in the goroutine that reads, once the workers have stopped;
// one the reading never reached is returned by Close as an error.
type Reader struct {
	src source
	opt Options

	pipe *pipeline

	// queue holds the jobs handed to the workers and not yet read, in file
	// order; queue[0] is being read. cur is the rest of the bytes of the
	// message being read, curMsg that message (its buffer is recycled once
	// cur is read).
	queue  []*job
	cur    []byte
	curMsg message
	// at is the piece whose bytes are being read.
	at reading

	// rest reads the input sequentially once the parallel reading is over
	// (src.after's); nil before. replays counts the streams read again (for
	// tests).
	rest    io.ReadCloser
	replays int
	// err is the error Read returned, returned again by every later Read.
	err error
}

// source is what a Reader reads: where its pieces come from, how they are
// decoded and checked, and how the input is read sequentially from a stream
// boundary on (the pieces a damaged one belongs to, and what follows the
// last piece). The workers' inputs read ra.
type source struct {
	format decompress.Format // None for the spans of a text
	ra     io.ReaderAt
	size   int64
	scan   scanner
	seq    sequencer
	// decoder makes a worker's piece decoder, reading from in.
	decoder func(in *input) pieceDecoder
	// after returns the sequential reader of the input from the stream
	// boundary off to its end, ending with the error a sequential read
	// ends with.
	after func(off int64) io.ReadCloser
	// preload: a job's compressed bytes are read at once before its pieces
	// are decoded (a run of small pieces costs one read, not one each).
	preload bool
}

// fileSource is the source of the compressed file ra[0:size), whose pieces
// s finds.
func fileSource(ra io.ReaderAt, size int64, s scanner, jobMemory int64) source {
	f := s.format()
	return source{
		format: f, ra: ra, size: size, scan: s, seq: newSequencer(f, ra, size),
		decoder: func(in *input) pieceDecoder { return newPieceDecoder(f, in, size, jobMemory) },
		after: func(off int64) io.ReadCloser {
			return decompress.NewReaderAfter(io.NewSectionReader(ra, off, size-off), f, off)
		},
		preload: true,
	}
}

// NewReader returns a Reader of the compressed file ra[0:size), which starts
// opt.Workers goroutines. It returns ErrNoStructure, and starts nothing, for
// a file whose structure gives fewer than two pieces: decode it with
// decompress.NewReader.
func NewReader(ra io.ReaderAt, size int64, opt Options) (*Reader, error) {
	opt = opt.withDefaults()
	return newReader(ra, size, opt, newScanner(ra, size))
}

// withDefaults returns o with its zero fields given their defaults.
func (o Options) withDefaults() Options {
	if o.Workers < 1 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Window < 1 {
		o.Window = o.Workers + 1
	}
	if o.JobMemory < 1 {
		o.JobMemory = DefaultJobMemory
	}
	return o
}

// newReader is NewReader with the scanner given.
func newReader(ra io.ReaderAt, size int64, opt Options, s scanner) (*Reader, error) {
	// Two pieces are looked for before anything starts; they wait in the
	// scanner's lookahead.
	var ahead []Piece
	for len(ahead) < 2 {
		p, ok := s.next()
		if !ok {
			break
		}
		ahead = append(ahead, p)
	}
	if len(ahead) < 2 {
		return nil, ErrNoStructure
	}
	return start(fileSource(ra, size, &lookahead{scanner: s, ahead: ahead}, opt.JobMemory), opt), nil
}

// start returns the Reader of src, its workers started.
func start(src source, opt Options) *Reader {
	if _, ok := src.scan.(*lookahead); !ok {
		src.scan = &lookahead{scanner: src.scan}
	}
	return &Reader{src: src, opt: opt, pipe: newPipeline(opt, src.ra, src.decoder, src.preload)}
}

// Format is the format of the file; None for the spans of a text.
func (r *Reader) Format() decompress.Format { return r.src.format }

// Memory is the most decompressed bytes the Reader holds at once, beside
// its decoders' own state: Window jobs of at most JobMemory bytes each (a
// bzip2 block is held whole, which may exceed it: at most 46 MB).
func (r *Reader) Memory() int64 { return int64(r.opt.Window) * r.opt.JobMemory }

// Close stops the workers and waits for them to return. It does not close
// ra. Read after Close returns an error; Close may be called more than once.
// A panic of a worker that the reading had not reached is returned as an
// error (once).
func (r *Reader) Close() error {
	var err error
	if r.pipe != nil {
		r.pipe.stop()
		err = r.pipe.unreported()
	}
	if r.rest != nil {
		r.rest.Close()
	}
	r.queue, r.cur = nil, nil
	if r.err == nil || r.err == io.EOF {
		r.err = errClosed
	}
	return err
}

var errClosed = errors.New("blockz: read after Close")

// Read reads decompressed bytes into p. As decompress.Reader does, it
// returns the bytes before an error with a nil error and the error in the
// next call, and after an error every call returns it again.
func (r *Reader) Read(p []byte) (int, error) {
	for r.err == nil {
		switch {
		case len(p) == 0:
			return 0, nil
		case len(r.cur) > 0:
			n := copy(p, r.cur)
			r.cur = r.cur[n:]
			return n, nil
		case r.rest != nil:
			n, err := r.rest.Read(p)
			if err != nil {
				r.err = err
				if n > 0 {
					return n, nil
				}
			}
			return n, err
		}
		r.recycle()
		if err := r.advance(); err != nil {
			r.err = err
		}
	}
	return 0, r.err
}

// WriteTo writes the decompressed stream to w until its end or an error,
// handing w the workers' buffers as they are (io.Copy uses it): one copy
// of every byte fewer than Read. It returns the error Read would return
// (nil at the end of the stream) or w's.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for r.err == nil {
		switch {
		case len(r.cur) > 0:
			n, err := w.Write(r.cur)
			total += int64(n)
			r.cur = r.cur[n:]
			if err != nil {
				return total, err
			}
			continue
		case r.rest != nil:
			n, err := io.Copy(w, r.rest)
			total += n
			if err != nil {
				return total, err
			}
			r.err = io.EOF
			return total, nil
		}
		r.recycle()
		if err := r.advance(); err != nil {
			r.err = err
		}
	}
	if r.err == io.EOF {
		return total, nil
	}
	return total, r.err
}

// recycle gives the buffer of the message just read back to the workers.
func (r *Reader) recycle() {
	if r.curMsg.recycle != nil {
		r.pipe.put(r.curMsg.recycle)
	}
	r.curMsg = message{}
}

// advance takes the next message of the jobs in order into cur, handing out
// jobs as the window allows; when the pieces have been read (or one turns
// out damaged) it starts the sequential read of the rest.
func (r *Reader) advance() error {
	r.fill()
	if len(r.queue) == 0 {
		if r.src.seq.inStream() {
			return r.replay()
		}
		return r.sequential(r.src.scan.rest(), 0)
	}
	j := r.queue[0]
	m, ok := <-j.out
	if !ok {
		r.queue = r.queue[1:]
		return nil
	}
	if m.panicked != nil {
		r.pipe.stop()
		r.pipe.unreported() // raised here
		panic(m.panicked)
	}
	r.curMsg = m
	p := &j.pieces[m.piece]
	if p != r.at.piece {
		if err := r.begin(p); err != nil {
			return err
		}
	}
	switch {
	case r.at.skipping:
		return nil
	case m.err != nil:
		// The bytes decoded before the damage are left to the sequential
		// reread, which reports the damage.
		return r.replay()
	}
	r.cur = m.data
	r.at.streamOut += int64(len(m.data))
	r.src.seq.see(p, m.data)
	if !m.done {
		return nil
	}
	v := r.src.seq.finish(p, m.result)
	switch {
	case v.replay:
		return r.replay()
	case v.rest >= 0:
		r.pending(v.rest)
	}
	return nil
}

// begin enters piece p, whose first message has come.
func (r *Reader) begin(p *Piece) error {
	if r.at.piece == nil || p.stream != r.at.piece.stream {
		r.at.streamOut = 0
	}
	r.at.piece = p
	r.at.skipping = false
	switch r.src.seq.begin(p) {
	case skipPiece:
		r.at.skipping = true
	case replayStream:
		return r.replay()
	}
	return nil
}

// pending makes the sequential read of the rest start at off once the
// bytes in cur are read: the pieces after it are not the file's.
func (r *Reader) pending(off int64) {
	r.pipe.stop()
	r.queue = nil
	r.src.scan = &lookahead{scanner: &noScanner{f: &file{}}, restAt: off}
}

// replay reads the stream of the current piece again sequentially from its
// start, skipping the bytes of it already delivered (those in cur
// included, which are read first): the damage is then reported as a
// sequential reader reports it.
func (r *Reader) replay() error {
	r.pipe.stop()
	r.queue = nil
	r.replays++
	off, skip := r.src.seq.restart(r.at.piece, r.at.streamOut)
	return r.sequential(off, skip)
}

// sequential starts the sequential read of the input from off, a stream
// boundary, skipping its first skip decompressed bytes.
func (r *Reader) sequential(off, skip int64) error {
	r.pipe.stop()
	r.rest = r.src.after(off)
	if skip > 0 {
		if n, err := io.CopyN(io.Discard, r.rest, skip); err != nil {
			// The sequential reader stopped before the bytes a piece
			// delivered: a decoder of the pieces accepted what the
			// sequential one does not.
			return fmt.Errorf("blockz: %s stream at %d: the sequential reread ends after %d of the %d bytes already delivered: %w", r.src.format, off, n, skip, err)
		}
	}
	return nil
}

// fill hands jobs to the workers while the window has room and the scanner
// has pieces. A panic of the scanner (in the reading goroutine) stops the
// workers before it goes on up.
func (r *Reader) fill() {
	defer func() {
		if v := recover(); v != nil {
			r.pipe.stop()
			panic(v)
		}
	}()
	for !r.pipe.stopped && len(r.queue) < r.opt.Window {
		j := r.nextJob()
		if j == nil {
			return
		}
		r.queue = append(r.queue, j)
		r.pipe.start(j)
	}
}

// nextJob takes the next piece from the scanner, with the small pieces after
// it up to smallJob bytes, as a job; nil when there are none.
func (r *Reader) nextJob() *job {
	p, ok := r.src.scan.next()
	if !ok {
		return nil
	}
	j := &job{pieces: []Piece{p}}
	total := p.bound
	for total >= 0 && total < smallJob {
		q, ok := r.src.scan.next()
		if !ok {
			break
		}
		if q.bound < 0 || total+q.bound > smallJob {
			r.src.scan.(*lookahead).unread(q)
			break
		}
		j.pieces = append(j.pieces, q)
		total += q.bound
	}
	j.budget = r.opt.JobMemory
	if total >= 0 && total <= j.budget {
		j.budget, j.whole = total, true
	}
	return j
}

// lookahead is a scanner with pieces put back in front of it.
type lookahead struct {
	scanner
	ahead  []Piece
	restAt int64 // when scanner is a noScanner: where the pieces end
}

func (l *lookahead) next() (Piece, bool) {
	if len(l.ahead) > 0 {
		p := l.ahead[0]
		l.ahead = l.ahead[1:]
		return p, true
	}
	return l.scanner.next()
}

func (l *lookahead) unread(p Piece) { l.ahead = append([]Piece{p}, l.ahead...) }

func (l *lookahead) rest() int64 {
	if _, ok := l.scanner.(*noScanner); ok {
		return l.restAt
	}
	return l.scanner.rest()
}

// pipeline is the workers and what they share.
type pipeline struct {
	jobs chan *job     // jobs handed out and not yet taken by a worker
	quit chan struct{} // closed by stop
	free chan []byte   // buffers read, for the workers to fill again
	wg   sync.WaitGroup
	// preload: a worker reads a whole job's compressed bytes at once.
	preload bool
	// stopped is set by stop, in the reader's goroutine.
	stopped bool
	// panicked is the first panic of a worker (set by it before it is
	// done, read after stop has waited for it); reported: the reader
	// raised it.
	mu       sync.Mutex
	panicked any
	reported bool
}

func newPipeline(opt Options, ra io.ReaderAt, newDecoder func(*input) pieceDecoder, preload bool) *pipeline {
	p := &pipeline{
		jobs:    make(chan *job, opt.Window),
		quit:    make(chan struct{}),
		free:    make(chan []byte, 2*opt.Window),
		preload: preload,
	}
	p.wg.Add(opt.Workers)
	for range opt.Workers {
		in := &input{ra: ra}
		go p.work(newDecoder(in), in)
	}
	return p
}

// unreported returns, once the workers have stopped, the panic of one of
// them that the reader did not raise, as an error; nil when there is none.
func (p *pipeline) unreported() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.panicked == nil || p.reported {
		return nil
	}
	p.reported = true
	return fmt.Errorf("blockz: a worker panicked: %v", p.panicked)
}

// start hands j to the workers; the window has room for it, so that the
// send does not block.
func (p *pipeline) start(j *job) {
	j.out = make(chan message, j.capacity())
	p.jobs <- j
}

// stop ends the workers and waits for them.
func (p *pipeline) stop() {
	if !p.stopped {
		p.stopped = true
		close(p.quit)
		p.wg.Wait()
	}
}

// put gives a buffer back for reuse.
func (p *pipeline) put(b []byte) {
	select {
	case p.free <- b[:0]:
	default:
	}
}

// get returns an empty buffer of at least n bytes of capacity.
func (p *pipeline) get(n int) []byte {
	select {
	case b := <-p.free:
		if cap(b) >= n {
			return b
		}
	default:
	}
	return make([]byte, 0, n)
}
