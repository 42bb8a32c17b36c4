package inflate

// output is the decoded stream: the history that distances reach into and
// the bytes not yet read, in one buffer.
type output struct {
	// buf[:w] is decoded, all of it history a distance may reach (a
	// distance larger than w is invalid); buf[r:w] is not yet read. buf is
	// allocated once, outSize long.
	buf  []byte
	w, r int
	// limit is where decoding stops a burst: outSize-slack, so that a
	// symbol started before it fits, with a word copy's overshoot.
	limit int
	// base is the decompressed offset of buf[0], counted from where the
	// decoder started (negative while a window given to ResetAt is in buf).
	base int64
}

// reset empties the output and puts window (its last 32 KiB) in as history.
func (o *output) reset(window []byte) {
	if o.buf == nil {
		o.buf = make([]byte, outSize)
	}
	if len(window) > WindowSize {
		window = window[len(window)-WindowSize:]
	}
	o.w = copy(o.buf, window)
	o.r = o.w
	o.limit = outSize - slack
	o.base = -int64(o.w)
}

// offset returns the decompressed offset of the next byte decoded.
func (o *output) offset() int64 { return o.base + int64(o.w) }

// makeRoom moves the last 32 KiB of history to the front of buf once a burst
// would have less than a quarter of its room. All of buf has been read.
func (o *output) makeRoom() {
	if o.w < o.limit-burst/4 {
		return
	}
	n := copy(o.buf, o.buf[o.w-WindowSize:o.w])
	o.base += int64(o.w - n)
	o.w, o.r = n, n
}
