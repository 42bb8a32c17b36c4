package bytelist

// TEMPORARY: compile-only stand-in; replaced by the real ByteList.

import "io"

type ByteList struct{ b []byte }

type Stats struct {
	Grows      int
	BytesMoved int64
	PeakCap    int
	Resets     int
}

func New(capacity int) *ByteList                           { return &ByteList{} }
func NewWithGrowth(capacity int, factor float64) *ByteList { return &ByteList{} }
func (b *ByteList) Len() int                               { return len(b.b) }
func (b *ByteList) Cap() int                               { return cap(b.b) }
func (b *ByteList) Bytes() []byte                          { return b.b }
func (b *ByteList) Clone() []byte                          { return append([]byte(nil), b.b...) }
func (b *ByteList) String() string                         { return string(b.b) }
func (b *ByteList) Write(p []byte) (int, error)            { b.b = append(b.b, p...); return len(p), nil }
func (b *ByteList) WriteByte(c byte) error                 { b.b = append(b.b, c); return nil }
func (b *ByteList) Grow(n int)                             {}
func (b *ByteList) Reset()                                 { b.b = b.b[:0] }
func (b *ByteList) Truncate(n int)                         { b.b = b.b[:n] }
func (b *ByteList) Discard(n int)                          { b.b = append(b.b[:0], b.b[n:]...) }
func (b *ByteList) ReadFrom(r io.Reader) (int64, error)    { return 0, nil }
func (b *ByteList) Fill(r io.Reader, n int) (int, error)   { return 0, nil }
func (b *ByteList) Release(keep int)                       {}
func (b *ByteList) Stats() Stats                           { return Stats{} }
