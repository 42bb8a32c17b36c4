package decompress

import (
	"bufio"
	"compress/bzip2"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// Limits of the decoders, which bound the memory a Reader holds whatever
// its input.
const (
	// maxWindow is the largest zstd window and xz dictionary accepted, 128
	// MiB: the limit of the zstd command's decoder without --memory
	// (window log 27), so that whatever zstd -d reads by default is read
	// here too, and twice the dictionary of xz -9. A frame or block
	// declaring more is refused before anything is allocated.
	maxWindow = 1 << 27

	// readSize is the size of the buffer between src and a decoder. The
	// decoders make many small reads (a zstd block header is 3 bytes, deflate
	// reads byte by byte); the buffer turns them into few large reads of src
	// and lets the consumed offset be computed for errors.
	readSize = 64 << 10
)

var errClosed = errors.New("decompress: read after Close")

// Reader decompresses a gzip, zstd, bzip2 or xz stream, recognised by its
// first bytes, and passes any other input on unchanged, byte for byte.
//
// Concatenated streams are read as one, as the formats' own tools do: the
// members of a gzip file made by cat a.gz b.gz, the frames of a zstd file
// (skippable frames are skipped), concatenated bzip2 streams and xz streams
// with their padding. An input shorter than a format's magic number is not
// recognised and is passed on as it is, as is empty input.
//
// A damaged stream (truncated, corrupt, or followed by bytes that do not
// start another stream) gives every byte the decoder produced before the
// damage and then an *Error. A truncated stream is never taken for a
// complete one: its *Error wraps io.ErrUnexpectedEOF. An error returned by
// src itself (other than io.EOF) is returned as it is, unwrapped.
//
// Memory does not depend on the length of the input: a Reader holds a 64
// KiB read buffer and its decoder's state, which is 32 KiB for gzip, at
// most 900 KB of block for bzip2, the frame's window for zstd (refused above
// 128 MiB, as the zstd command does by default; 2 MiB or less at the default
// levels) and the dictionary declared in the file for xz (8 MiB at xz's
// default level, 64 MiB at -9; refused above 128 MiB). A small input that decompresses to a huge
// output (a decompression bomb) is the caller's concern: the Reader never
// buffers decompressed bytes beyond its decoder's window, it produces them
// as they are read.
//
// A Reader is not safe for concurrent use. It does not start goroutines.
type Reader struct {
	src source

	// started is set by the first Read, which detects the format and
	// creates the decoder.
	started bool
	format  Format

	// buf is src as the decoder reads it; nil when the input is plain.
	// The bytes of src the decoder has consumed are src.n-buf.Buffered().
	buf *bufio.Reader
	// dec is the decoder reading buf; nil when the input is plain, in
	// which case Read reads src directly.
	dec io.Reader
	// zd is dec when the format is zstd, kept to be closed.
	zd *zstd.Decoder
	// xz watches the bytes the xz decoder reads; nil for other formats.
	xz *xzWatch

	// err is the first error Read returned (io.EOF included), returned
	// again by every later Read: no decoder is asked to go on past an
	// error.
	err error
}

// NewReader returns a Reader that decompresses src when its first bytes are
// the magic number of one of the formats, and passes it on unchanged
// otherwise. It does not read src: detection happens in the first Read, so
// NewReader never blocks and never fails.
func NewReader(src io.Reader) *Reader {
	return &Reader{src: source{r: src}}
}

// Format reports the format of the input: "" until the first Read, and
// after it the format detected, "" for plain input.
func (r *Reader) Format() Format { return r.format }

// CompressedBytes reports the bytes read from src so far. Once Read has
// returned io.EOF it is the length of src. (While reading, it runs ahead of
// the bytes decompressed so far by at most the 64 KiB read buffer.)
func (r *Reader) CompressedBytes() int64 { return r.src.n }

// Close releases the decoder's resources. It does not close src. Read after
// Close returns an error. Close always returns nil; calling it more than
// once is allowed.
func (r *Reader) Close() error {
	if r.zd != nil {
		r.zd.Close()
		r.zd = nil
	}
	r.dec, r.buf = nil, nil
	r.started = true
	r.err = errClosed
	return nil
}

// Read reads up to len(p) decompressed bytes into p (for plain input, the
// bytes of src). It returns the bytes produced before an error with a nil
// error, and the error by itself in the next call; after an error, every
// call returns it again.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if !r.started {
		if err := r.start(); err != nil {
			r.err = err
			return 0, err
		}
	}
	var n int
	var err error
	if r.dec == nil {
		n, err = r.src.Read(p)
	} else {
		n, err = r.dec.Read(p)
		if r.xz != nil {
			switch {
			case r.xz.err != nil:
				err = r.xz.err
			case err == io.EOF && !r.xz.complete():
				err = io.ErrUnexpectedEOF
			}
		}
		if err != nil && err != io.EOF {
			err = r.wrap(err)
		}
	}
	if err != nil {
		r.err = err
		if n > 0 {
			return n, nil
		}
	}
	return n, err
}

// start reads the first bytes of src, detects the format and creates its
// decoder.
func (r *Reader) start() error {
	r.started = true
	r.format = r.src.detect()
	if r.format == None {
		return nil
	}
	r.buf = bufio.NewReaderSize(&r.src, readSize)
	var err error
	switch r.format {
	case Gzip:
		// Multi-member files are read as one stream, gzip's default. The
		// gzip reader reads its header here.
		r.dec, err = gzip.NewReader(r.buf)
	case Zstd:
		// Decoding in the calling goroutine (concurrency 1): the engine
		// above already overlaps reading with the loop body, and on two
		// cores the library's default (goroutines decoding ahead) took
		// 1.2 to 2.4 times the CPU time and was no faster in wall time
		// (BenchmarkDecode, benchmarks/results/compress.md).
		r.zd, err = zstd.NewReader(r.buf,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(maxWindow),
			zstd.WithDecoderMaxMemory(maxWindow))
		r.dec = r.zd
	case Bzip2:
		// The standard library's reader reads concatenated streams.
		r.dec = bzip2.NewReader(r.buf)
	case Xz:
		// Multi-stream with padding is the default; the xz reader reads
		// the stream header here.
		r.xz = newXzWatch(r.buf)
		r.dec, err = xz.NewReader(r.xz)
	}
	if err != nil {
		r.dec = nil
		if r.zd != nil {
			r.zd.Close()
			r.zd = nil
		}
		return r.wrap(err)
	}
	return nil
}

// wrap returns the error a decoder reported as an *Error, unless it is an
// error of src, which is returned as it is.
func (r *Reader) wrap(err error) error {
	if r.src.ioErr != nil && errors.Is(err, r.src.ioErr) {
		return err
	}
	if err == io.EOF {
		// A decoder creation that hit the end of src: the stream is cut.
		err = io.ErrUnexpectedEOF
	}
	return &Error{Format: r.format, Offset: r.src.n - int64(r.buf.Buffered()), Err: err}
}

// source is src as seen by Read and the decoders: the bytes read to detect
// the format first, then the rest of src. It counts the bytes read from src.
type source struct {
	r io.Reader
	n int64 // bytes read from r

	// head holds the bytes read for detection that are not yet passed on,
	// a slice of headBuf.
	head    []byte
	headBuf [maxMagic]byte
	// err is the error r returned during detection, held back until head
	// is passed on, and then returned by every call.
	err error
	// ioErr is the last error r returned other than io.EOF. A decoder that
	// reports it has not found damage: the error is passed on unwrapped.
	ioErr error
}

// detect reads from r until the bytes read start a magic number, cannot be
// the start of one, or r ends, and returns the format found. Reading stops
// as soon as the outcome is known, so that a line typed on a terminal is
// not held back waiting for bytes that are not coming.
func (s *source) detect() Format {
	n := 0
	for {
		f, more := match(s.headBuf[:n])
		if f != None || !more || n == len(s.headBuf) {
			s.head = s.headBuf[:n]
			return f
		}
		k, err := s.r.Read(s.headBuf[n:])
		n += k
		s.n += int64(k)
		if err != nil {
			if err != io.EOF {
				s.ioErr = err
			}
			s.err = err
			s.head = s.headBuf[:n]
			f, _ := match(s.head)
			return f
		}
	}
}

func (s *source) Read(p []byte) (int, error) {
	if len(s.head) > 0 {
		n := copy(p, s.head)
		s.head = s.head[n:]
		return n, nil
	}
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	s.n += int64(n)
	if err != nil && err != io.EOF {
		s.ioErr = err
	}
	return n, err
}

// Error is the error of a damaged stream: its format, the compressed offset
// at which the decoder failed (the bytes of src it had consumed when it
// reported the damage; for a truncated stream, the length of src) and the
// decoder's error, which errors.Is and errors.As reach through Unwrap. A
// truncated stream's Err is io.ErrUnexpectedEOF.
type Error struct {
	Format Format
	Offset int64
	Err    error
}

// Error reads "gzip: unexpected end of data at compressed byte 1048576", or
// with the decoder's own message in the middle ("xz: ...", "bzip2 data
// invalid: ...") without its format prefix repeated.
func (e *Error) Error() string {
	var msg string
	if errors.Is(e.Err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of data"
	} else {
		msg = strings.TrimPrefix(e.Err.Error(), string(e.Format)+": ")
	}
	return string(e.Format) + ": " + msg + " at compressed byte " + strconv.FormatInt(e.Offset, 10)
}

// Unwrap returns the decoder's error.
func (e *Error) Unwrap() error { return e.Err }
