package lzma

import "io"

// Peeker is the input of a Reader1: a *bufio.Reader. The stream's bytes are decoded
// where they lie in its buffer and only they are consumed, so that what follows the
// stream is still to be read when the Reader1 returns io.EOF.
type Peeker interface {
	Peek(n int) ([]byte, error)
	Discard(n int) (int, error)
	Buffered() int
}

// maxOpBytes is the most input one LZMA operation reads (xz-utils' LZMA_IN_REQUIRED):
// while more than that is buffered for each operation allowed, no operation runs out.
const maxOpBytes = 21

// Reader1 decodes an LZMA stream (the data of a .lzma file, "LZMA1"): one range-coded
// stream, ended by its size when the header gives it, by the end-of-payload marker
// when it does not; with both, as xz-utils reads .lzma files since 5.2.6, either. Every
// byte decoded is given out before an error. Invariants: left is the bytes still to
// come when the size is known (-1 when not); started is set once the range decoder has
// its first five bytes; err ends the stream once what is decoded is given out.
type Reader1 struct {
	src     Peeker
	dict    lzDict
	state   lzmaState
	chunk   lzmaChunk
	left    int64
	started bool
	err     error
}

// Reset starts r on an LZMA stream read from src with the properties byte props
// ((pb*5+lp)*9+lc), a dictionary of dictSize bytes and size bytes of output (-1: not
// known). An error: the properties are not LZMA's.
func (r *Reader1) Reset(src Peeker, props byte, dictSize int, size int64) error {
	if props >= 9*5*5 {
		return errLZMAHeader
	}
	r.src, r.left, r.started, r.err = src, size, false, nil
	r.dict.resize(max(dictSize, 4096))
	r.state.reset(uint(props%9), uint(props/9%5), uint(props/45))
	r.chunk = lzmaChunk{}
	return nil
}

// Read gives out the decoded bytes: io.EOF at the end of the stream (src is then at
// the byte after it), another error once everything decoded before it is given out.
func (r *Reader1) Read(p []byte) (int, error) {
	for {
		if n := r.dict.read(p); n > 0 {
			return n, nil
		}
		if r.err != nil {
			return 0, r.err
		}
		r.err = r.step(len(p))
	}
}

// step decodes up to want bytes, as many as the buffered input holds for sure, or all
// of it once src has ended, and consumes the bytes it decoded.
func (r *Reader1) step(want int) error {
	need := maxOpBytes
	if !r.started {
		need = 5
	}
	if r.src.Buffered() < need {
		r.src.Peek(need) // as much as src has, at least need bytes unless it ends
	}
	in, err := r.src.Peek(r.src.Buffered())
	final := len(in) < need
	switch {
	case final && err != nil && err != io.EOF:
		return err
	case !r.started && final:
		return io.ErrUnexpectedEOF
	case !r.started:
		r.started = true
		r.src.Discard(5)
		return r.chunk.rc.init(in[:5])
	}
	rc := &r.chunk.rc
	rc.in, rc.pos, rc.short = in, 0, false
	err = r.run(want, final)
	r.src.Discard(rc.pos)
	return err
}

// run decodes from the input in c.rc.in at most want bytes, and no more operations
// than the input holds for sure unless it is final.
func (r *Reader1) run(want int, final bool) error {
	c := &r.chunk
	if r.left == 0 && c.pending == 0 {
		return r.sizeReached(final)
	}
	c.left = 1 << 30
	if r.left >= 0 {
		c.left = int(min(r.left, 1<<30))
	}
	before := c.left
	if !final {
		want = min(want, len(c.rc.in)/maxOpBytes)
	}
	r.dict.room(want)
	err := c.decode(&r.state, &r.dict)
	if r.left >= 0 {
		r.left -= int64(before - c.left)
	}
	switch {
	case err == errEndMarker:
		return r.endMarker()
	case err != nil:
		return err
	case c.rc.short && final:
		return io.ErrUnexpectedEOF
	case c.rc.short:
		return errLZMAData // cannot be: the operations were bounded by the input
	case r.left == 0 && c.pending == 0:
		return r.sizeReached(final)
	}
	return nil
}

// endMarker ends a stream at its end-of-payload marker: before the size its header
// declares is an error, and the range decoder must end there.
func (r *Reader1) endMarker() error {
	switch {
	case r.left > 0:
		return errLZMASize
	case !r.finished():
		return r.shortOr(errLZMAData)
	}
	return io.EOF
}

// sizeReached ends a stream whose declared size is decoded: there the range decoder
// ends, or an end-of-payload marker follows, and nothing else (a literal or a match
// would be output beyond the size). It waits for more input unless it has an
// operation's worth or the input is final.
func (r *Reader1) sizeReached(final bool) error {
	rc, s := &r.chunk.rc, &r.state
	if !final && len(rc.in)-rc.pos < maxOpBytes {
		return nil
	}
	if r.finished() {
		return io.EOF
	}
	posState := uint32(r.dict.total) & (1<<s.pb - 1)
	if rc.bit(&s.p.isMatch[s.state*posStates+posState]) == 0 {
		return r.shortOr(errLZMASize)
	}
	if _, err := r.chunk.match(s, posState); err == errEndMarker {
		return r.endMarker()
	}
	return r.shortOr(errLZMASize)
}

// shortOr is io.ErrUnexpectedEOF when the input ran out, err otherwise.
func (r *Reader1) shortOr(err error) error {
	if r.chunk.rc.short {
		return io.ErrUnexpectedEOF
	}
	return err
}

// finished reports whether the range decoder ends where it stands: normalized, its
// code 0.
func (r *Reader1) finished() bool {
	rc := &r.chunk.rc
	rc.normalize()
	return !rc.short && rc.code == 0
}
