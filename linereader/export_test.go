package linereader

// Hooks for the tests. They exist only in test builds.

// ForceReadAhead makes r read ahead whenever Lines or Batches may, whatever its source
// and however light the loop body, and never judge it idle: the oracle and fault tests
// use it to run every case through the read-ahead layer.
func ForceReadAhead(r *Reader) {
	r.pol.mode = policyAlways
	r.pol.allow(r.e.src, r.e.cfg)
}

// forceIdleReadAhead makes r start read-ahead whenever it may, and judge it idle at
// every judgement, so that it stops and backs off retry bytes at first.
func forceIdleReadAhead(r *Reader, retry int64) {
	r.pol.mode, r.pol.retry = policyAlwaysIdle, retry
	r.pol.allow(r.e.src, r.e.cfg)
}

// ReadAheadStarts reports how many producers r has started since its source was set.
func ReadAheadStarts(r *Reader) int { return r.pol.starts }

// ReadingAhead reports whether a producer runs now.
func ReadingAhead(r *Reader) bool { return r.ra != nil }
