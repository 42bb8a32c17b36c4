package linereader

import "io"

// Sectionable reports whether ForeachParallel reads a regular file of these contents in
// sections (true) or by one goroutine handing out batches (false), so that the tests can
// say which path each case runs.
func Sectionable(ra io.ReaderAt, opt Options) bool { return sectionable(ra, opt) }

// ParBatchLimits are the most bytes and records of one batch of ForeachParallel and Map.
const ParBatchBytes, ParBatchRecords = parBatchBytes, parBatchRecords
