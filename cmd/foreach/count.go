package main

import (
	"errors"
	"io"

	"github.com/foreachio/foreach/linereader"
)

// count implements -c for one input. A regular file opened here is counted by
// CountNamed, which counts separators in parallel sections (-j) wherever the options
// allow, counts a compressed file's separators as the file allows (-z: through its
// FILE.zidx, found by the name it was opened by, or its structure, in parallel sections;
// its pieces decoded on -j cores; or in one pass), and cuts records only where it must.
// A gzip file indexed as it is read (--index) is counted as it is decoded. Anything else is counted by one pass
// over Pieces, which never holds a record whole: pipes and standard input, which have
// no size to split; files whose size says nothing of their content (0 for /proc's);
// every input under --stats, whose figures come from the records; and every input
// with --too-long skip or cut, whose count of such records is reported.
func (c *command) count(in *input) {
	tossing := c.cfg.opt.MaxRecord > 0 && c.cfg.opt.TooLong != linereader.TooLongStop
	// A text read through a Builder (in.decoded) is counted as it is decoded, below.
	if in.opened && in.size > 0 && !c.cfg.stats && !tossing && !in.decoded {
		c.checkIndex(in) // a stale index's warning (ztext.go)
		// By name: the file opened here is the one whose FILE.zidx -z counts through.
		n, err := linereader.CountNamed(in.file, in.size, in.name, c.cfg.opt, c.cfg.jobs)
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			// Shorter than its size: cut short since it was opened, or a kernel file
			// (/sys) whose size is a page's, not its content's. What it has is counted
			// below, by reading it (ReadAt has not moved its offset).
		case err != nil && !c.warnTrailing(in.name, err):
			c.fail(in.name, err)
			return
		default: // counted, perhaps with trailing data after the compressed streams
			if c.bar != nil {
				c.bar.Add64(in.size)
			}
			c.countDone(in.name, n)
			return
		}
	}
	r := c.readerOf(in)
	defer r.Close()
	var n int64
	if in.decoded && !c.cfg.stats && !tossing {
		// The text of a gzip file being indexed (--index): nothing needs its records
		// one by one, and Runs counts those of a run with bytes.Count, as CountAt
		// counts the stream it replaces, where Pieces would cut each.
		for range r.Runs() {
		}
		n = r.Stats().Records
	} else {
		n = c.countPieces(r)
	}
	// Trailing data after compressed streams is a warning: every record was counted.
	failed := r.Err() != nil && !errors.Is(r.Err(), linereader.ErrTrailingData)
	c.done(in.name, r)
	if !failed {
		c.countDone(in.name, n)
	}
}

// countDone prints the count of one input, as wc -l does.
func (c *command) countDone(name string, n int64) {
	c.tot.counted += n
	if len(c.cfg.files) == 0 {
		c.printf("%d\n", n)
	} else {
		c.printf("%d %s\n", n, name)
	}
}

// countPieces counts the records of r by their pieces, which never hold a record whole,
// noting the length of each for --stats.
func (c *command) countPieces(r *linereader.Reader) int64 {
	var n int64
	length := 0 // of the current record so far
	for piece := range r.Pieces() {
		length += len(piece)
		if !r.Partial() {
			n++
			c.tot.record(length)
			length = 0
		}
	}
	return n
}
