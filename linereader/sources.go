package linereader

import (
	"errors"
	"io"
)

// Sources that are more than one io.Reader: the contract a source of several inputs, or a
// source that can be stopped, keeps with a Reader. The follow package's sources are built
// on it; anyone may write one.

// A MultiSource is a source made of several inputs read one after the other: its Read
// ends each input with io.EOF. Once every byte of that input has been yielded (its
// unterminated tail as its last record, as at any end of input), the Reader calls
// NextInput; if it reports true, reading goes on from the next input's first byte, with
// Offset and EndOffset counting from 0 again, LineNo going on, and Stats counting every
// input. NextInput is called on the goroutine that iterates, never while a Read is in
// progress, and only after Read returned io.EOF.
type MultiSource interface {
	io.Reader
	NextInput() bool
}

// A ResumingSource is a MultiSource whose next input may begin past its first byte: an
// input left at a record boundary before its end, for another input, and gone back to
// later. After NextInput reports true, the Reader calls InputStart for the offset in the
// next input of the first byte Read yields from it; Offset and EndOffset count from
// there. The follow package leaves the file at the name this way for an older file that
// a listing found late, and comes back to it.
type ResumingSource interface {
	MultiSource
	InputStart() int64
}

// ErrStop is what a source's Read returns when the reading was asked to stop (a context
// ended, Close called): iteration ends after the complete records already read, and Err
// reports nil. Bytes read after the last separator are dropped, not yielded as a record,
// so that a record being written when the stop came is never given out half written. A
// source must return ErrStop itself, not an error wrapping it.
var ErrStop = errors.New("linereader: source stopped")

// A Stopper is a source that Close stops instead of ending the Reader itself. Stop may be
// called from any goroutine, also while the loop is blocked in the source's Read, and
// makes that Read (and every later one) return ErrStop promptly; the loop then ends on
// its own goroutine. Reset stops such a source too before it takes the new one.
type Stopper interface {
	Stop() error
}

// NewAt is New for a source whose first byte is at offset start of its input (a file
// opened and positioned there, a checkpoint resumed): Offset and EndOffset count from
// the start of the input, not from start, and Stats.Bytes from start. Reset starts again
// from offset 0.
func NewAt(src io.Reader, start int64, opt Options) *Reader {
	r := New(src, opt)
	r.e.base, r.e.origin = start, start
	return r
}

// nextInput moves to the source's next input, if it is a MultiSource with one. It is
// called with every buffered byte consumed.
func (e *engine) nextInput() bool {
	m, ok := e.src.(MultiSource)
	if !ok || e.rerr != io.EOF || !m.NextInput() {
		return false
	}
	consumed := e.end() - e.origin
	var at int64
	if r, ok := m.(ResumingSource); ok {
		at = r.InputStart()
	}
	e.buf.Reset()
	e.sync()
	e.start, e.scan, e.base, e.origin = 0, 0, at, at-consumed // Stats.Bytes counts every input
	e.lo, e.hi = 0, -1
	e.rerr = nil
	return true
}
