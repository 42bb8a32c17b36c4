package main

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/foreachio/foreach/follow"
	"github.com/foreachio/foreach/linereader"
)

// sortNames sorts the FILEs of -f: a FIFO is read as a stream (fifo); a directory is
// reported, as any FILE that cannot be read, and left out; every other name is given to
// follow.OpenMany, as the pattern it is (a name that no file has, holding *, ? or [, or
// with ** for any number of directories) or as a plain name (a file's own name escaped,
// so that a file called "a*" is itself); a plain name that does not exist yet is waited
// for, with one message, as tail -F does.
func (fl *following) sortNames(names []string) (patterns, fifos []string) {
	c := fl.c
	for _, name := range names {
		fi, err := os.Stat(name)
		switch {
		case err == nil && fi.Mode()&fs.ModeNamedPipe != 0:
			fifos = append(fifos, name)
		case err == nil && fi.IsDir():
			c.fail(name, &fs.PathError{Op: "follow", Path: name, Err: syscall.EISDIR})
		case err == nil || !isPattern(name):
			if errors.Is(err, fs.ErrNotExist) {
				c.report(messageName(name), errors.New("No such file or directory; waiting for it to appear"))
			}
			patterns = append(patterns, escapeName(name))
		default:
			patterns = append(patterns, name)
		}
	}
	return patterns, fifos
}

// isPattern reports whether a FILE of -f is a pattern, if no file has it as its name:
// it holds a wildcard of filepath.Match, or ** for any number of directories.
func isPattern(name string) bool { return strings.ContainsAny(name, "*?[") }

// escapeName is a pattern that matches name itself: its wildcards escaped (a name that
// holds none is its own pattern). Windows has no escape, and no '*' or '?' in names.
func escapeName(name string) string {
	if runtime.GOOS == "windows" || !strings.ContainsAny(name, `*?[\`) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fifo follows the FIFO name as tail -f reads a pipe: its records as they come, from one
// writer after another (it is held open for writing too, where the system allows, so
// that the last writer closing it is no end), until ctx ends. Only complete records are
// printed; what is pending is written before every read, which may wait.
func (fl *following) fifo(ctx context.Context, name string) {
	c := fl.c
	f, err := openFIFO(name)
	if err != nil {
		fl.mu.Lock()
		c.fail(name, err)
		fl.mu.Unlock()
		return
	}
	defer f.Close()
	defer context.AfterFunc(ctx, func() { f.Close() })()
	fr := &fifoReader{fl: fl, f: f, ctx: ctx, told: true}
	if c.cfg.opt.Multiline != nil {
		fr.flush = cmp.Or(c.cfg.flush, follow.DefaultFlush)
	}
	r := linereader.New(fr, c.cfg.opt)
	fl.mu.Lock()
	c.tot.files++
	p := c.newPrinter(name, r)
	fl.mu.Unlock()
	for rec := range r.Views() {
		fl.mu.Lock()
		fl.header(name)
		p.piece(rec)
		if c.w.err != nil {
			c.writeFailed(c.w.err)
		}
		stopped := c.stopped
		fl.mu.Unlock()
		if stopped {
			break
		}
	}
	fl.mu.Lock()
	c.done(name, r)
	fl.mu.Unlock()
}

// fifoReader reads a followed FIFO: the output pending is written before each read (it
// may wait), and once ctx is done (the FIFO closed under the read) the read reports
// linereader.ErrStop, so that a record being written then is not printed in part. With
// --start or --continue, a read that has waited flush with nothing coming reports
// linereader.ErrFlush, once until more comes, so that the record held is printed as a
// followed file's is (follow.Options.Flush).
type fifoReader struct {
	fl    *following
	f     *os.File
	ctx   context.Context
	flush time.Duration // 0: a read waits as long as it takes
	told  bool          // ErrFlush was reported, and nothing has come since (or nothing came yet)
}

func (r *fifoReader) Read(p []byte) (int, error) {
	r.fl.mu.Lock()
	r.fl.c.flush()
	r.fl.mu.Unlock()
	var deadline time.Time
	if r.flush > 0 && !r.told {
		deadline = time.Now().Add(r.flush)
	}
	if r.flush > 0 && r.f.SetReadDeadline(deadline) != nil {
		r.flush = 0 // not a file the runtime polls: no flush, as before --flush
	}
	n, err := r.f.Read(p)
	r.told = r.told && n == 0
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) && n > 0:
		return n, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		r.told = true
		return 0, linereader.ErrFlush
	case err != nil && r.ctx.Err() != nil:
		return n, linereader.ErrStop
	}
	return n, err
}
