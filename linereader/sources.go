package linereader

import (
	"errors"
	"io"
)

// Sources made of several inputs, and sources that can be stopped (Follow's). They are
// unexported: only this package makes such sources.
//
// A multiInput source ends each of its inputs with io.EOF. Once every byte of one input
// has been yielded (its unterminated tail as its last record), the engine asks nextInput
// whether another input follows; if so it reads on from that input's first byte, with
// offsets counted from 0 again and line numbers going on.
//
// A source returns errStopped from Read when it was asked to stop (Follow's context, or
// Close): iteration then ends with no error, and bytes buffered without their separator
// are dropped, not yielded as a record, so that a record is never given out half written.
type multiInput interface {
	io.Reader
	nextInput() bool
}

// A stopper is a source that Reader.Close stops instead of ending the engine itself
// (Follow's): stop may be called from any goroutine, and makes the source's Read return
// errStopped promptly, also from a Read that is waiting for data.
type stopper interface {
	stop() error
}

// errStopped is returned by a source's Read when iteration was asked to stop.
var errStopped = errors.New("linereader: source stopped")

// nextInput moves to the source's next input, if it is a multiInput with one. It is
// called with every buffered byte consumed.
func (e *engine) nextInput() bool {
	m, ok := e.src.(multiInput)
	if !ok || e.rerr != io.EOF || !m.nextInput() {
		return false
	}
	consumed := e.end() - e.origin
	e.buf.Reset()
	e.data = e.buf.Bytes()
	e.start, e.scan, e.base, e.origin = 0, 0, 0, -consumed // Stats.Bytes counts every input
	e.lo, e.hi = 0, -1
	e.rerr = nil
	return true
}
