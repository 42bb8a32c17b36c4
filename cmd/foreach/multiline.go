package main

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/foreachio/foreach/internal/cliflag"
	"github.com/foreachio/foreach/linereader"
)

// Records of many lines: --start or --continue, --max-lines, and --flush with -f. They
// set linereader.Options.Multiline, which every mode reads through the engine (its
// iterators, sections, Count, NewTail and NewBackward all give the same records), so
// the modes need nothing of their own but printRecords, which must not cut a run of
// records at each separator (see runsCut).

// multilineRaw holds the values of the flags of records of many lines, as typed.
type multilineRaw struct {
	start, cont, maxLines, flush string
	flag                         string // the flag given of --start and --continue, for optionsError
}

// defineMultiline defines --start, --continue, --max-lines and --flush on fs.
func defineMultiline(fs *cliflag.FlagSet, raw *multilineRaw) {
	fs.Var(typed{&raw.start, "REGEX"}, "start",
		"records of many lines: a line that REGEX matches (Go regexp syntax, ^ for the line's start) begins a record, and the lines after it that do not match belong to it")
	fs.Var(typed{&raw.cont, "REGEX"}, "continue",
		"records of many lines: a line that REGEX matches belongs to the record before it, and any other line begins a record")
	fs.Var(typed{&raw.maxLines, "N"}, "max-lines", "with --start or --continue: a record ends after N lines (0: no limit)")
	fs.Var(typed{&raw.flush, "DURATION"}, "flush",
		"with --follow and --start or --continue: a record whose next line has not arrived is printed once FILE has been quiet for DURATION (500ms, 2s; default 2s)")
}

// multiline sets Options.Multiline from --start, --continue and --max-lines, and -f's
// --flush. The conflicts with the flags that cut records by rules of their own
// (--paragraph, --whole, --limit) are Options.Validate's, reported by optionsError.
func (cfg *config) multiline(fs *cliflag.FlagSet, raw *multilineRaw) error {
	start, cont := fs.Changed("start"), fs.Changed("continue")
	switch {
	case start && cont:
		return usagef("--start and --continue cannot be used together")
	case !start && !cont:
		for _, name := range []string{"max-lines", "flush"} {
			if fs.Changed(name) {
				return usagef("--%s has no effect without --start or --continue", name)
			}
		}
		return nil
	}
	m := &linereader.Multiline{}
	var err error
	if start {
		raw.flag = "start"
		m.Start, err = patternArg("start", raw.start)
	} else {
		raw.flag = "continue"
		m.Continue, err = patternArg("continue", raw.cont)
	}
	if err != nil {
		return err
	}
	if fs.Changed("max-lines") {
		n, err := strconv.Atoi(strings.TrimSpace(raw.maxLines))
		switch {
		case err != nil:
			return invalidArg("max-lines", raw.maxLines, "not a whole number")
		case n < 0:
			return invalidArg("max-lines", raw.maxLines, "must be at least 0")
		}
		m.MaxLines = n
	}
	cfg.opt.Multiline = m
	if fs.Changed("flush") {
		d, err := time.ParseDuration(strings.TrimSpace(raw.flush))
		switch {
		case err != nil:
			return invalidArg("flush", raw.flush, "not a duration (examples: 500ms, 2s, 1m)")
		case d <= 0:
			return invalidArg("flush", raw.flush, "must be more than 0")
		}
		cfg.flush = d
	}
	return nil
}

// patternArg compiles the REGEX of --flag. regexp's message begins with "error parsing
// regexp: ", which the usage error's own words say already.
func patternArg(flag, value string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(value)
	if err != nil {
		return nil, invalidArg(flag, value, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// runsCut reports whether the records of a run from Runs can be told apart by searching
// for the separator: not with Multiline, whose records hold several separators each.
func runsCut(opt linereader.Options) bool {
	return opt.Multiline == nil && opt.Splittable() == nil
}
