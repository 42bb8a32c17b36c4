package ztext

import (
	"errors"
	"io"
	"sync"
)

// ordered reads the text of an index in order on several goroutines: the text is cut
// into jobs between access points, which the workers read from the index's ReaderAt
// (each job from the point it starts at, so that no job decodes what another does) while
// the reader takes their bytes in order. Memory is bounded: a window of workers+1 jobs,
// each holding at most jobMemory bytes while it waits to be read.
type ordered struct {
	ra    io.ReaderAt
	cuts  []int64 // job i is [cuts[i], cuts[i+1])
	next  int     // the next job to hand out
	queue []*job  // handed out, not yet read, in order; queue[0] is being read
	// cur is the rest of the message being read; curBuf its buffer, given back once read.
	cur, curBuf []byte
	// end is what the stream ends with after the text: io.EOF, or the trailing data
	// after the last gzip member; pending is an error to return once cur is read; err
	// is the error Read returns from now on.
	end, pending, err error
	window            int
	work              *pool
}

// job is one run of the text between two cuts, read by one worker in chunks.
type job struct {
	start, end int64
	out        chan message // closed after the last
}

// message is a chunk of a job's text, or the error that ended its reading.
type message struct {
	data []byte
	err  error
}

const (
	// jobText is the least text in a job: access points closer together are merged,
	// so that handing a job over costs little beside reading it.
	jobText = 4 << 20
	// chunkSize is the size of a worker's reads and of the chunks handed over;
	// jobMemory the most of them a job holds while it waits.
	chunkSize = 1 << 20
	jobMemory = 8 << 20
)

// newOrdered returns the stream of ra[0:size), cut at points into jobs read by workers
// goroutines, ending with end (nil: io.EOF).
func newOrdered(ra io.ReaderAt, size int64, points []int64, workers int, end error) *ordered {
	o := &ordered{ra: ra, window: workers + 1, end: end}
	if o.end == nil {
		o.end = io.EOF
	}
	o.cuts = []int64{0}
	for _, p := range points {
		if p-o.cuts[len(o.cuts)-1] >= jobText && p < size {
			o.cuts = append(o.cuts, p)
		}
	}
	o.cuts = append(o.cuts, size)
	o.work = newPool(workers, o.window, ra)
	return o
}

// Read reads the text in order.
func (o *ordered) Read(p []byte) (int, error) {
	for o.err == nil {
		switch {
		case len(o.cur) > 0:
			n := copy(p, o.cur)
			o.cur = o.cur[n:]
			return n, nil
		case o.pending != nil:
			o.err = o.pending
		default:
			o.err = o.advance()
		}
	}
	return 0, o.err
}

// advance takes the next message of the jobs in order into cur, handing out jobs as the
// window allows; at the end of the last job it returns o.end.
func (o *ordered) advance() error {
	if o.curBuf != nil {
		o.work.put(o.curBuf)
		o.curBuf = nil
	}
	for len(o.queue) < o.window && o.next+1 < len(o.cuts) {
		j := &job{start: o.cuts[o.next], end: o.cuts[o.next+1], out: make(chan message, jobMemory/chunkSize)}
		o.next++
		o.queue = append(o.queue, j)
		o.work.jobs <- j
	}
	if len(o.queue) == 0 {
		return o.end
	}
	m, ok := <-o.queue[0].out
	switch {
	case !ok:
		o.queue = o.queue[1:]
		return nil
	case m.err != nil:
		o.cur, o.pending = m.data, m.err // the bytes before the error, then the error
		o.work.stop()
		return nil
	}
	o.cur, o.curBuf = m.data, m.data
	return nil
}

// Close stops the workers and waits for them.
func (o *ordered) Close() error {
	o.work.stop()
	if o.err == nil || o.err == io.EOF {
		o.err = errClosed
	}
	o.queue, o.cur = nil, nil
	return nil
}

var errClosed = errors.New("ztext: read after Close")

// pool is the workers of an ordered stream and what they share.
type pool struct {
	ra   io.ReaderAt
	jobs chan *job     // handed out, not yet taken; never more than the window
	quit chan struct{} // closed by stop
	free chan []byte   // buffers read, for the workers to fill again
	wg   sync.WaitGroup
	once sync.Once
}

func newPool(workers, window int, ra io.ReaderAt) *pool {
	p := &pool{ra: ra, jobs: make(chan *job, window), quit: make(chan struct{}), free: make(chan []byte, 2*window)}
	p.wg.Add(workers)
	for range workers {
		go p.run()
	}
	return p
}

// run reads the jobs handed out until stop.
func (p *pool) run() {
	defer p.wg.Done()
	for {
		select {
		case j := <-p.jobs:
			if !p.read(j) {
				return
			}
		case <-p.quit:
			return
		}
	}
}

// read reads job j chunk by chunk into its messages; false once stopped.
func (p *pool) read(j *job) bool {
	defer close(j.out)
	for off := j.start; off < j.end; {
		buf := p.get()[:min(chunkSize, j.end-off)]
		n, err := p.ra.ReadAt(buf, off)
		if n == len(buf) {
			err = nil // io.EOF with the last bytes
		} else if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		select {
		case j.out <- message{data: buf[:n], err: err}:
		case <-p.quit:
			return false
		}
		if err != nil {
			return true
		}
		off += int64(n)
	}
	return true
}

// stop ends the workers and waits for them; once.
func (p *pool) stop() {
	p.once.Do(func() {
		close(p.quit)
		p.wg.Wait()
	})
}

func (p *pool) put(b []byte) {
	select {
	case p.free <- b[:cap(b)]:
	default:
	}
}

func (p *pool) get() []byte {
	select {
	case b := <-p.free:
		return b
	default:
		return make([]byte, chunkSize)
	}
}
