package pgzip

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
)

// Defaults of Options.
const (
	// DefaultChunkSize is the compressed bytes of a chunk: large enough
	// that guessing a start and the markers after it cost little beside
	// decoding the chunk (on real text the markers can last a few MiB of
	// text), small enough to share a file of tens of MiB among a few
	// workers and to balance them (on 128 MiB of Go sources, 2 cores:
	// 1.52x the sequential decode with 3 MiB, 1.37x with 4).
	DefaultChunkSize = 3 << 20
	// chunkTextRatio bounds a chunk's text, by default, at this many times
	// its compressed size.
	chunkTextRatio = 8
)

var errClosed = errors.New("pgzip: read after Close")

// Options configure a Reader.
type Options struct {
	// Workers is the number of goroutines decoding, the caller's
	// included: the Reader starts Workers-1, and Read decodes every
	// Workers-th share of the stream itself. 0 or 1 decode the file
	// sequentially, exactly as decompress.NewReader does.
	Workers int
	// ChunkSize is the compressed bytes of a chunk; 0 is DefaultChunkSize.
	// A member shorter than two chunks is decoded sequentially.
	ChunkSize int64
	// MaxChunkText bounds the text a chunk holds; 0 is 8 times ChunkSize.
	// Where a chunk's text would be longer, the consumer decodes the rest
	// of its share itself.
	MaxChunkText int
}

// Reader decompresses a file as decompress.NewReader does, with the text
// of a gzip member decoded in parallel by speculation: see the package doc.
// A Reader is not safe for concurrent use; Close must not be called during
// a Read.
type Reader struct {
	src  io.ReaderAt
	size int64
	opt  Options

	// cur is what is being read: a member decoded in parallel, or the rest
	// of the file read sequentially; nil before the first Read.
	cur io.Reader
	// member is cur when cur is a member decoded in parallel.
	member *member
	// crew is the workers and their buffers, started for the first member
	// decoded in parallel and stopped at the end, on an error or by Close.
	crew *crew
	// streamer and resolver are kept from one use to the next
	// (member.stream, member.accept).
	streamer *streamer
	resolver *inflate.Resolver
	// err is the error (io.EOF included) Read stopped with, returned again.
	err   error
	stats Stats
}

// NewReader returns a Reader of the file src, of size bytes. It reads
// nothing and starts no goroutine: that happens in the first Read.
func NewReader(src io.ReaderAt, size int64, opt Options) *Reader {
	if opt.ChunkSize <= 0 {
		opt.ChunkSize = DefaultChunkSize
	}
	if opt.MaxChunkText <= 0 {
		opt.MaxChunkText = int(min(chunkTextRatio*opt.ChunkSize, 1<<30))
	}
	return &Reader{src: src, size: size, opt: opt}
}

// Stats reports what the Reader has done so far.
func (r *Reader) Stats() Stats { return r.stats }

// Read reads up to len(p) decompressed bytes into p. Its bytes and errors
// are decompress.NewReader's over the same file: the bytes produced before
// an error come with a nil error, and the error by itself in the next
// call, and again in every later one.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.cur == nil {
		r.cur = r.open(0)
	}
	for {
		n, err := r.cur.Read(p)
		if err == io.EOF && r.member != nil {
			r.cur = r.after(r.member.end)
			if n == 0 {
				continue
			}
			err = nil
		}
		if err != nil {
			r.stop(err)
			if n > 0 {
				return n, nil
			}
		}
		return n, err
	}
}

// WriteTo writes the rest of the decompressed bytes to w.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, 256<<10)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			k, werr := w.Write(buf[:n])
			total += int64(k)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Close stops the workers, waiting for them: no goroutine of the Reader
// outlives it. It does not close src. Read after Close returns an error.
// Close always returns nil; calling it more than once is allowed.
func (r *Reader) Close() error {
	r.stop(errClosed)
	r.err = errClosed
	return nil
}

// stop ends reading with err: the member in progress lets its chunks go
// and the workers stop.
func (r *Reader) stop(err error) {
	if r.member != nil {
		r.member.dropAll()
		r.member = nil
	}
	if r.crew != nil {
		r.crew.stop()
		r.crew = nil
	}
	r.err = err
}

// open returns the reading of the file from byte off on, where the file
// starts (off 0) or a gzip member follows another: a member decoded in
// parallel when there are workers and it is long enough, else the file read
// sequentially from there.
func (r *Reader) open(off int64) io.Reader {
	if r.opt.Workers > 1 && r.size-off >= 2*r.opt.ChunkSize {
		br := bufio.NewReaderSize(io.NewSectionReader(r.src, off, r.size-off), 4<<10)
		if n, err := inflate.ReadHeader(br); err == nil {
			if r.crew == nil {
				r.crew = startCrew(r.src, r.size, r.opt)
				r.resolver = new(inflate.Resolver)
			}
			r.member = newMember(r, (off+int64(n))*8)
			return r.member
		}
	}
	r.member = nil
	return &shifted{decompress.NewReader(io.NewSectionReader(r.src, off, r.size-off)), off}
}

// after returns the reading of what follows a member that ends at byte end,
// as decompress reads it: nothing, another member (decoded in parallel if
// it can be), or padding or trailing data, read by decompress after a
// member of its own.
func (r *Reader) after(end int64) io.Reader {
	var head [3]byte
	n, _ := io.NewSectionReader(r.src, 0, r.size).ReadAt(head[:], end)
	switch {
	case n == 0 && end >= r.size:
		r.member = nil
		return eofReader{}
	case n == 3 && head == [3]byte{0x1f, 0x8b, 8}:
		return r.open(end)
	}
	// decompress decides what follows a member; it is given an empty
	// member first, so that what follows comes after one, and its offsets
	// are moved to the file's.
	r.member = nil
	rest := io.MultiReader(bytes.NewReader(emptyMember[:]), io.NewSectionReader(r.src, end, r.size-end))
	return &shifted{decompress.NewReader(rest), end - int64(len(emptyMember))}
}

// emptyMember is a gzip member of no text: a header of no field, a final
// fixed-code block of its end code alone, a trailer of zeros.
var emptyMember = [20]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 3, 0}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// shifted reads the file sequentially with decompress, the offsets of its
// errors moved by shift bytes to the file's.
type shifted struct {
	r     *decompress.Reader
	shift int64
}

func (s *shifted) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	var e *decompress.Error
	if s.shift != 0 && errors.As(err, &e) {
		moved := *e
		moved.Offset += s.shift
		err = &moved
	}
	return n, err
}

// crew is the workers: goroutines decoding the chunks sent on jobs, each
// with buffers of its own, and the chunks' buffers.
type crew struct {
	jobs  chan *chunk
	wg    sync.WaitGroup
	bufs  *bufferPool
	depth int // the most chunks sent and not yet taken or let go
}

// startCrew starts Workers-1 workers: the consumer decodes too.
func startCrew(src io.ReaderAt, size int64, opt Options) *crew {
	c := &crew{depth: opt.Workers - 1, bufs: &bufferPool{text: opt.MaxChunkText}}
	c.jobs = make(chan *chunk, c.depth)
	for range opt.Workers - 1 {
		w := newWorker(src, size, c.bufs)
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer w.release()
			for ch := range c.jobs {
				if ch.cancel.Load() {
					close(ch.done)
					continue
				}
				w.decode(ch)
			}
		}()
	}
	return c
}

// stop lets the workers finish the chunks sent (cancelled by then) and
// waits for them.
func (c *crew) stop() {
	close(c.jobs)
	c.wg.Wait()
	c.bufs.release()
}
