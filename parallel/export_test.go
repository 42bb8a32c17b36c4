package parallel

import (
	"io"

	"github.com/foreachio/foreach/linereader"
)

// Sectionable reports whether Foreach reads a regular file of these contents in sections
// (true) or by one goroutine handing out batches (false), so that the tests can say
// which path each case runs.
func Sectionable(ra io.ReaderAt, opt linereader.Options) bool { return sectionable(ra, opt) }

// BatchBytes and BatchRecords are the most bytes and records of one batch; MapWindow is
// how many batches per worker Map lets wait for the loop.
const BatchBytes, BatchRecords, MapWindow = batchBytes, batchRecords, mapWindow
