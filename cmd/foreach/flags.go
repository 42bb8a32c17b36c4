package main

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

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
	jobs     int // -j, for --count
	files    []string

	follow  bool // -f (follow.go)
	fromEnd bool // --from-end, with -f
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

// tryHelp follows a usage error's one line, in GNU's words.
const tryHelp = "Try 'foreach --help' for more information.\n"

// errVersion asks for the version line.
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

-c prints "COUNT FILE" per file (a space between them, as wc -l without its
padding), then "COUNT total" when there are several files; reading standard
input alone (no FILE) prints just the count. An unterminated last line counts.

Memory: every mode passes a record longer than the buffer through in pieces,
so memory stays bounded whatever the input. Only --max-record holds a record
whole (up to SIZE), so that a record it refuses is never partly printed.

Output is written in large blocks; when an input is a pipe, terminal, socket
or FIFO, what is pending is written before every read that may wait, so
'tail -f log | foreach -n' shows each line as it comes.

-f prints FILE's records, then each record appended to it as soon as it is
complete, as tail -F does: when FILE is renamed away and created anew, or
deleted and created again, the old file is read to its end first; when it is
truncated, reading goes on from its new start. Only complete records are
printed (the last record of a file rotated away is complete, and gets the
output separator if it lacks one). SIGINT or SIGTERM ends it, with status 0.
`

// newFlagSet defines the flags of the main command on cfg and on the returned
// raw values that need validation.
func newFlagSet(cfg *config, raw *rawFlags) *pflag.FlagSet {
	fs := pflag.NewFlagSet("foreach", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(discard{})
	raw.sep = `\n`
	fs.VarP(textValue{&raw.sep}, "sep", "s", "record separator")
	fs.BoolVarP(&raw.null, "null", "0", false, `records end with NUL, as from find -print0 (same as --sep '\0')`)
	fs.BoolVarP(&cfg.opt.Paragraph, "paragraph", "p", false, `paragraph mode: records end at a blank line (\n\n)`)
	fs.BoolVar(&cfg.opt.Whole, "whole", false, "the whole input is one record (with --limit: fixed-size pieces)")
	fs.StringVarP(&raw.limit, "limit", "l", "", "at most `N` bytes per record")
	fs.BoolVar(&cfg.opt.UTF8, "utf8", false, "with --limit: a cut never splits a UTF-8 character")
	fs.BoolVarP(&cfg.opt.Chomp, "chomp", "C", false, `drop each record's separator (and write --ors, by default \n)`)
	fs.Var(textValue{&raw.ors}, "ors", `written after each record (default: nothing; with --chomp, \n)`)
	fs.BoolVarP(&cfg.number, "number", "n", false, "prefix each line with its number, as cat -n")
	fs.BoolVarP(&cfg.withName, "with-filename", "H", false, "prefix each record with FILE:, as grep -H")
	fs.BoolVarP(&cfg.count, "count", "c", false, "print the number of records per file (COUNT FILE) and a total")
	fs.BoolVarP(&cfg.opt.Decompress, "decompress", "z", false, "read gzip, zstd, bzip2, xz and lz4 input decompressed (detected by content); other input as it is")
	fs.BoolVar(&cfg.stats, "stats", false, "after the run, print a summary on standard error")
	cfg.progress = progressAuto
	fs.VarPF(progressValue{&cfg.progress, progressOn}, "progress", "",
		"draw a progress bar on standard error (default: when standard error is a terminal, standard output is not, and the input is at least 256 MiB)").
		NoOptDefVal = "true"
	fs.VarPF(progressValue{&cfg.progress, progressOff}, "no-progress", "", "never draw a progress bar").
		NoOptDefVal = "true"
	fs.Var(sizeValue{&raw.maxRecord}, "max-record", "fail a record longer than SIZE: the file is reported and skipped")
	// 128 KiB, as cat reads: against 64 KiB (the library's default) it halves the
	// system calls of the plain copy, which took a third less CPU time for it.
	raw.buffer = "128KiB"
	fs.Var(sizeValue{&raw.buffer}, "buffer", "bytes per read")
	fs.IntVarP(&cfg.jobs, "jobs", "j", runtime.NumCPU(), "with --count: read large regular files in `N` parallel sections")
	fs.Lookup("jobs").DefValue = "number of CPUs"
	fs.BoolVarP(&cfg.follow, "follow", "f", false, "after the end, keep reading FILE as it grows, across log rotation and truncation, as tail -F")
	fs.BoolVar(&cfg.fromEnd, "from-end", false, "with --follow: start at the current end of FILE")
	fs.BoolVarP(&raw.help, "help", "h", false, "print this help")
	fs.BoolVar(&raw.version, "version", false, "print the version")
	return fs
}

// textValue is a STR flag. pflag shows a string flag's default as a quoted Go string
// ("\\n" for the two characters \n); this type is shown as typed: (default \n).
type textValue struct{ s *string }

func (v textValue) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}
func (v textValue) Set(s string) error { *v.s = s; return nil }
func (v textValue) Type() string       { return "STR" }

// sizeValue is a SIZE flag, validated after parsing; shown like textValue.
type sizeValue struct{ s *string }

func (v sizeValue) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}
func (v sizeValue) Set(s string) error { *v.s = s; return nil }
func (v sizeValue) Type() string       { return "SIZE" }

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
		return errors.New("not a boolean (true or false)")
	case b:
		*v.mode = v.on
	case v.on == progressOn:
		*v.mode = progressOff
	default:
		*v.mode = progressAuto
	}
	return nil
}

// rawFlags holds flag values before validation.
type rawFlags struct {
	sep, limit, ors, maxRecord, buffer string
	null, help, version                bool
}

// discard is io.Discard without importing io here.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// usage is the help text of the main command.
func usage() string {
	var raw rawFlags
	return usageHead + newFlagSet(&config{}, &raw).FlagUsagesWrapped(80) + usageTail
}

// parseArgs parses and validates the command line. It returns pflag.ErrHelp for
// --help, errVersion for --version, and a *usageError for anything wrong.
func parseArgs(args []string) (*config, error) {
	cfg := &config{}
	var raw rawFlags
	fs := newFlagSet(cfg, &raw)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{err.Error()}
	}
	if raw.help {
		return nil, pflag.ErrHelp
	}
	if raw.version {
		return nil, errVersion
	}
	cfg.files = fs.Args()

	sepSet := fs.Changed("sep")
	switch {
	case sepSet && raw.null:
		return nil, usagef("--sep and --null cannot be used together")
	case cfg.opt.Paragraph && cfg.opt.Whole:
		return nil, usagef("--paragraph and --whole cannot be used together")
	case (sepSet || raw.null) && cfg.opt.Paragraph:
		return nil, usagef("--%s and --paragraph cannot be used together", sepName(raw.null))
	case (sepSet || raw.null) && cfg.opt.Whole:
		return nil, usagef("--%s and --whole cannot be used together", sepName(raw.null))
	}
	if raw.null {
		cfg.opt.Sep = []byte{0}
	} else if sepSet {
		sep, err := escape.Parse(raw.sep)
		if err != nil {
			return nil, usagef("invalid --sep %q: %v", raw.sep, err)
		}
		if len(sep) == 0 {
			return nil, usagef("invalid --sep \"\": empty separator (use --paragraph for blank-line records)")
		}
		cfg.opt.Sep = sep
	}

	if fs.Changed("ors") {
		ors, err := escape.Parse(raw.ors)
		if err != nil {
			return nil, usagef("invalid --ors %q: %v", raw.ors, err)
		}
		cfg.ors = ors
	} else if cfg.opt.Chomp {
		cfg.ors = []byte{'\n'}
	}

	if fs.Changed("limit") {
		n, err := parseSize(raw.limit)
		if err != nil {
			return nil, usagef("invalid --limit %q: %v", raw.limit, err)
		}
		if n < 1 {
			return nil, usagef("invalid --limit %q: must be at least 1", raw.limit)
		}
		cfg.opt.Limit = n
	}
	if fs.Changed("max-record") {
		n, err := parseSize(raw.maxRecord)
		if err != nil {
			return nil, usagef("invalid --max-record %q: %v", raw.maxRecord, err)
		}
		cfg.opt.MaxRecord = n // 0: unbounded
	}
	n, err := parseSize(raw.buffer)
	if err != nil {
		return nil, usagef("invalid --buffer %q: %v", raw.buffer, err)
	}
	if n < 1 {
		return nil, usagef("invalid --buffer %q: must be at least 1 byte", raw.buffer)
	}
	if n > maxBuffer {
		// The buffer is allocated up front: a huge one would crash the command
		// (makeslice: cap out of range, or out of memory) before reading a byte.
		return nil, usagef("invalid --buffer %q: at most %s", raw.buffer, formatSize(maxBuffer))
	}
	cfg.opt.BufferSize = n
	if cfg.jobs < 1 {
		return nil, usagef("invalid --jobs %d: must be at least 1", cfg.jobs)
	}
	if err := noEffect(fs, cfg); err != nil {
		return nil, err
	}
	if err := followFlags(fs, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// noEffect reports a flag that would change nothing in the mode the others choose:
// silently accepting it would let a user believe it did something.
func noEffect(fs *pflag.FlagSet, cfg *config) error {
	if cfg.count {
		for _, name := range []string{"number", "with-filename", "chomp", "ors"} {
			if fs.Changed(name) {
				return usagef("--%s has no effect with --count (which prints no records)", name)
			}
		}
	} else if fs.Changed("jobs") {
		return usagef("--jobs has no effect without --count")
	}
	if cfg.count && cfg.opt.Decompress && fs.Changed("jobs") {
		return usagef("--jobs has no effect with --decompress (which counts in one pass)")
	}
	if cfg.opt.UTF8 && cfg.opt.Limit == 0 {
		return usagef("--utf8 has no effect without --limit")
	}
	if cfg.opt.Limit > 0 && cfg.opt.MaxRecord >= cfg.opt.Limit {
		return usagef("--max-record has no effect with a --limit no larger than it (records never exceed --limit)")
	}
	return nil
}

func sepName(null bool) string {
	if null {
		return "null"
	}
	return "sep"
}

// parseSize parses a byte count such as 4096, 64KiB or 1G with go-humanize.
// maxBuffer is the largest --buffer: the bytes per read, allocated before the
// first read.
const maxBuffer = 1 << 30

func parseSize(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("empty size")
	}
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("negative size")
	}
	n, err := humanize.ParseBytes(s)
	if err != nil {
		return 0, errors.New("not a size (examples: 4096, 64KiB, 1G)")
	}
	if n > math.MaxInt {
		return 0, errors.New("too large")
	}
	return int(n), nil
}
