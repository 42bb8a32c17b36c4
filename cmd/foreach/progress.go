package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// progressThreshold is the input size from which the progress bar is on by
// default (when standard error is a terminal).
const progressThreshold = 256 << 20

// startProgress creates the progress bar if --progress asks for it, or by default
// when standard error is a terminal, standard output is not (a bar drawn on the
// terminal that shows the records would be mixed into them; --index shows none),
// and the inputs are regular files that add up to at least progressThreshold bytes.
func (c *command) startProgress(names []string) {
	auto := c.cfg.progress == progressAuto
	// --index alone prints nothing: its bar may share the terminal with standard output.
	mixed := isTerminal(c.stdout) && !c.cfg.indexOnly()
	if c.cfg.progress == progressOff || auto && (!isTerminal(c.stderr) || mixed) {
		return
	}
	total, known := inputSize(names, c.stdin)
	if auto && (!known || total < progressThreshold) {
		return
	}
	if !known {
		total = -1 // a spinner with the bytes done
	}
	c.bar = newBar(c.stderr, total)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// finishProgress clears the bar from standard error.
func (c *command) finishProgress() {
	if c.bar != nil {
		c.bar.Finish()
	}
}

// inputSize is the total size of the inputs and whether all of them are
// regular files whose size is known.
func inputSize(names []string, stdin io.Reader) (total int64, known bool) {
	known = true
	for _, name := range names {
		var fi os.FileInfo
		var err error
		if name == "-" {
			f, ok := stdin.(*os.File)
			if !ok {
				known = false
				continue
			}
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(name)
		}
		if err != nil {
			continue // reported when the file is opened
		}
		if !fi.Mode().IsRegular() {
			known = false
			continue
		}
		total += fi.Size()
	}
	return total, known
}

// progressReader advances the bar by the bytes read through it.
type progressReader struct {
	r   io.Reader
	bar *bar
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.bar.Add64(int64(n))
	}
	return n, err
}
