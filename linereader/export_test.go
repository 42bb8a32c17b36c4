package linereader

// Hooks for the external test package (linereader_test). They exist only in test builds.

// ForceReadAhead makes r read ahead whenever Lines or Batches would be allowed to,
// whatever its source and however light the loop body: the oracle and fault tests use it
// to run every case through the read-ahead layer.
func ForceReadAhead(r *Reader) {
	r.raForce = true
	r.allowReadAhead()
}
