package linereader

import (
	"errors"
	"io"

	"github.com/foreachio/foreach/internal/decompress"
)

// Input is one input of a Reader made by NewInputs: R yields the input's bytes from
// offset Start of it on, so that Offset and EndOffset, which count from the start of the
// input being read, count from Start (an input left at a record boundary before its end
// and gone back to later, a file positioned at a checkpoint).
type Input struct {
	R     io.Reader
	Start int64
}

// NewInputs returns a Reader over a sequence of inputs read one after the other: when
// one ends (its Read returns io.EOF) and every byte of it has been yielded (its
// unterminated tail as its last record, as at any end of input), next is called for the
// following one; next reporting false ends the records. A record never spans two inputs.
// Offset and EndOffset count from the start of the input being read (from its Start),
// LineNo goes on across inputs, and Stats counts them all. With Options.Decompress each
// input is decompressed on its own.
//
// next is called on the goroutine that iterates, within Next or an iterator's step,
// never while a Read is in progress: the first time at the first Next. A Reader from
// NewInputs is stopped by its inputs, not from outside: an input whose Read returns
// ErrStop ends iteration after the complete records already read (see ErrStop). Reset
// makes it a Reader of one input.
func NewInputs(next func() (Input, bool), opt Options) *Reader {
	r := &Reader{e: newEngine(newConfig(opt))}
	r.e.reset(nil, next)
	return r
}

// ErrStop is what a source's Read returns when the reading was asked to stop (a context
// ended, a follower closed): iteration ends after the complete records already read, and
// Err reports nil. Bytes read after the last separator are dropped, not yielded as a
// record, so that a record being written when the stop came is never given out half
// written. A source must return ErrStop itself, not an error wrapping it.
var ErrStop = errors.New("linereader: source stopped")

// ErrFlush is what a source's Read returns, with no bytes, when nothing has arrived for a
// while (a follower's quiet period: follow.Options.Flush). With Options.Multiline, the
// record in progress is then yielded as soon as its lines are complete, without waiting
// for the line that would say whether it goes on: a record whose next line has not
// arrived whole ends there (an incomplete line of the record's own is still waited for).
// Without Multiline it changes nothing. Reading goes on after it: the next Read is asked
// for more, as after a Read that returned no bytes. A source returns it once per quiet
// period (returning it again at once, with nothing new, only costs a turn of the loop),
// itself, not wrapped.
var ErrFlush = errors.New("linereader: source quiet")

// inputs is where a Reader from NewInputs gets its inputs: nextInput, nil for a Reader of one
// input (New, Reset) or once next has reported false.
type inputs struct {
	nextInput func() (Input, bool)
}

// decoding is the decompressor around the input being read, with Options.Decompress: r
// is nil otherwise; before counts the compressed bytes of the inputs read before it, so
// that Stats.CompressedBytes covers them all.
type decoding struct {
	r      *decompress.Reader
	before int64
}

// open makes src the input being read, decompressed with Options.Decompress.
func (e *engine) open(src io.Reader) {
	e.src = src
	if e.cfg.opt.Decompress && e.cfg.err == nil && src != nil {
		e.dec.r = decompress.NewReader(src)
		e.src = e.dec.r
	}
}

// closeSource releases the decompressor of the input being read, if there is one.
func (e *engine) closeSource() {
	if e.dec.r != nil {
		e.dec.before += e.dec.r.CompressedBytes()
		e.dec.r.Close()
		e.dec.r = nil
	}
}

// compressed reports the format of the input being read and the compressed bytes read
// so far (Options.Decompress), "" and 0 otherwise.
func (e *engine) compressed() (string, int64) {
	if e.dec.r == nil {
		return "", e.dec.before
	}
	return string(e.dec.r.Format()), e.dec.before + e.dec.r.CompressedBytes()
}

// moveOn moves to the next input, if the input read so far ended cleanly and next
// gives one. It is called with every buffered byte consumed.
func (e *engine) moveOn() bool {
	if e.inputs.nextInput == nil || e.rerr != io.EOF {
		return false
	}
	in, ok := e.inputs.nextInput()
	if !ok {
		e.inputs.nextInput = nil
		return false
	}
	consumed := e.end() - e.origin
	e.closeSource()
	e.open(in.R)
	e.buf.Reset()
	e.sync()
	e.start, e.scan, e.base, e.origin = 0, 0, in.Start, in.Start-consumed // Stats.Bytes counts every input
	e.lo, e.hi = 0, -1
	e.rerr = nil
	e.joining = noJoin
	return true
}

// newAt is New for a source whose first byte is at offset start of its input (a tail of
// a file): Offset and EndOffset count from the input's start, Stats.Bytes from start.
func newAt(src io.Reader, start int64, opt Options) *Reader {
	r := New(src, opt)
	r.e.base, r.e.origin = start, start
	return r
}
