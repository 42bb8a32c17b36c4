package main

import (
	"context"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/foreachio/foreach/follow"
	"github.com/foreachio/foreach/internal/cliflag"
)

// following is -f's state: the Many that follows every FILE and pattern at once (one
// loop, on the goroutine that runs the command), the printer of each name printed so
// far, tail -F's headers, and --state's saver. A FIFO named is read as a stream on a
// goroutine of its own (followfifo.go), printing through mu.
type following struct {
	c  *command
	m  *follow.Many
	mu sync.Mutex // guards the command's output and totals, names and last
	// saver keeps --state; nil without it. Only the goroutine of the Many's loop uses it.
	saver *saver
	// headers: several FILEs, or a pattern, followed without -H: a header names the
	// file, as tail -F does, whenever the file printed changes; last is the name whose
	// record was printed last, "" before the first.
	headers bool
	last    string
	names   map[string]*printer // the printers of the names printed so far: each numbered on its own
}

// followAll implements -f: every FILE and pattern followed at once by one follow.Many,
// the files there at the start printed first in the order named (as tail -F prints
// them), then every record appended, across rotation and truncation, as files come and
// go, until SIGINT or SIGTERM, which end the command with the records read written (a
// record still being written is not: it is not one yet). The output is flushed whenever
// the Many has caught up and waits, so that each record is written as soon as it is
// complete.
func (c *command) followAll(names []string) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fl := &following{c: c, names: map[string]*printer{}}
	fl.headers = !c.cfg.withName && (len(names) > 1 || isPattern(names[0]))
	patterns, fifos := fl.sortNames(names)
	var wg sync.WaitGroup
	defer wg.Wait()
	for _, name := range fifos {
		wg.Go(func() { fl.fifo(ctx, name) })
	}
	if len(patterns) == 0 {
		return
	}
	var resume *follow.State
	if c.cfg.state != "" {
		var err error
		if fl.saver, resume, err = loadState(c.cfg.state); err != nil {
			c.fail(c.cfg.state, err)
			return
		}
	}
	m, err := follow.OpenMany(ctx, patterns, c.cfg.opt, fl.options(resume))
	if err != nil {
		c.fail(patterns[0], err)
		return
	}
	defer m.Close()
	fl.m = m
	fl.save() // before anything is printed: the state names every file from the first moment
	fl.loop()
	fl.save()
}

// options are the ManyOptions the flags say: where each file there at the start begins
// (--last, --from-end), --state's Resume, --max-open, --flush, and the command's Idle,
// Moved and Warn.
func (fl *following) options(resume *follow.State) follow.ManyOptions {
	c := fl.c
	mo := follow.ManyOptions{Resume: resume, MaxOpen: c.cfg.maxOpen}
	mo.Flush = c.cfg.flush
	mo.Last = max(0, c.cfg.last)
	if c.cfg.fromEnd || c.cfg.last == 0 {
		mo.Start = -1 // --last 0: nothing of what is there, as tail -n 0 -F
	}
	mo.Warn = func(name string, err error) {
		fl.mu.Lock()
		c.fail(name, err)
		fl.mu.Unlock()
	}
	mo.Idle = fl.idle
	if fl.saver != nil {
		// Saved each time a file's reading moves to another file, before any record of
		// it: the state never names a file left behind, which a rotation may delete.
		mo.Moved = fl.save
	}
	return mo
}

// loop prints the Many's records as they come, each whole, with the header or the -H
// label of its name, saving --state at least once a second while records arrive.
func (fl *following) loop() {
	c := fl.c
	for rec := range fl.m.Views() {
		fl.mu.Lock()
		fl.header(rec.Name)
		p := fl.printer(rec.Name)
		p.next = rec.LineNo
		p.piece(rec.Data)
		c.tot.records++
		c.tot.bytes += int64(len(rec.Data))
		if c.w.err != nil {
			c.writeFailed(c.w.err)
		}
		stopped := c.stopped
		fl.mu.Unlock()
		if stopped {
			break
		}
		if fl.saver != nil && fl.saver.due() {
			fl.save()
		}
	}
}

// printer returns the printer of the followed name, made at its first record. Called
// with mu held.
func (fl *following) printer(name string) *printer {
	p := fl.names[name]
	if p == nil {
		p = fl.c.newPrinter(name, nil)
		fl.names[name] = p
		fl.c.tot.files++
	}
	return p
}

// header is called before a record of name is printed: when the last record printed
// was another file's, that file's turn is over, and what is pending is written (a file
// written flat out never lets the Many wait, where Idle writes it, and its records must
// not hold back another's in the buffer); then tail -F's header, "==> NAME <==", after
// a blank line but before the first. Called with mu held.
func (fl *following) header(name string) {
	if fl.last == name {
		return
	}
	if fl.last != "" {
		fl.c.flush()
	}
	if fl.headers {
		if fl.last != "" {
			fl.c.w.Write([]byte{'\n'})
		}
		fl.c.w.Write([]byte("==> " + displayName(name) + " <==\n"))
	}
	fl.last = name
}

// idle runs when the Many has caught up and waits (and every poll while it waits): what
// is pending is written, and with --state the state is saved once it is due.
func (fl *following) idle() {
	c := fl.c
	fl.mu.Lock()
	c.flush()
	stopped := c.stopped
	fl.mu.Unlock()
	if stopped {
		// Standard output is closed or failing: nothing read from now on could be
		// written.
		fl.m.Close()
		return
	}
	if fl.saver != nil && fl.saver.due() {
		fl.save()
	}
}

// save writes the output pending, then the state the Many gives now, which covers only
// records printed before: so the state never runs ahead of the output. A state that did
// not change since the last save is not written again.
func (fl *following) save() {
	if fl.saver == nil {
		return
	}
	c := fl.c
	fl.mu.Lock()
	c.flush()
	stopped := c.stopped
	fl.mu.Unlock()
	if stopped {
		return // the output failed: the records after the last state were not written
	}
	if err := fl.saver.save(fl.m.State()); err != nil {
		fl.mu.Lock()
		c.fail(c.cfg.state, err)
		fl.mu.Unlock()
	}
}

// followFlags checks the flags that --follow, --from-end, --state and --max-open
// combine with. Following reads named files that never end: a count, decompression,
// standard input, a whole-input record and a progress bar make no sense with it.
func followFlags(fs *cliflag.FlagSet, cfg *config) error {
	if !cfg.follow {
		switch {
		case cfg.fromEnd:
			return usagef("--from-end has no effect without --follow")
		case cfg.state != "":
			return usagef("--state has no effect without --follow")
		case fs.Changed("max-open"):
			return usagef("--max-open has no effect without --follow")
		case fs.Changed("flush"):
			return usagef("--flush has no effect without --follow")
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
	if fs.Changed("max-open") {
		value := fs.Lookup("max-open").Value.String()
		n, err := strconv.Atoi(strings.TrimSpace(value))
		switch {
		case err != nil:
			return invalidArg("max-open", value, "not a whole number")
		case n < 1:
			return invalidArg("max-open", value, "must be at least 1")
		}
		cfg.maxOpen = n
	}
	cfg.progress = progressOff
	return nil
}
