package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/foreachio/foreach/follow"
)

// follow implements -f for its one FILE: the file's records, then every record appended
// to it, across rotation and truncation, until SIGINT or SIGTERM, which end the command
// with the records read written (a record still being written is not: it is not one
// yet). Records go through printRecords, whole (so that none is ever printed in part),
// and the output is flushed whenever the follower has caught up and waits, so that
// each record is written as soon as it is complete.
func (c *command) follow(name string) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fo := follow.Options{}
	if c.cfg.fromEnd {
		fo.Start = -1
	}
	var r *follow.Reader
	fo.Idle = func() {
		c.flush()
		if c.stopped {
			// Standard output is closed or failing: nothing read from now on could be
			// written.
			r.Close()
		}
	}
	r, err := follow.Open(ctx, name, c.cfg.opt, fo)
	if err != nil {
		c.fail(name, err)
		return
	}
	defer r.Close()
	c.files++
	c.printRecords(name, r.Reader)
}

// followFlags checks the flags that --follow and --from-end combine with. Following
// reads one named file that never ends: a count, decompression, several files or
// standard input, a whole-input record and a progress bar make no sense with it.
func followFlags(fs *pflag.FlagSet, cfg *config) error {
	if !cfg.follow {
		if cfg.fromEnd {
			return usagef("--from-end has no effect without --follow")
		}
		return nil
	}
	switch {
	case cfg.count:
		return usagef("--count cannot be used with --follow (a followed file never ends)")
	case cfg.opt.Decompress:
		return usagef("--decompress cannot be used with --follow (a compressed stream is not read as it grows)")
	case len(cfg.files) != 1:
		return usagef("--follow takes exactly one FILE, not %d", len(cfg.files))
	case cfg.files[0] == "-":
		return usagef("--follow takes a FILE, not standard input")
	case cfg.opt.Whole && cfg.opt.Limit == 0:
		return usagef("--whole cannot be used with --follow without --limit (its one record would never end)")
	case fs.Changed("progress") && cfg.progress == progressOn:
		return usagef("--progress cannot be used with --follow (a followed file has no end to show)")
	}
	cfg.progress = progressOff
	return nil
}
