package main

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/foreachio/foreach/internal/bytesize"
	"github.com/foreachio/foreach/internal/cliflag"
	"github.com/foreachio/foreach/internal/escape"
	"github.com/foreachio/foreach/linereader"
)

// config is the parsed command line of `foreach [flags] [FILE...]`.
type config struct {
	opt      linereader.Options
	ors      []byte // written after each record; nil: nothing
	number   bool   // -n
	withName bool   // -H
	count    bool   // -c
	stats    bool   // --stats
	progress progressMode
	jobs     int  // -j: sections of --count, cores of -z
	index    bool // --index: write FILE.zidx for each FILE; alone, nothing else (ztext.go), with -z while reading it (indexing.go)
	files    []string

	follow bool // -f (follow.go)
	followConfig

	last    int  // --last N (last.go): the last N records of each file; -1 without the flag
	reverse bool // --reverse (reverse.go): the records of each file last first
}

// followConfig is what -f's flags say besides -f itself.
type followConfig struct {
	fromEnd bool   // --from-end
	state   string // --state FILE (state.go)
	maxOpen int    // --max-open N: follow.ManyOptions.MaxOpen (0: its default)
	// flush is --flush: follow.Options.Flush, with --start or --continue (0: its
	// default, follow.DefaultFlush).
	flush time.Duration
}

// progressMode says whether to draw the progress bar.
type progressMode int

const (
	progressAuto progressMode = iota // on when stderr is a terminal and the input is large
	progressOn
	progressOff
)

// usageError is a bad flag or value, or a flag that has no effect in the chosen mode:
// the command prints it on one line, points to --help and exits 2, as GNU tools do.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// invalidArg is the usage error for a flag's value, in GNU's words
// ("invalid --buffer-size argument 'x'") followed by what is wrong with it.
func invalidArg(flag, value, why string) error {
	return usagef("invalid --%s argument %s: %s", flag, quoteValue(value), why)
}

// tryHelp follows a usage error's one line, in GNU's words.
const tryHelp = "Try 'foreach --help' for more information.\n"

// errVersion asks for the version.
var errVersion = errors.New("version requested")

const usageHead = `Usage: foreach [flags] [FILE...]
       foreach bench [flags] [FILE...]

Print the records of each FILE in order on standard output; with no FILE, or
when FILE is -, read standard input. With no flags the output is a byte-exact
copy of the input. A file that cannot be read is reported on standard error
and skipped (exit status 1); bad flags exit with status 2. With -z, bytes after
the end of a compressed file's data (other than zero padding) are reported and
ignored, as zcat does: exit status 3 if no file failed.
'foreach bench --help' describes the benchmark.

Flags:
`

const usageTail = `
STR values understand the escapes \n \r \t \0 \\ and \xHH.
SIZE values take a number of bytes or a unit: 4096, 64KiB, 64MiB, 1GiB (KiB,
MiB and GiB are powers of 1024; kB, MB and G, powers of 1000).

-n numbers lines as cat -n does: the number is right-aligned in 6 columns and
followed by a tab; numbering continues from one file to the next, and a file
that ends without a separator runs on into the next file's first line, which
gets no number of its own. The pieces of one line cut by --limit share its
number.

-H ends every record it prints with the output separator (--ors, or else the
record separator), as grep -H does, even the unterminated last line of a file.
With -n too, each record is FILE:N:record with N counted in each file, as
grep -Hn '' FILE... prints it.

-c prints "COUNT FILE" per file (a space between them, as wc -l without its
padding), then "COUNT total" when there are several files; reading standard
input alone (no FILE) prints just the count. It counts records, where wc -l
counts newlines: a file whose last line has no newline counts one more.

--start or --continue joins lines into records of many lines, a stack trace
one record: with --start, a line that REGEX matches begins a record; with
--continue, a line that REGEX matches belongs to the record before it (the
lines before the first that begins one are a record of their own). -n, -H,
-c, --last and --reverse then number, label, count and take records, not
lines. With -f, a record whose next line has not come is printed once the
file has been quiet for --flush (default 2s).

Memory: every mode passes a record longer than the buffer through in pieces,
so memory stays bounded whatever the input. Only --max-record holds a record
whole (up to SIZE), so that a record it refuses is never partly printed.
--too-long says what a longer record gets: stop (the default: the file is
reported with the record's line and offset, the rest of it skipped, status 1),
skip (the record is dropped and reading goes on; a count of the records dropped
is reported at the end of the file, status 0) or cut (its first SIZE bytes are
printed, then its separator; counted in the same way). Whichever, no more than
about SIZE of a record is ever held, and line numbers (-n) count every record.

Output is written in large blocks; when an input is a pipe, terminal, socket
or FIFO, what is pending is written before every read that may wait, so
'tail -f log | foreach -n' shows each line as it comes. With no flag that
changes a byte, a regular file is copied by the kernel where it can.

-f prints FILE's records, then each record appended to it as soon as it is
complete, as tail -F does: when FILE is renamed away and created anew, or
deleted and created again, the old file is read to its end first; when it is
truncated, reading goes on from its new start. Only complete records are
printed (the last record of a file rotated away is complete, and gets the
output separator if it lacks one). SIGINT or SIGTERM ends it, with status 0.
Several FILEs are followed at once, each record written whole (-H names its
file), their starting contents in the order named; a FILE that does not exist
yet is waited for. A quoted pattern ('logs/*.log', with ** for any number of
directories) follows every file it matches, as they come and go. --state FILE
keeps where each file stands, written after the output it covers, so that the
command started again goes on there, also across rotations made while it was
stopped. --max-open N bounds the files open at once; idle ones are closed and
reopened by identity when they change. A FIFO is read as tail -f reads a pipe.

--index writes FILE.zidx beside each compressed FILE, its index, and prints
nothing. With -z it goes with every mode but -f (-c, printing, -n, -H, --last,
--reverse, --stats): each FILE is read and printed exactly as without --index,
and its index is written once that read has reached the end without an error
(a damaged file, a failed --max-record, a closed output: no index). A gzip file
without an up-to-date index is indexed in the same pass that decodes it; a
BGZF, xz or zstd file whose pieces say their sizes is indexed from them after
the read; an up-to-date index is left as it is, and a stale one replaced. A
file that cannot be indexed (bzip2, lz4, not compressed) is reported: status 1.
`

// rawFlags holds the values of the flags that are checked after parsing, as typed.
type rawFlags struct {
	sep, ors, limit, maxRecord, tooLong, buffer, jobs, maxOpen string
	null, help, version                                        bool
	ml                                                         multilineRaw // --start, --continue, --max-lines, --flush (multiline.go)
}

// newFlagSet defines the flags of the main command on cfg, and on raw for the values
// that are checked after parsing.
func newFlagSet(cfg *config, raw *rawFlags) *cliflag.FlagSet {
	fs := newFlags("foreach")
	raw.sep = `\n`
	fs.VarP(typed{&raw.sep, "STR"}, "sep", "s", "record separator")
	fs.BoolVarP(&raw.null, "null", "0", false, `records end with NUL, as from find -print0 (same as --sep '\0')`)
	fs.BoolVarP(&cfg.opt.Paragraph, "paragraph", "p", false, `paragraph mode: records end at a blank line (\n\n)`)
	fs.BoolVar(&cfg.opt.Whole, "whole", false, "the whole input is one record (with --limit: fixed-size pieces)")
	fs.VarP(typed{&raw.limit, "N"}, "limit", "l", "at most N bytes per record")
	fs.BoolVar(&cfg.opt.UTF8, "utf8", false, "with --limit: a cut never splits a UTF-8 character")
	defineMultiline(fs, &raw.ml)
	fs.BoolVarP(&cfg.opt.Chomp, "chomp", "C", false, `drop each record's separator (and write --ors, by default \n)`)
	fs.Var(typed{&raw.ors, "STR"}, "ors", `written after each record (default: nothing; with --chomp, \n)`)
	fs.BoolVarP(&cfg.number, "number", "n", false, "prefix each line with its number, as cat -n")
	fs.BoolVarP(&cfg.withName, "with-filename", "H", false, "prefix each record with FILE:, as grep -H (with -n, FILE:N:, as grep -Hn)")
	fs.BoolVarP(&cfg.count, "count", "c", false, "print the number of records per file (COUNT FILE) and a total")
	fs.BoolVarP(&cfg.opt.Decompress, "decompress", "z", false, "read gzip, zstd, bzip2, xz, .lzma and lz4 input decompressed (detected by content); other input as it is")
	fs.BoolVar(&cfg.stats, "stats", false, "after the run, print a summary on standard error")
	cfg.progress = progressAuto
	fs.VarPF(progressValue{&cfg.progress, progressOn}, "progress", "",
		"draw a progress bar on standard error (default: when standard error is a terminal, standard output is not, and the input is at least 256 MiB)").
		NoOptDefVal = "true"
	fs.VarPF(progressValue{&cfg.progress, progressOff}, "no-progress", "", "never draw a progress bar").
		NoOptDefVal = "true"
	fs.Var(typed{&raw.maxRecord, "SIZE"}, "max-record", "fail a record longer than SIZE: the file is reported and skipped (see --too-long)")
	raw.tooLong = "stop"
	fs.Var(typed{&raw.tooLong, "stop|skip|cut"}, "too-long", "with --max-record, what a longer record gets: stop (report the file, skip its rest), skip (drop the record, go on), cut (print its first SIZE bytes and its separator)")
	// 128 KiB, as cat reads: against 64 KiB (the library's default) it halves the
	// system calls of the copy.
	raw.buffer = "128KiB"
	fs.Var(typed{&raw.buffer, "SIZE"}, "buffer", "bytes per read")
	fs.VarP(typed{&raw.jobs, "N"}, "jobs", "j", "with --count: read large regular files in N parallel sections; with -z: decode compressed files on N cores where an index or their structure allows")
	fs.Lookup("jobs").DefValue = "number of CPUs"
	fs.BoolVarP(&cfg.follow, "follow", "f", false, "after the end, keep reading FILE as it grows, across log rotation and truncation, as tail -F")
	fs.BoolVar(&cfg.fromEnd, "from-end", false, "with --follow: start at the current end of FILE")
	fs.Var(typed{&cfg.state, "FILE"}, "state", "with --follow: keep a checkpoint of each file in FILE, and go on from it when started again")
	fs.Var(typed{&raw.maxOpen, "N"}, "max-open", "with --follow: at most N files open at once (default 256); the others are closed while idle and reopened by identity")
	cfg.last = -1
	fs.Var(lastValue{&cfg.last}, "last", "only the last N records of each FILE, as tail -n N (with --follow: then what is appended, as tail -n N -F)")
	fs.BoolVar(&cfg.reverse, "reverse", false, "the records of each FILE last first, as tac")
	fs.BoolVar(&cfg.index, "index", false, "write FILE.zidx, the index of each compressed FILE (gzip, BGZF, xz, zstd), so that -z reads it in parallel and from its end; print nothing (with -z: read each FILE as the other flags say, and write its index too)")
	fs.BoolVarP(&raw.help, "help", "h", false, "print this help")
	fs.BoolVar(&raw.version, "version", false, "print the version and the revision it was built from")
	return fs
}

// newFlags is an empty flag set: errors go to its caller only.
func newFlags(name string) *cliflag.FlagSet { return cliflag.NewFlagSet(name) }

// typed is a flag whose value is kept as typed and checked after parsing. Its type
// names the value in the help (STR, SIZE, N), and its default is shown as typed: a
// string flag's default \n would be shown quoted as a Go string, "\\n".
type typed struct {
	s   *string
	typ string
}

func (v typed) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}
func (v typed) Set(s string) error { *v.s = s; return nil }
func (v typed) Type() string       { return v.typ }

// progressValue is --progress or --no-progress: both set one mode, so the last of
// them on the command line wins, as with GNU tools. "--progress=false" turns the
// bar off and "--no-progress=false" leaves it automatic.
type progressValue struct {
	mode *progressMode
	on   progressMode // the mode the flag selects
}

func (v progressValue) String() string   { return "false" }
func (v progressValue) Type() string     { return "bool" }
func (v progressValue) IsBoolFlag() bool { return true }
func (v progressValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	switch {
	case err != nil:
		return errNotBool
	case b:
		*v.mode = v.on
	case v.on == progressOn:
		*v.mode = progressOff
	default:
		*v.mode = progressAuto
	}
	return nil
}

var errNotBool = errors.New("not true or false")

// discard is io.Discard without importing io here.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// usage is the help text of the main command.
func usage() string {
	var raw rawFlags
	return usageHead + newFlagSet(&config{}, &raw).FlagUsagesWrapped(80) + usageTail
}

// parseArgs parses and validates the command line. It returns cliflag.ErrHelp for
// --help, errVersion for --version, and a *usageError for anything wrong.
func parseArgs(args []string) (*config, error) {
	cfg := &config{}
	var raw rawFlags
	fs := newFlagSet(cfg, &raw)
	if err := fs.Parse(args); err != nil {
		return nil, flagError(err)
	}
	if raw.help {
		return nil, cliflag.ErrHelp
	}
	if raw.version {
		return nil, errVersion
	}
	cfg.files = fs.Args()
	if err := cfg.records(fs, &raw); err != nil {
		return nil, err
	}
	if err := cfg.sizes(fs, &raw); err != nil {
		return nil, err
	}
	if err := cfg.multiline(fs, &raw.ml); err != nil {
		return nil, err
	}
	if err := optionsError(cfg.opt.Validate(), fs, &raw); err != nil {
		return nil, err
	}
	if err := noEffect(fs, cfg); err != nil {
		return nil, err
	}
	if err := fromEndFlags(fs, cfg); err != nil {
		return nil, err
	}
	if err := indexFlags(cfg); err != nil {
		return nil, err
	}
	return cfg, followFlags(fs, cfg)
}

// indexOnly reports whether --index is a mode of its own: without -z, it writes
// indexes and reads no records.
func (cfg *config) indexOnly() bool { return cfg.index && !cfg.opt.Decompress }

// indexFlags checks --index, over named files. Alone it writes indexes and reads no
// records: a mode of its own. With -z it goes with every mode that reads a file to its
// end (-c, printing, --last, --reverse); -f, which never ends, refuses -z itself.
func indexFlags(cfg *config) error {
	if !cfg.index {
		return nil
	}
	for _, m := range []struct {
		flag string
		set  bool
	}{{"--count", cfg.count}, {"--last", cfg.last >= 0}, {"--reverse", cfg.reverse}, {"--follow", cfg.follow}} {
		if m.set && cfg.indexOnly() {
			return usagef("--index cannot be used with %s (it writes indexes and reads no records)", m.flag)
		}
	}
	if len(cfg.files) == 0 {
		return usagef("--index needs a FILE")
	}
	for _, name := range cfg.files {
		if name == "-" {
			return usagef("--index takes a FILE, not standard input")
		}
	}
	return nil
}

// records sets the separator and --ors from their escapes.
func (cfg *config) records(fs *cliflag.FlagSet, raw *rawFlags) error {
	switch {
	case fs.Changed("sep") && raw.null:
		// Both choose Options.Sep, so Validate cannot see the conflict.
		return usagef("--sep and --null cannot be used together")
	case raw.null:
		cfg.opt.Sep = []byte{0}
	case fs.Changed("sep"):
		sep, err := escape.Parse(raw.sep)
		if err != nil {
			return invalidArg("sep", raw.sep, err.Error())
		}
		if len(sep) == 0 {
			// The library would take an empty Sep for the default, "\n".
			return invalidArg("sep", raw.sep, "empty separator (use --paragraph for blank-line records)")
		}
		cfg.opt.Sep = sep
	}
	if fs.Changed("ors") {
		ors, err := escape.Parse(raw.ors)
		if err != nil {
			return invalidArg("ors", raw.ors, err.Error())
		}
		cfg.ors = ors
	} else if cfg.opt.Chomp {
		cfg.ors = []byte{'\n'}
	}
	return nil
}

// tooLongArg is the value of --too-long.
func tooLongArg(value string) (linereader.TooLong, error) {
	for _, t := range []linereader.TooLong{linereader.TooLongStop, linereader.TooLongSkip, linereader.TooLongCut} {
		if value == t.String() {
			return t, nil
		}
	}
	return 0, invalidArg("too-long", value, "not one of stop, skip, cut")
}

// sizes sets --limit, --max-record, --too-long, --buffer and --jobs. Zero means "none" or "the
// default" to the library; on the command line it is refused where it would surprise.
func (cfg *config) sizes(fs *cliflag.FlagSet, raw *rawFlags) error {
	var err error
	if fs.Changed("limit") {
		if cfg.opt.Limit, err = sizeArg("limit", raw.limit, 1); err != nil {
			return err
		}
	}
	if fs.Changed("max-record") {
		if cfg.opt.MaxRecord, err = sizeArg("max-record", raw.maxRecord, 0); err != nil { // 0: unbounded
			return err
		}
	}
	if cfg.opt.TooLong, err = tooLongArg(raw.tooLong); err != nil {
		return err
	}
	if cfg.opt.BufferSize, err = sizeArg("buffer", raw.buffer, 1); err != nil {
		return err
	}
	cfg.jobs = runtime.NumCPU()
	if fs.Changed("jobs") {
		n, err := strconv.Atoi(strings.TrimSpace(raw.jobs))
		switch {
		case err != nil:
			return invalidArg("jobs", raw.jobs, "not a whole number")
		case n < 1:
			return invalidArg("jobs", raw.jobs, "must be at least 1")
		}
		cfg.jobs = n
	}
	return nil
}

// sizeArg parses the SIZE value of --flag, which must be at least least.
func sizeArg(flag, value string, least int) (int, error) {
	n, err := parseSize(value)
	if err != nil {
		return 0, invalidArg(flag, value, err.Error())
	}
	if n < least {
		return 0, invalidArg(flag, value, "must be at least "+plural(int64(least), "byte"))
	}
	return n, nil
}

// optionsError turns the first fault Options.Validate found into a usage error that
// names the flags behind the fields at fault.
func optionsError(err error, fs *cliflag.FlagSet, raw *rawFlags) error {
	var oe *linereader.OptionsError
	if !errors.As(err, &oe) {
		return err // nil, or not a fault of the options' fields
	}
	f := oe.Faults[0]
	if f.With != "" {
		return usagef("--%s and --%s cannot be used together", flagOf(f.Field, raw), flagOf(f.With, raw))
	}
	name := flagOf(f.Field, raw)
	value := ""
	if fl := fs.Lookup(name); fl != nil {
		value = fl.Value.String()
	}
	if f.Field == "BufferSize" && value != "" {
		if n, perr := parseSize(value); perr == nil && n > linereader.MaxBufferSize {
			// The buffer is allocated before the first read: a huge one would crash
			// the command before it reads a byte.
			return invalidArg(name, value, "at most "+formatSize(linereader.MaxBufferSize))
		}
	}
	return invalidArg(name, value, f.Text)
}

// flagOf names the flag that sets a field of linereader.Options.
func flagOf(field string, raw *rawFlags) string {
	switch field {
	case "Sep":
		if raw.null {
			return "null"
		}
		return "sep"
	case "BufferSize":
		return "buffer"
	case "MaxRecord":
		return "max-record"
	case "Multiline":
		return raw.ml.flag
	}
	return strings.ToLower(field) // Paragraph, Whole, Limit, Chomp, UTF8, Decompress
}

// noEffect reports a flag that would change nothing in the mode the others choose:
// silently accepting it would let a user believe it did something.
func noEffect(fs *cliflag.FlagSet, cfg *config) error {
	if cfg.count {
		for _, name := range []string{"number", "with-filename", "chomp", "ors"} {
			if fs.Changed(name) {
				return usagef("--%s has no effect with --count (which prints no records)", name)
			}
		}
	} else if fs.Changed("jobs") && !cfg.opt.Decompress {
		return usagef("--jobs has no effect without --count or --decompress")
	}
	if cfg.opt.UTF8 && cfg.opt.Limit == 0 {
		return usagef("--utf8 has no effect without --limit")
	}
	if fs.Changed("too-long") && cfg.opt.MaxRecord == 0 {
		return usagef("--too-long has no effect without --max-record")
	}
	// The longest record --limit lets through: a --utf8 cut may end up to 3 bytes past it.
	longest := cfg.opt.Limit
	if cfg.opt.UTF8 {
		longest += 3
	}
	if cfg.opt.Limit > 0 && cfg.opt.MaxRecord >= longest {
		return usagef("--max-record has no effect with a --limit no larger than it (records never exceed --limit)")
	}
	return nil
}

// flagError turns the parser's errors (internal/cliflag) into GNU getopt's messages;
// anything else is already a usage error of ours. --help is passed on. The option is
// quoted as values are (quoteValue): getopt prints it as typed, and a newline in it would
// break the message's one line.
func flagError(err error) error {
	var e *cliflag.Error
	switch {
	case errors.Is(err, cliflag.ErrHelp):
		return err
	case !errors.As(err, &e):
		return &usageError{strings.ReplaceAll(err.Error(), "\n", `\n`)} // one line whatever it says
	case e.Kind == cliflag.Unknown && e.Short:
		return usagef("invalid option -- %s", quoteValue(e.Name))
	case e.Kind == cliflag.Unknown:
		return usagef("unrecognized option %s", quoteValue("--"+e.Name))
	case e.Kind == cliflag.NeedsValue && e.Short:
		return usagef("option requires an argument -- %s", quoteValue(e.Name))
	case e.Kind == cliflag.NeedsValue:
		return usagef("option %s requires an argument", quoteValue("--"+e.Name))
	case e.Kind == cliflag.BadValue:
		why := e.Err.Error()
		if errors.Is(e.Err, strconv.ErrSyntax) {
			why = errNotBool.Error() // a bool flag's own value, refused by strconv
		}
		return invalidArg(e.Flag.Name, e.Value, why)
	}
	return usagef("unrecognized option %s", quoteValue(e.Arg))
}

// parseSize parses a byte count such as 4096, 64KiB or 1G (internal/bytesize).
func parseSize(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("empty size")
	}
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("negative size")
	}
	n, err := bytesize.Parse(s)
	if err != nil {
		return 0, errors.New("not a size (examples: 4096, 64KiB, 1G)")
	}
	if n > math.MaxInt {
		return 0, errors.New("too large")
	}
	return int(n), nil
}
