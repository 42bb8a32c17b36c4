package linereader

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/foreachio/foreach/internal/decompress"
)

// DefaultBufferSize is the initial buffer size, and the most bytes asked of the source per
// read, when Options.BufferSize is 0.
const DefaultBufferSize = 64 << 10

// MaxBufferSize is the largest Options.BufferSize accepted: the buffer is allocated
// before the first read, so an absurd size must be an error, not a crash.
const MaxBufferSize = 1 << 30

// maxEmptyReads is how many reads in a row may return no data and no error before the
// reader gives up with io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100

var (
	// ErrInvalidOptions is wrapped by the error Options.Validate returns, and so by the
	// error of Open, Count, CountAt and a Reader's Err, when the Options contradict each
	// other or hold an out-of-range value; the message names the fields.
	ErrInvalidOptions = errors.New("linereader: invalid options")

	// ErrNotSplittable is wrapped by the error a section Reader reports when its options
	// cannot be read in independent byte ranges (see NewSection).
	ErrNotSplittable = errors.New("linereader: options cannot be split into sections")

	// ErrTrailingData is wrapped by the error a Reader reports (Err) with
	// Options.Decompress when the compressed input holds bytes after its last complete
	// stream that are neither zero padding nor another stream. Every record of the
	// streams before them has been yielded: a caller that reads as zcat does takes it for
	// a warning. The error names the format and the compressed offset where the bytes
	// start ("gzip: decompression OK, trailing data at compressed byte 30 ignored").
	ErrTrailingData = decompress.ErrTrailingData
)

// Options says how input is cut into records. The zero value means lines ending in "\n",
// separator kept, no limit, 64 KiB reads. See docs/semantics.md for the exact rules, which
// follow Ruby's IO.foreach.
//
// Some combinations are invalid; Validate lists them. Open, Count and CountAt return the
// error before reading anything; New and NewSection report it through Err once the first
// Next returns false.
type Options struct {
	Sep        []byte     // record separator; nil or empty means "\n"
	Paragraph  bool       // records are paragraphs (Ruby's sep "")
	Whole      bool       // the whole input is one record, or Limit-sized pieces (Ruby's sep nil)
	Limit      int        // > 0: at most Limit bytes per record, separator included; 0: no limit
	Chomp      bool       // drop the separator that ended each record
	UTF8       bool       // a Limit cut never splits a UTF-8 character; without a Limit it has no effect
	BufferSize int        // initial buffer size and the most bytes asked of the source per read; 0 means 64 KiB
	MaxRecord  int        // > 0: a longer record stops iteration with *TooLongError (or what TooLong says); 0: unbounded
	TooLong    TooLong    // with MaxRecord: what a longer record gets (default: TooLongStop)
	Decompress bool       // gzip, zstd, bzip2, xz, .lzma or lz4 input (detected by its first bytes) is decompressed; other input passes unchanged
	Multiline  *Multiline // records of several lines: lines cut by Sep, joined as Multiline says (multiline.go)
}

// TooLong says what a record longer than Options.MaxRecord gets. Whichever it is, the
// reader holds no more of such a record than about MaxRecord bytes, whatever its length;
// its line number counts (it was a record of the input), and sections, Count and the
// parallel package agree with a sequential read.
type TooLong uint8

const (
	// TooLongStop ends the loop before the record: Err reports a *TooLongError. The
	// default.
	TooLongStop TooLong = iota
	// TooLongSkip drops the record whole and goes on with the next one; Stats.TooLong
	// counts it.
	TooLongSkip
	// TooLongCut yields the record's first MaxRecord bytes, then the separator that
	// ended it unless Chomp (none for a record ended by Limit or by the end of the
	// input), and drops the rest; Stats.TooLong counts it. The cut is exactly MaxRecord
	// bytes: it may split a UTF-8 character, whatever Options.UTF8 says.
	TooLongCut
)

// String returns "stop", "skip" or "cut".
func (t TooLong) String() string {
	switch t {
	case TooLongStop:
		return "stop"
	case TooLongSkip:
		return "skip"
	case TooLongCut:
		return "cut"
	}
	return fmt.Sprintf("TooLong(%d)", uint8(t))
}

// Validate reports whether the options can be used, and if not, every reason why: it
// returns nil, or an error that wraps ErrInvalidOptions and names each field at fault (an
// *OptionsError, whose Faults give them one by one).
// The options are invalid when
//
//   - Paragraph and Whole are both set (a record cannot both end at blank lines and
//     never end);
//   - Sep is set together with Paragraph or with Whole, which choose the separator
//     themselves;
//   - Limit is negative (0 means no limit; Ruby's "no limit" of -1 is not carried over,
//     since in Go a negative size is almost always an arithmetic slip);
//   - BufferSize is negative or larger than MaxBufferSize (0 means DefaultBufferSize);
//   - MaxRecord is negative (0 means unbounded);
//   - TooLong is not one of the TooLong constants;
//   - Multiline is set with Paragraph, Whole or Limit (which cut records by rules of
//     their own), with neither or both of Start and Continue, or with a negative
//     MaxLines.
//
// Fields that have nothing to act on are not errors: UTF8 without a Limit, or Chomp with
// Whole and no separator, change nothing and are accepted, so that one Options value can
// be reused with and without a Limit. (The foreach command, whose flags a person types,
// rejects --utf8 without --limit as a likely mistake.) Decompress combines with every
// other field.
func (o Options) Validate() error {
	var faults []OptionFault
	conflict := func(a, b string) {
		faults = append(faults, OptionFault{Field: a, With: b, Text: a + " and " + b + " conflict"})
	}
	outOfRange := func(field, text string) {
		faults = append(faults, OptionFault{Field: field, Text: field + " " + text})
	}
	if o.Paragraph && o.Whole {
		conflict("Paragraph", "Whole")
	}
	if len(o.Sep) > 0 && o.Paragraph {
		conflict("Sep", "Paragraph")
	}
	if len(o.Sep) > 0 && o.Whole {
		conflict("Sep", "Whole")
	}
	if o.Limit < 0 {
		outOfRange("Limit", fmt.Sprintf("%d is negative", o.Limit))
	}
	if o.BufferSize < 0 {
		outOfRange("BufferSize", fmt.Sprintf("%d is negative", o.BufferSize))
	}
	if o.BufferSize > MaxBufferSize {
		outOfRange("BufferSize", fmt.Sprintf("%d is larger than %d", o.BufferSize, MaxBufferSize))
	}
	if o.MaxRecord < 0 {
		outOfRange("MaxRecord", fmt.Sprintf("%d is negative", o.MaxRecord))
	}
	if o.TooLong > TooLongCut {
		outOfRange("TooLong", fmt.Sprintf("%d is not one of TooLongStop, TooLongSkip, TooLongCut", uint8(o.TooLong)))
	}
	faults = multilineFaults(&o, faults)
	if len(faults) == 0 {
		return nil
	}
	return &OptionsError{Faults: faults}
}

// OptionsError is the error Validate returns: every fault it found, in the order Validate
// lists them. It wraps ErrInvalidOptions. A program whose settings come from elsewhere (a
// command line, a configuration file) can use the faults' fields to name its own settings.
type OptionsError struct {
	Faults []OptionFault // at least one
}

// OptionFault is one reason Options are invalid.
type OptionFault struct {
	Field string // the field at fault, as named in Options: "Paragraph", "Sep", "Limit", ...
	With  string // the field Field conflicts with; "" when Field's own value is out of range
	Text  string // the fault in words, naming the fields: "Sep and Whole conflict", "Limit -1 is negative"
}

// Error is "linereader: invalid options: " and every fault's Text, separated by "; ".
func (e *OptionsError) Error() string {
	texts := make([]string, len(e.Faults))
	for i, f := range e.Faults {
		texts[i] = f.Text
	}
	return ErrInvalidOptions.Error() + ": " + strings.Join(texts, "; ")
}

// Unwrap returns ErrInvalidOptions.
func (e *OptionsError) Unwrap() error { return ErrInvalidOptions }

// Splittable reports whether records under o can be read in independent byte ranges
// (NewSection, Partition, CountAt's parallel sections): it returns nil, or an error that
// wraps ErrNotSplittable (or ErrInvalidOptions) and says why. The options are splittable
// exactly when every occurrence of the separator ends a record and nothing else does: no
// Paragraph, Whole or Limit, and a separator that cannot overlap itself ("\n", "\r\n" and
// ";" are such separators; "aa" and "aba" are not: whether "aaa" ends a record depends on
// everything before it). The records of a run of whole records (see Runs) can then be
// found by searching for the separator alone. With Decompress, an input that turns out to
// be compressed cannot be split whatever the options: NewSection reports that once it has
// seen the input's first bytes.
func (o Options) Splittable() error {
	c := newConfig(o)
	return c.splittable()
}

// Verbatim reports whether the records under o, concatenated, are always exactly the
// input: nothing is dropped (Chomp), skipped (the newlines around paragraphs) or
// decompressed, and no record can stop iteration (MaxRecord). A program that would write
// every record unchanged can then copy the input as it is instead. Invalid options are
// not verbatim.
func (o Options) Verbatim() bool {
	return o.Validate() == nil && !o.Chomp && !o.Paragraph && !o.Decompress && o.MaxRecord == 0
}

// Separator returns the bytes that end a record under o: Sep, or "\n" when Sep is empty,
// "\n\n" with Paragraph, nil with Whole (records end with the input or Limit). The
// slice is the caller's own.
func (o Options) Separator() []byte {
	c := newConfig(o)
	return bytes.Clone(c.sep)
}

// mode is how a record ends, decided once from the Options.
type mode uint8

const (
	modeByte      mode = iota // a one-byte separator: the fast path, bytes.IndexByte
	modeBytes                 // a separator of two or more bytes: bytes.Index
	modeParagraph             // "\n\n", with runs of newlines between records skipped
	modeWhole                 // no separator: end of input, or Limit-sized pieces
)

// config is the validated, decided form of Options, fixed for a Reader's life.
type config struct {
	opt      Options
	mode     mode
	sep      []byte  // the separator (a private copy); "\n\n" in paragraph mode; nil in whole mode
	sepByte  byte    // sep[0] in modeByte
	crlf     bool    // default separator: Chomp also removes a "\r" just before the "\n"
	readSize int     // most bytes asked of the source per read
	simple   bool    // modeByte without Limit or MaxRecord: the short path applies
	tossing  bool    // MaxRecord with TooLongSkip or TooLongCut: a longer record is read past, not refused
	join     *joiner // Options.Multiline: which lines begin a record (multiline.go); nil without it
	err      error   // invalid options: reported by the first Next

	gatherAt   int // the buffer grows until this capacity; a longer record is gathered in blocks (buffer.go)
	releaseCap int // a buffer grown past this is given back once it has outlived its record
}

// gatherMin is the least capacity at which a record that does not fit is gathered in
// blocks instead of growing the buffer further: below it, growth leaves little garbage
// and the buffer is reused by the records after; above it, gathering bounds the memory
// of a huge record to about twice its length.
const gatherMin = 8 << 20

func newConfig(opt Options) config {
	c := config{opt: opt, readSize: opt.BufferSize}
	if c.readSize == 0 {
		c.readSize = DefaultBufferSize
	}
	c.err = opt.Validate()
	switch {
	case opt.Paragraph:
		c.mode, c.sep = modeParagraph, []byte("\n\n")
	case opt.Whole:
		c.mode = modeWhole
	case len(opt.Sep) == 0 || (len(opt.Sep) == 1 && opt.Sep[0] == '\n'):
		// An explicit "\n" is the default separator, chomp rule included, as in Ruby.
		c.mode, c.sep, c.sepByte, c.crlf = modeByte, []byte{'\n'}, '\n', true
	case len(opt.Sep) == 1:
		c.mode, c.sep, c.sepByte = modeByte, []byte{opt.Sep[0]}, opt.Sep[0]
	default:
		c.mode, c.sep = modeBytes, bytes.Clone(opt.Sep)
	}
	c.opt.Sep = c.sep
	c.simple = c.shortPath()
	c.tossing = opt.MaxRecord > 0 && opt.TooLong != TooLongStop
	c.join = newJoiner(&c)
	c.gatherAt = max(gatherMin, 2*c.readSize)
	c.releaseCap = max(16*c.readSize, 4<<20)
	return c
}

// shortPath reports whether the engine's short path applies to these options: a one-byte
// separator, no Limit, no MaxRecord, no Multiline.
func (c *config) shortPath() bool {
	return c.err == nil && c.mode == modeByte && c.opt.Limit <= 0 && c.opt.MaxRecord == 0 && c.opt.Multiline == nil
}

// find returns the index just past the first separator in p, or -1 (always in whole
// mode, which has none).
func (c *config) find(p []byte) int {
	switch c.mode {
	case modeByte:
		if i := bytes.IndexByte(p, c.sepByte); i >= 0 {
			return i + 1
		}
	case modeBytes, modeParagraph:
		if i := bytes.Index(p, c.sep); i >= 0 {
			return i + len(c.sep)
		}
	}
	return -1
}

// findLast returns the index just past the last separator in p, or -1. Only for a
// separator that cannot overlap itself, where every occurrence is a match.
func (c *config) findLast(p []byte) int {
	if len(c.sep) == 1 {
		if i := lastIndexByte(p, c.sepByte); i >= 0 {
			return i + 1
		}
		return -1
	}
	if i := bytes.LastIndex(p, c.sep); i >= 0 {
		return i + len(c.sep)
	}
	return -1
}

// findAll appends to ends base plus the index just past every separator in p, in order,
// and returns ends. Only for a separator that cannot overlap itself, where every
// occurrence is a match. One call for a whole chunk: NewBackward finds the boundaries of
// a chunk forward, then yields its records from the last.
func (c *config) findAll(p []byte, base int, ends []int) []int {
	if len(c.sep) == 1 {
		return appendEnds(p, c.sepByte, base, ends)
	}
	for i := 0; ; {
		j := bytes.Index(p[i:], c.sep)
		if j < 0 {
			return ends
		}
		i += j + len(c.sep)
		ends = append(ends, base+i)
	}
}

// count returns the number of separators in p. Only for a separator that cannot overlap
// itself, so that bytes.Count counts exactly the records they end.
func (c *config) count(p []byte) int { return bytes.Count(p, c.sep) }

// byteEnd returns where the record b[lo:end], which ends with the one-byte separator,
// ends as yielded: end, or with Chomp before the separator (and before a "\r" with the
// default separator). It is chomp's rule for the one-byte paths, kept apart from chomp
// so that it is small enough to be inlined into the short path.
func (c *config) byteEnd(b []byte, lo, end int) int {
	if !c.opt.Chomp {
		return end
	}
	end--
	if c.crlf && end > lo && b[end-1] == '\r' {
		end--
	}
	return end
}

// chomp removes the separator that ends rec, if it ends with one (a record that ended at
// end of input may not): what Chomp drops, and what a Multiline pattern does not see of
// a line, whether or not Chomp is set.
func (c *config) chomp(rec []byte) []byte {
	switch c.mode {
	case modeWhole:
		return rec
	case modeByte:
		n := len(rec)
		if n == 0 || rec[n-1] != c.sepByte {
			return rec
		}
		if n--; c.crlf && n > 0 && rec[n-1] == '\r' {
			n--
		}
		return rec[:n]
	}
	return bytes.TrimSuffix(rec, c.sep)
}

// splittable reports why the options cannot be read in independent sections, or nil.
// A record boundary can be recognised from the bytes just before it only when the
// separator cannot overlap itself: with "aa", whether "aaa" ends a record depends on
// everything before it.
func (c *config) splittable() error {
	if c.err != nil {
		return c.err
	}
	switch {
	case c.opt.Paragraph:
		return fmt.Errorf("%w: Paragraph", ErrNotSplittable)
	case c.opt.Whole:
		return fmt.Errorf("%w: Whole", ErrNotSplittable)
	case c.opt.Limit > 0:
		return fmt.Errorf("%w: Limit", ErrNotSplittable)
	case selfOverlapping(c.sep):
		return fmt.Errorf("%w: Sep %q can overlap itself", ErrNotSplittable, c.sep)
	}
	return nil
}

// selfOverlapping reports whether two occurrences of sep can overlap, that is whether some
// proper prefix of sep is also a suffix of it ("aa", "aba", "\n\n").
func selfOverlapping(sep []byte) bool {
	for k := 1; k < len(sep); k++ {
		if bytes.Equal(sep[:k], sep[len(sep)-k:]) {
			return true
		}
	}
	return false
}
