package bytelist

// Exported for testing only.

const (
	MinCap        = minCap
	MinRead       = minRead
	MaxEmptyReads = maxEmptyReads
)

// Raw returns the whole backing array, spare capacity included, so that tests can check
// which array a list uses and what its spare bytes hold.
func Raw(b *ByteList) []byte { return b.buf[:cap(b.buf)] }
