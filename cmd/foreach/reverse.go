package main

import (
	"bytes"
	"io"
	"os"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/linereader"
)

// reverse prints the records of one input last first, as tac does (with --last N, only
// the last N of them). src is the input when it is a regular file whose bytes are its
// records (plain); other input (a pipe, standard input, compressed input with -z) is
// first copied, decompressed with -z, into a temporary file, as tac does, and read
// backwards from there.
func (c *command) reverse(in *input, src io.ReaderAt, size int64, plain bool) {
	if !plain {
		f, n, cleanup, err := c.spool(in)
		if f != nil {
			defer cleanup()
		}
		if err != nil && (c.stopped || !c.warnTrailing(in.name, err)) {
			if !c.stopped {
				c.fail(in.name, err)
			}
			return
		}
		src, size = f, n
	}
	opt := c.cfg.opt
	opt.Decompress = false
	if c.cfg.last >= 0 {
		start, err := linereader.TailStart(src, size, c.cfg.last, opt)
		if err != nil {
			c.fail(in.name, err)
			return
		}
		src, size = io.NewSectionReader(src, start, size-start), size-start
	}
	if c.verbatim() {
		c.copyRecords(in.name, linereader.NewBackward(src, size, opt))
		return
	}
	if unterminated(src, size, opt.Separator()) {
		// The last record, without its separator, is printed first, and the record
		// before it runs on after it on the same line, as tac prints them: printed on
		// its own, it leaves that line open, and with -n the next record gets no number
		// of its own, as in `tac | cat -n`.
		start, err := linereader.TailStart(src, size, 1, opt)
		if err != nil {
			c.fail(in.name, err)
			return
		}
		c.printRecords(in.name, linereader.NewTail(src, size, 1, opt))
		if c.stopped {
			return
		}
		src, size = io.NewSectionReader(src, 0, start), start
	}
	c.printRecords(in.name, linereader.NewBackward(src, size, opt))
}

// unterminated reports whether src[0:size) ends with a record that has no separator
// (sep). A read error says false: the backward read reports it.
func unterminated(src io.ReaderAt, size int64, sep []byte) bool {
	if size == 0 {
		return false
	}
	if size < int64(len(sep)) {
		return true
	}
	end := make([]byte, len(sep))
	if _, err := src.ReadAt(end, size-int64(len(sep))); err != nil && err != io.EOF {
		return false
	}
	return !bytes.Equal(end, sep)
}

// spool copies the input, decompressed with -z, into a new temporary file in the
// system's temporary directory ($TMPDIR), and returns it with its size. Where the
// system allows it (not on Windows), the file's name is removed at once, so that
// nothing is left behind however the command ends; cleanup closes the file and
// removes what is left.
func (c *command) spool(in *input) (f *os.File, size int64, cleanup func(), err error) {
	f, err = os.CreateTemp("", "foreach-reverse-")
	if err != nil {
		return nil, 0, nil, err
	}
	name := f.Name()
	if os.Remove(name) == nil {
		name = ""
	}
	cleanup = func() {
		f.Close()
		if name != "" {
			os.Remove(name)
		}
	}
	src := in.src
	if c.options(in).Decompress {
		d := decompress.NewReader(src)
		defer d.Close()
		src = d
	}
	size, err = io.Copy(f, src)
	return f, size, cleanup, err
}

// copyRecords writes the records of r as they are, back to back, appended to the
// output buffer in one loop: the runs of a backward read (its records last first,
// several at a time), when no flag adds to them or takes from them (verbatim).
func (c *command) copyRecords(name string, r *linereader.Reader) {
	w := c.w
	for rec := range r.Runs() {
		if len(rec) <= cap(w.buf)-len(w.buf) {
			w.buf = append(w.buf, rec...)
			continue
		}
		if w.Write(rec); w.err != nil {
			c.writeFailed(w.err)
			break
		}
	}
	c.done(name, r)
}
