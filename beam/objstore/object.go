package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The errors a read can fail with, besides the store's own (wrapped with the object's URI).
var (
	// ErrChanged means the object was replaced (or deleted) after Open looked at it.
	ErrChanged = errors.New("objstore: the object changed while it was read")
	// ErrRangeIgnored means the server answered a ranged GET with other bytes than those
	// asked for (the whole object, typically): it does not honour the Range header.
	ErrRangeIgnored = errors.New("objstore: the server ignored the Range header")
	// ErrNotFound means the bucket or the object does not exist.
	ErrNotFound = errors.New("objstore: not found")
	// ErrDenied means the credentials do not allow the request.
	ErrDenied = errors.New("objstore: access denied")
)

// IsObjectURI reports whether uri names an object of a store this package reads: s3://
// or gs://.
func IsObjectURI(uri string) bool {
	return strings.HasPrefix(uri, "s3://") || strings.HasPrefix(uri, "gs://")
}

// Info is what a listing or Open tells about an object.
type Info struct {
	URI     string    // s3://bucket/key or gs://bucket/key
	Size    int64     // bytes
	ModTime time.Time // when the object was last written, as the store reports it
}

// store is one service's client: S3 or GCS. Its methods return errors that wrap
// ErrNotFound, ErrDenied, ErrChanged and ErrRangeIgnored where they apply, without the URI
// (Object adds it).
type store interface {
	// stat returns the object's size, modification time and version (an S3 ETag, a GCS
	// generation) as they are now.
	stat(ctx context.Context, bucket, key string) (Info, string, error)
	// rangeBody returns the bytes [off, off+n) of version of the object, n > 0 and
	// off+n <= the object's size; it checks that the server sent that range.
	rangeBody(ctx context.Context, bucket, key, version string, off, n int64) (io.ReadCloser, error)
	// list calls fn for every object of bucket whose key starts with prefix.
	list(ctx context.Context, bucket, prefix string, fn func(key string, size int64, mod time.Time) error) error
}

// Object is one object of a bucket as Open found it: its size and version are fixed then,
// and every read asks the store for that version.
type Object struct {
	Info
	st          store
	bucket, key string
	version     string        // the ETag or generation every read asks for
	received    *atomic.Int64 // bytes read from response bodies, for BytesReceived
}

// Open looks the object up and returns it, or an error naming it that wraps ErrNotFound or
// ErrDenied when the store says so.
func Open(ctx context.Context, uri string) (*Object, error) {
	st, bucket, key, err := parse(ctx, uri)
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, fmt.Errorf("objstore: %s: the URI names a bucket, not an object", uri)
	}
	info, version, err := st.stat(ctx, bucket, key)
	if err != nil {
		return nil, fmt.Errorf("objstore: %s: %w", uri, err)
	}
	info.URI = uri
	return &Object{Info: info, st: st, bucket: bucket, key: key, version: version, received: new(atomic.Int64)}, nil
}

// Version is the version of the object every read asks for, as the store names it (an S3
// ETag, a GCS generation in decimal): with the URI, what identifies the object's bytes.
func (o *Object) Version() string { return o.version }

// BytesReceived is the number of bytes read so far from the store's responses for this
// object, by every Reader and every NewStream.
func (o *Object) BytesReceived() int64 { return o.received.Load() }

// NewStream returns the whole object, read sequentially by one GET (for a compressed
// object, which cannot be read in sections).
func (o *Object) NewStream(ctx context.Context) (io.ReadCloser, error) {
	if o.Size == 0 {
		return io.NopCloser(strings.NewReader("")), nil
	}
	body, err := o.st.rangeBody(ctx, o.bucket, o.key, o.version, 0, o.Size)
	if err != nil {
		return nil, fmt.Errorf("objstore: %s: %w", o.URI, err)
	}
	return &countingBody{body, o.received, o.URI}, nil
}

// countingBody counts the bytes read from a response body and names the object in its
// errors.
type countingBody struct {
	io.ReadCloser
	n   *atomic.Int64
	uri string
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	if err != nil && err != io.EOF {
		err = fmt.Errorf("objstore: %s: %w", b.uri, err)
	}
	return n, err
}

// The windows of a Reader. The first is large enough that a GET's round trip costs little
// next to its bytes; doubling reaches the largest in a few GETs; past the end of the
// caller's span the windows start small again, since the last record usually ends soon
// after it.
const (
	firstWindow = 256 << 10
	maxWindow   = 16 << 20
	tailWindow  = 64 << 10
)

// ReaderAt returns an io.ReaderAt over the object for a caller that reads sequentially up
// to end and then a little past it (a section of records: see the package doc). It is safe
// for concurrent use, but reads at scattered offsets each open a GET; use one Reader per
// sequential reader.
func (o *Object) ReaderAt(ctx context.Context, end int64) *Reader {
	return &Reader{o: o, ctx: ctx, end: min(end, o.Size), window: firstWindow}
}

// Reader is an io.ReaderAt over ranged GETs of an Object; see Object.ReaderAt.
type Reader struct {
	o   *Object
	ctx context.Context
	end int64 // the end of the caller's span: the first window to reach it stops there

	mu sync.Mutex
	// body is the open window, nil when none; left bytes of it remain. pos is the offset
	// of the byte after the last one read (of body's next byte while it is open), once
	// started. window is the size of the last window opened.
	body    io.ReadCloser
	left    int64
	pos     int64
	started bool
	window  int64
}

// ReadAt reads len(p) bytes at off (fewer only at the end of the object, with io.EOF).
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("objstore: %s: read at negative offset %d", r.o.URI, off)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for n < len(p) && off < r.o.Size {
		if r.body == nil || off != r.pos || r.left == 0 {
			if err := r.open(off, len(p)-n); err != nil {
				return n, err
			}
		}
		k, err := io.ReadFull(r.body, p[n:n+int(min(int64(len(p)-n), r.left))])
		n += k
		off += int64(k)
		r.pos, r.left = off, r.left-int64(k)
		r.o.received.Add(int64(k))
		if err != nil {
			r.closeBody()
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return n, fmt.Errorf("objstore: %s: reading at %d: %w", r.o.URI, off, err)
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// open starts the window for a read of want bytes at off, closing the current one.
func (r *Reader) open(off int64, want int) error {
	sequential := r.started && off == r.pos
	r.closeBody()
	switch {
	case sequential && off == r.end, !sequential && off >= r.end:
		r.window = tailWindow // past the span: its last record usually ends soon
	case sequential:
		r.window = min(2*r.window, maxWindow)
	default:
		r.window = firstWindow
	}
	r.started = true
	n := max(r.window, int64(want))
	if off < r.end {
		n = min(n, r.end-off) // stop at the span's end once
	}
	n = min(n, r.o.Size-off)
	body, err := r.o.st.rangeBody(r.ctx, r.o.bucket, r.o.key, r.o.version, off, n)
	if err != nil {
		return fmt.Errorf("objstore: %s: %w", r.o.URI, err)
	}
	r.body, r.pos, r.left = body, off, n
	return nil
}

// closeBody ends the open window. A window read to its end is read to EOF first, so
// that the HTTP connection can serve the next one.
func (r *Reader) closeBody() {
	if r.body == nil {
		return
	}
	if r.left == 0 {
		io.Copy(io.Discard, io.LimitReader(r.body, 1))
	}
	r.body.Close()
	r.body = nil
}

// Close ends the open GET, if any. The Reader may be used again.
func (r *Reader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeBody()
	return nil
}
