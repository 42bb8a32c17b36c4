package bytelist

import (
	"errors"
	"io"
	"math"
)

var (
	// ErrTooLarge is passed to panic when a ByteList would need more than math.MaxInt bytes.
	ErrTooLarge = errors.New("bytelist: too large")

	errInvalidRead = errors.New("bytelist: reader returned an invalid count from Read")
)

const (
	// defaultGrowth is the growth factor of New and of the zero value.
	defaultGrowth = 2
	// minGrowth is the smallest growth factor NewWithGrowth accepts: below it, a list
	// growing one byte at a time would copy its contents too often.
	minGrowth = 1.25
	// minCap is the smallest capacity a growth produces, so that a list starting empty
	// does not reallocate for each of its first few bytes.
	minCap = 64
	// minRead is the spare capacity ReadFrom ensures before each Read.
	minRead = 512
	// maxEmptyReads is how many Reads in a row may return no data and no error before
	// ReadFrom gives up with io.ErrNoProgress.
	maxEmptyReads = 100
)

// ByteList is a growable byte buffer whose backing array is kept across Reset, so that one
// list can serve every iteration of a loop. The zero value is an empty list with the
// default growth factor of 2, ready to use.
//
// Limits and failure modes:
//   - A ByteList is not safe for concurrent use.
//   - Bytes returns a view of the contents, not a copy; it is valid only until the next
//     call that changes the list (Write, WriteByte, Grow, Reset, Truncate, Discard,
//     ReadFrom, Fill, Release). Clone and String return copies.
//   - Growing never shrinks: the capacity only goes down through Release.
//   - Negative counts and out-of-range positions panic, as slice indexing would; a list
//     that would exceed math.MaxInt bytes panics with ErrTooLarge.
//   - A reader that returns a negative count, or more bytes than it was given room for,
//     makes ReadFrom and Fill panic.
type ByteList struct {
	// buf holds the contents in buf[:len(buf)]; buf[len(buf):cap(buf)] is spare capacity
	// whose bytes are undefined (Reset and Truncate do not clear them).
	buf []byte
	// growth is the factor by which a growth multiplies the capacity; 0 means
	// defaultGrowth, so that the zero value is usable. Otherwise it is >= minGrowth.
	growth float64
	// stats is cumulative over the list's whole life; nothing resets it.
	stats Stats
}

// Stats describes what a ByteList has cost so far. The counts are cumulative: Reset does
// not clear them.
type Stats struct {
	Grows      int   // times the backing array was replaced to make room (the first allocation of an empty list included)
	BytesMoved int64 // bytes copied by those replacements, by Release, and by Discard
	PeakCap    int   // largest capacity ever held
	Resets     int   // soft resets (calls to Reset)
}

// New returns an empty list with room for capacity bytes and a growth factor of 2.
// It panics if capacity is negative.
func New(capacity int) *ByteList {
	return NewWithGrowth(capacity, defaultGrowth)
}

// NewWithGrowth returns an empty list with room for capacity bytes whose capacity is
// multiplied by factor each time it must grow (or more, when a single write needs more).
// It panics if capacity is negative or factor is not a finite number of at least 1.25.
func NewWithGrowth(capacity int, factor float64) *ByteList {
	b := new(ByteList)
	b.Init(capacity, factor)
	return b
}

// Init makes b an empty list with room for capacity bytes and the given growth factor,
// as NewWithGrowth does, for a ByteList held by value in a larger struct: its contents
// are then reached without a pointer to follow, and a view of them never needs to be
// kept beside it. Whatever b held is dropped and its Stats start again. It panics as
// NewWithGrowth does.
func (b *ByteList) Init(capacity int, factor float64) {
	if capacity < 0 {
		panic("bytelist: negative capacity")
	}
	if !(factor >= minGrowth) || math.IsInf(factor, 1) {
		panic("bytelist: growth factor must be a finite number >= 1.25")
	}
	*b = ByteList{growth: factor}
	if capacity > 0 {
		b.buf = make([]byte, 0, capacity)
		b.stats.PeakCap = capacity
	}
}

// Len returns the number of bytes in the list.
func (b *ByteList) Len() int { return len(b.buf) }

// Cap returns the capacity of the backing array: Len plus the bytes that can be added
// without growing.
func (b *ByteList) Cap() int { return cap(b.buf) }

// Bytes returns the contents of the list. The slice aliases the backing array: it is valid
// only until the next call that changes the list, and changing its bytes changes the
// list's. Its capacity is capped at its length, so appending to it never writes into the
// list's spare capacity.
func (b *ByteList) Bytes() []byte { return b.buf[:len(b.buf):len(b.buf)] }

// Clone returns a copy of the contents in a fresh slice owned by the caller: it never
// aliases the list, and its capacity equals its length, so that retaining it retains
// nothing more. The copy of an empty list is empty and non-nil.
func (b *ByteList) Clone() []byte {
	c := make([]byte, len(b.buf))
	copy(c, b.buf)
	return c
}

// String returns a copy of the contents as a string. On a nil *ByteList it returns "<nil>".
func (b *ByteList) String() string {
	if b == nil {
		return "<nil>"
	}
	return string(b.buf)
}

// Write appends p to the list, growing it if needed. It implements io.Writer and always
// returns len(p), nil. p may be a view of the list itself.
func (b *ByteList) Write(p []byte) (int, error) {
	if len(p) > cap(b.buf)-len(b.buf) { // checked here so that the common case inlines
		b.grow(len(p))
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// WriteString appends s, as Write does for a []byte, without converting it first
// (io.StringWriter). It always returns len(s), nil.
func (b *ByteList) WriteString(s string) (int, error) {
	if len(s) > cap(b.buf)-len(b.buf) {
		b.grow(len(s))
	}
	b.buf = append(b.buf, s...)
	return len(s), nil
}

// WriteByte appends c to the list, growing it if needed. It implements io.ByteWriter and
// always returns nil.
func (b *ByteList) WriteByte(c byte) error {
	if len(b.buf) == cap(b.buf) {
		b.grow(1)
	}
	b.buf = append(b.buf, c)
	return nil
}

// Grow makes room for at least n more bytes, so that the next n bytes written do not grow
// the list. If fewer than n bytes are spare, it replaces the backing array once, with the
// capacity multiplied by the growth factor, or with Len()+n if that is more. It panics if
// n is negative.
func (b *ByteList) Grow(n int) {
	if n < 0 {
		panic("bytelist: negative count")
	}
	b.grow(n)
}

// grow makes room for n >= 0 more bytes, replacing the backing array at most once.
// On return, cap(b.buf)-len(b.buf) >= n.
func (b *ByteList) grow(n int) {
	l, c := len(b.buf), cap(b.buf)
	if n <= c-l {
		return
	}
	if l > math.MaxInt-n {
		panic(ErrTooLarge)
	}
	newCap := max(b.nextCap(c), l+n)
	b.realloc(newCap)
	b.stats.Grows++
}

// nextCap returns the capacity that geometric growth from c leads to: c times the growth
// factor, rounded up, at least minCap. It returns 0 when that does not fit in an int, which
// leaves the caller's exact need to decide.
func (b *ByteList) nextCap(c int) int {
	factor := b.growth
	if factor == 0 {
		factor = defaultGrowth
	}
	next := math.Ceil(float64(c) * factor)
	if next >= math.MaxInt {
		return 0
	}
	return max(int(next), minCap)
}

// realloc replaces the backing array with one of capacity newCap >= len(b.buf), copying
// the contents. It keeps BytesMoved and PeakCap up to date; the caller says whether this
// was a growth.
func (b *ByteList) realloc(newCap int) {
	var buf []byte
	if newCap > 0 {
		buf = make([]byte, len(b.buf), newCap)
		copy(buf, b.buf)
	}
	b.stats.BytesMoved += int64(len(b.buf))
	b.stats.PeakCap = max(b.stats.PeakCap, newCap)
	b.buf = buf
}

// Reset empties the list but keeps its capacity, so that the next writes reuse the same
// backing array. The old bytes are not cleared. Each call counts in Stats.Resets.
func (b *ByteList) Reset() {
	b.buf = b.buf[:0]
	b.stats.Resets++
}

// Truncate keeps the first n bytes of the list and drops the rest; the capacity is kept.
// It panics if n is negative or greater than Len.
func (b *ByteList) Truncate(n int) {
	if n < 0 || n > len(b.buf) {
		panic("bytelist: truncation out of range")
	}
	b.buf = b.buf[:n]
}

// Discard drops the first n bytes of the list and moves the rest to the front of the
// backing array, so that the capacity after them is free again. The bytes moved count in
// Stats.BytesMoved. It panics if n is negative or greater than Len.
func (b *ByteList) Discard(n int) {
	if n < 0 || n > len(b.buf) {
		panic("bytelist: discard out of range")
	}
	if n == 0 {
		return
	}
	kept := copy(b.buf, b.buf[n:])
	b.buf = b.buf[:kept]
	b.stats.BytesMoved += int64(kept)
}

// ReadFrom appends everything r delivers until io.EOF, growing the list as needed, and
// returns the number of bytes read. It implements io.ReaderFrom: io.EOF is not an error,
// any other error from r ends the read and is returned, with every byte delivered before
// it kept. If r returns no data and no error 100 times in a row, ReadFrom returns
// io.ErrNoProgress.
func (b *ByteList) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	empty := 0
	for {
		b.grow(minRead)
		l := len(b.buf)
		m, err := r.Read(b.buf[l:cap(b.buf)])
		if m < 0 || m > cap(b.buf)-l {
			panic(errInvalidRead)
		}
		b.buf = b.buf[:l+m]
		total += int64(m)
		switch {
		case err == io.EOF:
			return total, nil
		case err != nil:
			return total, err
		case m > 0:
			empty = 0
		default:
			empty++
			if empty >= maxEmptyReads {
				return total, io.ErrNoProgress
			}
		}
	}
}

// Fill calls r.Read exactly once, with room for n bytes (1 if n < 1), and appends what it
// delivers. If fewer than n bytes are spare, it first grows the list as Grow(n) does.
// It returns what r.Read returned, io.EOF included: the bytes are kept whatever the error.
func (b *ByteList) Fill(r io.Reader, n int) (int, error) {
	n = max(n, 1)
	b.grow(n)
	l := len(b.buf)
	m, err := r.Read(b.buf[l : l+n : l+n])
	if m < 0 || m > n {
		panic(errInvalidRead)
	}
	b.buf = b.buf[:l+m]
	return m, err
}

// Release gives memory back: if Cap() > keep, it replaces the backing array with one of
// capacity max(Len(), keep), copying the contents. Use it after an unusually large record
// so that the list does not hold its peak size for the rest of the loop. The copy counts
// in Stats.BytesMoved; it is not a growth. Release(0) on an empty list drops the backing
// array altogether. When the capacity already equals max(Len(), keep), nothing happens.
func (b *ByteList) Release(keep int) {
	if cap(b.buf) <= keep {
		return
	}
	newCap := max(len(b.buf), keep)
	if newCap == cap(b.buf) {
		return
	}
	b.realloc(newCap)
}

// Stats returns what the list has cost so far.
func (b *ByteList) Stats() Stats { return b.stats }
