package decompress

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
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

var (
	// ErrTrailingData is wrapped by the *Error of an input whose last
	// complete stream is followed by bytes that are neither zero padding nor
	// another stream; every byte of the streams before them was delivered.
	ErrTrailingData = errors.New("decompress: trailing data after the compressed data")

	errClosed = errors.New("decompress: read after Close")
)

// Reader decompresses a gzip, zstd, bzip2, xz or lz4 stream, recognised by
// its first bytes, and passes any other input on unchanged, byte for byte.
//
// Concatenated streams are read as one, as the formats' own tools do: the
// members of a gzip file made by cat a.gz b.gz, the frames of a zstd or
// lz4 file (skippable frames are skipped), concatenated bzip2 streams and
// xz streams with their padding. An input shorter than a format's magic
// number is not recognised and is passed on as it is, as is empty input.
//
// What follows the last complete stream is treated as gzip treats it, for
// every format: zero bytes up to the end of the input (the padding of tapes
// and block devices) are ignored; other bytes, which do not start another
// stream, are trailing data: every byte of the streams before them is
// delivered, and then an *Error that wraps ErrTrailingData and gives the
// offset at which they start. A caller that reads such a file as zcat does
// takes that error for a warning. (lz4's legacy frames have no end marker:
// what follows one is read as its next block, as lz4 -d reads it.)
//
// A damaged stream (truncated or corrupt) gives every byte the decoder
// produced before the damage and then an *Error. A truncated stream is
// never taken for a complete one: its *Error wraps io.ErrUnexpectedEOF
// (also when the input ends inside the magic number of another stream). An
// error returned by src itself (other than io.EOF) is returned as it is,
// unwrapped.
//
// Memory does not depend on the length of the input: a Reader holds a 64
// KiB read buffer and its decoder's state, which is 32 KiB for gzip; for
// bzip2 the compressed bytes of one block (at most 2.3 MB at level 9, about
// 250 KB on text) and the block decoder's tables (about 7 MB at level 9);
// up to three times the frame's block size
// for lz4 (64 KiB to 4 MiB; 8 MiB blocks in legacy frames); the frame's
// window for zstd (refused above 128 MiB, as the zstd command does by
// default; 2 MiB or less at the default levels) and 128 KiB; the dictionary
// declared in the file for xz and .lzma (8 MiB at xz's default level, 64 MiB
// at -9; refused above 128 MiB), allocated as the data fills it (64 KiB
// first, doubled up to the declared size), plus 64 KiB for an LZMA chunk's
// compressed bytes and 64 KiB for each BCJ or delta filter of a block. (A
// zstd raw block or an lz4 stored block is kept as it passes, to give out
// what there is of it when the input ends inside it, as zstd -dc and lz4 -dc
// do.) A small input that decompresses to a huge output (a decompression
// bomb) is the caller's concern: the Reader never buffers decompressed
// bytes beyond its decoder's window, it produces them as they are read.
//
// A Reader is not safe for concurrent use. It does not start goroutines.
type Reader struct {
	src source

	// started is set by the first Read, which detects the format and
	// creates the decoder.
	started bool
	format  Format
	// after is the format of the streams before the input, for a Reader
	// made by NewReaderAfter; None for one made by NewReader.
	after Format

	// buf is src as the decoder reads it; nil when the input is plain.
	// The bytes of src the decoder has consumed are src.n-buf.Buffered().
	buf *bufio.Reader
	// dec is the decoder reading buf; nil when the input is plain, in
	// which case Read reads src directly.
	dec decoder

	// err is the first error Read returned (io.EOF included), returned
	// again by every later Read: no decoder is asked to go on past an
	// error.
	err error
}

// decoder is one format's decoder, reading Reader.buf. Read returns
// io.EOF once every stream is complete and the input has ended (or only
// padding followed); an *Error it returns (trailing data) is final, any
// other error is wrapped by the Reader.
type decoder interface {
	Read(p []byte) (int, error)
	close()
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
	if r.dec != nil {
		r.dec.close()
		r.dec = nil
	}
	r.buf = nil
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
	if r.after != None {
		return r.startAfter()
	}
	r.started = true
	r.format = r.src.detect()
	if r.format == None {
		return nil
	}
	r.buf = bufio.NewReaderSize(&r.src, readSize)
	if r.format == Zstd && matches(skippable, r.src.head) {
		f, err := r.pastSkippable()
		if err != nil {
			return r.wrap(err)
		}
		r.format = f
	}
	return r.newDecoder()
}

// newDecoder creates the decoder of r.format over r.buf, which starts with
// a stream of that format.
func (r *Reader) newDecoder() error {
	var err error
	switch r.format {
	case Gzip:
		r.dec, err = newGzipDecoder(r.buf, r.consumed)
	case Zstd:
		r.dec, err = newZstdDecoder(r.buf, r.consumed)
	case Bzip2:
		r.dec = newBzip2Decoder(r.buf, r.consumed)
	case Xz:
		r.dec, err = newXzDecoder(r.buf, r.consumed)
	case Lz4:
		r.dec = newLz4Decoder(r.buf, r.consumed)
	case Lzma:
		r.dec, err = newLzmaDecoder(r.buf, r.consumed)
	}
	if err != nil {
		r.dec = nil
		return r.wrap(err)
	}
	return nil
}

// pastSkippable consumes the skippable frames that start the input, which
// zstd and lz4 share, and returns the format of the frame after them: lz4
// for an lz4 frame, zstd otherwise (the zstd decoder then deals with what
// follows, the end of the input included). This is Detect's rule.
func (r *Reader) pastSkippable() (Format, error) {
	for {
		h, err := r.buf.Peek(8)
		if len(h) < 4 || !matches(skippable, h) {
			if g, _ := match(Lz4, h); g == Lz4 {
				return Lz4, nil
			}
			return Zstd, nil
		}
		if len(h) < 8 {
			if err == io.EOF {
				r.buf.Discard(len(h))
				err = io.ErrUnexpectedEOF
			}
			return Zstd, err
		}
		// 64 bits and in pieces: a size of 2 GiB or more is no int on 386 and arm.
		size := int64(binary.LittleEndian.Uint32(h[4:]))
		r.buf.Discard(8)
		for size > 0 {
			k, err := r.buf.Discard(int(min(size, readSize)))
			size -= int64(k)
			if err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return Zstd, err
			}
		}
	}
}

// consumed returns the input offset of the next byte the decoder reads.
func (r *Reader) consumed() int64 { return r.src.n - int64(r.buf.Buffered()) }

// wrap returns the error a decoder reported as an *Error at the offset it
// had consumed, unless it is an *Error already (trailing data) or an error
// of src, which is returned as it is.
func (r *Reader) wrap(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if r.src.ioErr != nil && errors.Is(err, r.src.ioErr) {
		return err
	}
	if err == io.EOF {
		// A decoder creation that hit the end of src: the stream is cut.
		err = io.ErrUnexpectedEOF
	}
	return &Error{Format: r.format, Offset: r.consumed(), Err: err}
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
		f, more := match(None, s.headBuf[:n])
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
			f, _ := match(None, s.head)
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

// Error is the error of a damaged stream, or of trailing data after the
// last complete one: its format, the compressed offset at which the decoder
// failed (the bytes of src it had consumed when it reported the damage, or
// for bzip2 the byte where the damaged block starts, or after the bytes a
// failed CRC covers; for a truncated stream, the length of src; for trailing data, where it
// starts, the end of the last complete stream) and the decoder's error,
// which errors.Is and errors.As reach through Unwrap. A truncated stream's
// Err is io.ErrUnexpectedEOF; trailing data's is ErrTrailingData.
type Error struct {
	Format Format
	Offset int64
	Err    error
}

// Error reads "gzip: unexpected end of data at compressed byte 1048576", or
// with the decoder's own message in the middle ("xz: ...", "bzip2 data
// invalid: ...") without its format prefix repeated. Trailing data reads
// "gzip: decompression OK, trailing data at compressed byte 30 ignored", as
// gzip words it.
func (e *Error) Error() string {
	at := strconv.FormatInt(e.Offset, 10)
	var msg string
	switch {
	case e.Err == ErrTrailingData:
		return string(e.Format) + ": decompression OK, trailing data at compressed byte " + at + " ignored"
	case errors.Is(e.Err, io.ErrUnexpectedEOF):
		msg = "unexpected end of data"
	default:
		msg = strings.TrimPrefix(e.Err.Error(), string(e.Format)+": ")
	}
	return string(e.Format) + ": " + msg + " at compressed byte " + at
}

// Unwrap returns the decoder's error.
func (e *Error) Unwrap() error { return e.Err }
