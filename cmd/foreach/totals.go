package main

import "github.com/foreachio/foreach/linereader"

// totals are the figures of the inputs read so far, for --stats and -c's total. Every
// field only grows; each input adds to them once, when it is done (add, countDone), so
// that an input that fails to open adds nothing but what it read.
type totals struct {
	files   int   // inputs opened (or followed), failed ones included once opened
	records int64 // records read through the engine (not those counted by CountAt)
	bytes   int64 // bytes read through the engine, decompressed
	// With -z: the inputs that were compressed, their compressed bytes and the bytes
	// they gave; compressedOut is part of bytes.
	compressedFiles int
	compressedIn    int64
	compressedOut   int64
	longest         int   // the longest record, measured here: Pieces and Runs report pieces and runs
	grows           int   // buffer growths
	counted         int64 // -c: the records of the inputs counted so far, for "N total"
}

// add takes in the figures of one input read through the engine.
func (t *totals) add(st linereader.Stats) {
	t.records += st.Records
	t.bytes += st.Bytes
	if st.Format != "" {
		t.compressedFiles++
		t.compressedIn += st.CompressedBytes
		t.compressedOut += st.Bytes
	}
	t.grows += st.Buffer.Grows
}

// record notes a record of n bytes.
func (t *totals) record(n int) { t.longest = max(t.longest, n) }

// numbering is -n's state across the inputs: as cat -n, the numbers go on from one
// input to the next, and a line left unterminated at the end of one input is
// continued by the next input's first line.
type numbering struct {
	base    int64      // lines numbered in the inputs before the current one
	num     lineNumber // the prefix of the last number written
	midLine bool       // the last record written has no terminator: the next input's first line continues it
}
