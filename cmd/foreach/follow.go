package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/foreachio/foreach/follow"
	"github.com/foreachio/foreach/internal/cliflag"
)

// following is -f's shared state: the files followed at once print through one lock,
// each record whole, and their checkpoints are saved together (--state).
type following struct {
	c  *command
	mu sync.Mutex // guards the command's output and totals, the saver's checkpoints, and last
	// saver keeps --state; nil without it.
	saver *saver
	// headers: several FILEs followed without -H, whose records a header names, as
	// tail -F does, whenever the FILE printed changes; last is the FILE whose record
	// was printed last, "" before the first.
	headers bool
	last    string
}

// followAll implements -f for every FILE at once: the records of each, then every
// record appended, across rotation and truncation, until SIGINT or SIGTERM, which end
// the command with the records read written (a record still being written is not: it
// is not one yet). Each file is read on a goroutine of its own and its records are
// printed whole under one lock; the output is flushed whenever a follower has caught up
// and waits, so that each record is written as soon as it is complete.
func (c *command) followAll(names []string) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fl := &following{c: c, headers: len(names) > 1 && !c.cfg.withName}
	var resume map[string]*follow.Checkpoint
	if c.cfg.state != "" {
		var err error
		if fl.saver, resume, err = loadState(c.cfg.state); err != nil {
			c.fail(c.cfg.state, err)
			return
		}
	}
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Go(func() { fl.file(ctx, name, resume[stateKey(name)]) })
	}
	wg.Wait()
	if fl.saver != nil {
		fl.saver.stop()
		fl.save()
	}
}

// file follows one FILE from its checkpoint cp if there is one, waiting for it to exist
// first. With --state its checkpoint is saved before any of its records is printed, and
// again each time reading moves to another file, so that the state never names a file
// left behind (a rotation may delete it while the command is down).
func (fl *following) file(ctx context.Context, name string, cp *follow.Checkpoint) {
	c := fl.c
	r, err := fl.open(ctx, name, cp)
	if err != nil {
		fl.mu.Lock()
		c.fail(name, err)
		fl.mu.Unlock()
		return
	}
	if r == nil {
		return // ctx ended while waiting for the file
	}
	defer r.Close()
	fl.mu.Lock()
	c.tot.files++
	p := c.newPrinter(name, r.Reader)
	fl.mu.Unlock()
	if fl.saver != nil {
		fl.moved(name, r)
	}
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
		if fl.saver != nil && fl.saver.due() {
			fl.checkpoint(name, r, true)
		}
	}
	fl.mu.Lock()
	c.done(name, r.Reader)
	fl.mu.Unlock()
	if fl.saver != nil {
		fl.checkpoint(name, r, false)
	}
}

// header writes tail -F's header before a record of name when the last record printed
// was another FILE's: "==> NAME <==", after a blank line but before the first.
// Called with mu held.
func (fl *following) header(name string) {
	if !fl.headers || fl.last == name {
		return
	}
	if fl.last != "" {
		fl.c.w.Write([]byte{'\n'})
	}
	fl.c.w.Write([]byte("==> " + displayName(name) + " <==\n"))
	fl.last = name
}

// open opens name for following as the flags say; a missing file is waited for, with
// one message, until it exists or ctx ends (then r is nil).
func (fl *following) open(ctx context.Context, name string, cp *follow.Checkpoint) (*follow.Reader, error) {
	c := fl.c
	var r *follow.Reader
	fo := follow.Options{Last: max(0, c.cfg.last)}
	if cp != nil {
		from := *cp
		from.Name = name // the FILE as typed: the state holds its key
		fo.Resume = &from
	}
	if c.cfg.fromEnd || c.cfg.last == 0 {
		fo.Start = -1 // --last 0: nothing of what is there, as tail -n 0 -F
	}
	fo.Idle = func() { fl.idle(name, r) }
	if fl.saver != nil {
		fo.Moved = func() { fl.moved(name, r) }
	}
	told := false
	for {
		var err error
		r, err = follow.Open(ctx, name, c.cfg.opt, fo)
		if !errors.Is(err, fs.ErrNotExist) {
			return r, err
		}
		if !told {
			fl.mu.Lock()
			c.report(messageName(name), errors.New("No such file or directory; waiting for it to appear"))
			fl.mu.Unlock()
			told = true
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-time.After(follow.DefaultPoll):
		}
		// A file that appears is read from its start: all of it is new.
		fo.Start, fo.Last = 0, 0
	}
}

// idle runs when r has caught up and waits: what is pending is written, and with
// --state r's checkpoint is taken and saved within the second.
func (fl *following) idle(name string, r *follow.Reader) {
	c := fl.c
	fl.mu.Lock()
	c.flush()
	stopped := c.stopped
	fl.mu.Unlock()
	if stopped {
		// Standard output is closed or failing: nothing read from now on could be
		// written.
		r.Close()
		return
	}
	if fl.saver != nil {
		fl.checkpoint(name, r, true)
	}
}

// moved saves r's checkpoint now, with what was printed before it: r begins, or moves
// to another file.
func (fl *following) moved(name string, r *follow.Reader) {
	fl.checkpoint(name, r, false)
	fl.save()
}

// checkpoint notes the checkpoint of r, name's reader, just past the last record
// printed, and with soon has the state saved within the second (at the end, followAll
// saves it).
func (fl *following) checkpoint(name string, r *follow.Reader, soon bool) {
	cp := r.Checkpoint()
	fl.mu.Lock()
	fl.saver.note(stateKey(name), cp)
	fl.mu.Unlock()
	if soon {
		fl.saver.schedule(fl.save)
	}
}

// save writes the output pending, then the state with the checkpoints noted, which
// cover only records printed before: so the state never runs ahead of the output.
func (fl *following) save() {
	c := fl.c
	fl.mu.Lock()
	c.flush()
	stopped := c.stopped
	text, gen := fl.saver.text()
	fl.mu.Unlock()
	if stopped {
		return // the output failed: the records after the last state were not written
	}
	if err := fl.saver.write(text, gen); err != nil {
		fl.mu.Lock()
		c.fail(c.cfg.state, err)
		fl.mu.Unlock()
	}
}

// followFlags checks the flags that --follow, --from-end and --state combine with.
// Following reads named files that never end: a count, decompression, standard input,
// a whole-input record and a progress bar make no sense with it.
func followFlags(fs *cliflag.FlagSet, cfg *config) error {
	if !cfg.follow {
		switch {
		case cfg.fromEnd:
			return usagef("--from-end has no effect without --follow")
		case cfg.state != "":
			return usagef("--state has no effect without --follow")
		}
		return nil
	}
	switch {
	case cfg.count:
		return usagef("--count cannot be used with --follow (a followed file never ends)")
	case cfg.opt.Decompress:
		return usagef("--decompress cannot be used with --follow (a compressed stream is not read as it grows)")
	case len(cfg.files) == 0:
		return usagef("--follow needs a FILE")
	case cfg.opt.Whole && cfg.opt.Limit == 0:
		return usagef("--whole cannot be used with --follow without --limit (its one record would never end)")
	case fs.Changed("progress") && cfg.progress == progressOn:
		return usagef("--progress cannot be used with --follow (a followed file has no end to show)")
	}
	for _, name := range cfg.files {
		if name == "-" {
			return usagef("--follow takes a FILE, not standard input")
		}
	}
	cfg.progress = progressOff
	return nil
}
