package main

import (
	"io"

	"github.com/foreachio/foreach/linereader"
)

// reuse is the one Reader the command reads its inputs with, one after the other. A
// Reader made per input allocates its buffer each time: over a tree of small files
// that allocation, and the collections it brings on, cost more than the reading.
// Reset keeps the buffer, and gives back one that grew for a long record.
type reuse struct {
	r *linereader.Reader // nil before the first input read through the engine
	// grows is r's Stats().Buffer.Grows when it was reset for the current input:
	// Reset keeps the buffer's history, and the totals add each input's growths once.
	grows int
}

// reader returns the command's Reader, started over on src.
func (c *command) reader(src io.Reader) *linereader.Reader {
	if c.rd.r == nil {
		c.rd.r = linereader.New(src, c.cfg.opt)
		return c.rd.r
	}
	c.rd.r.Reset(src)
	c.rd.grows = c.rd.r.Stats().Buffer.Grows
	return c.rd.r
}

// stats returns r's figures for the input it has read: the buffer's growths are those
// of this input alone when r is the command's Reader.
func (c *command) stats(r *linereader.Reader) linereader.Stats {
	st := r.Stats()
	if r == c.rd.r {
		st.Buffer.Grows -= c.rd.grows
	}
	c.ix.compressedStats(r, &st) // a Builder's text: the compressed side (indexing.go)
	return st
}
