package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"github.com/foreachio/foreach/linereader"
)

// version is printed by --version; release builds set it with
// -ldflags "-X main.version=v1.2.3". Otherwise the module version from the
// build information is used when there is one.
var version = "dev"

func versionString() string {
	if version == "dev" {
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			return bi.Main.Version
		}
	}
	return version
}

// outBufferSize is the size of the one buffered writer over standard output.
const outBufferSize = 256 << 10

// run is the whole command: main only adds the process around it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "bench" {
		return runBench(args[1:], stdout, stderr)
	}
	cfg, err := parseArgs(args)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		fmt.Fprint(stdout, usage())
		return 0
	case errors.Is(err, errVersion):
		fmt.Fprintf(stdout, "foreach %s\n", versionString())
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "foreach: %v\n%s", err, tryHelp)
		return 2
	}
	c := &command{
		cfg:    cfg,
		stdin:  stdin,
		w:      bufio.NewWriterSize(stdout, outBufferSize),
		out:    stdout,
		stderr: stderr,
		start:  time.Now(),
	}
	return c.run()
}

// command is one run of `foreach [flags] [FILE...]`.
type command struct {
	cfg    *config
	stdin  io.Reader
	w      *bufio.Writer
	out    io.Writer // standard output under w, for writes too large to buffer
	stderr io.Writer
	bar    *progressbar.ProgressBar // nil: no progress bar

	status  int  // exit status so far
	stopped bool // standard output is closed or failing: stop quietly
	start   time.Time

	// Totals for --stats and -c.
	files   int
	records int64
	bytes   int64 // read, decompressed
	// With -z: the files that were compressed, their compressed and decompressed bytes.
	compressedFiles int
	compressedIn    int64
	compressedOut   int64
	longest         int // the longest record, measured here: Pieces reports its longest piece
	grows           int
	counted         int   // files counted by -c
	total           int64 // their records

	lineBase int64      // -n: lines numbered in earlier files (cat -n keeps counting)
	num      lineNumber // -n: the last number formatted
	midLine  bool       // the last record written has no terminator: the next file's first line continues it
}

func (c *command) run() int {
	names := c.cfg.files
	bareStdin := len(names) == 0
	if bareStdin {
		names = []string{"-"}
	}
	c.startProgress(names)
	for _, name := range names {
		c.file(name)
		if c.stopped {
			break
		}
	}
	if c.cfg.count && !c.stopped {
		if len(names) > 1 {
			c.printf("%d total\n", c.total)
		}
	}
	c.flush()
	c.finishProgress()
	if c.cfg.stats {
		c.printStats()
	}
	return c.status
}

// file processes one named input ("-" is standard input), reporting its errors.
func (c *command) file(name string) {
	if c.cfg.follow {
		c.follow(name)
		return
	}
	var src io.Reader
	var file *os.File // a named file, opened here
	size := int64(-1) // the size of a regular file; -1 for anything else
	if name == "-" {
		src = c.stdin
		if f, ok := c.stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				size = fi.Size()
			}
		}
	} else {
		// Opening a FIFO waits for a writer: what earlier files produced is written first.
		if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
			c.flush()
		}
		f, err := os.Open(name)
		if err != nil {
			c.fail(name, err)
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			c.fail(name, err)
			return
		}
		if fi.IsDir() {
			c.fail(name, syscall.EISDIR)
			return
		}
		if fi.Mode().IsRegular() {
			size = fi.Size()
		}
		src, file = f, f
	}
	c.files++
	if c.bar != nil {
		c.bar.Describe(displayName(name))
		src = &progressReader{r: src, bar: c.bar}
	}
	if size < 0 {
		// A pipe, terminal, socket or FIFO may make the next read wait: the output
		// so far is written first, so that the reader downstream sees each record
		// as soon as the input pauses. Regular files never wait, and keep large writes.
		src = &flushReader{r: src, c: c}
	}
	if c.cfg.count {
		c.count(name, src, file, size)
		return
	}
	r := linereader.New(src, c.cfg.opt)
	defer r.Close()
	if !c.cfg.withName && !c.cfg.number && c.cfg.ors == nil && !c.cfg.stats && c.cfg.opt.MaxRecord == 0 {
		// The output is the input: pass whole runs of records on (--stats needs each
		// record measured for the longest one, and --max-record each record whole,
		// so they take the loop below).
		c.copyRuns(name, r)
		return
	}
	c.printRecords(name, r)
}

// displayName is how messages and the progress bar name an input.
func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// printRecords writes each record with what the flags add: the -H and -n prefixes,
// --ors, and -H's terminator. Without --max-record, records come from Pieces, so a
// record longer than the buffer passes through a piece at a time, in bounded memory:
// the prefixes go before its first piece, and --ors or the terminator after its last.
func (c *command) printRecords(name string, r *linereader.Reader) {
	label := name // -H prefix, as grep -H
	if name == "-" {
		label = "(standard input)"
	}
	// term is what ends a line of output; a record without it runs on into
	// whatever is written next (with -n: the next file's first line, as cat -n).
	// -H writes it after a record that lacks it, as grep -H does.
	term := c.cfg.opt.Sep
	if len(term) == 0 || c.cfg.opt.Paragraph || c.cfg.opt.Whole {
		term = []byte{'\n'}
	}
	if c.cfg.ors != nil {
		term = c.cfg.ors
	}
	var (
		line   int64 // LineNo before the current record
		first  = true
		inside bool // the last piece was Partial: this one continues its record
		length int  // bytes of the current record so far, for --stats
		tail   endTail
	)
	// With --max-record a record is refused before any of it is written, so it
	// comes whole (Views), in memory bounded by the limit; without, in pieces.
	// A followed file's records come whole too: a piece of one still being written
	// must not be printed.
	records := r.Pieces()
	if c.cfg.opt.MaxRecord > 0 || c.cfg.follow {
		records = r.Views()
	}
	w := c.w
	for piece := range records {
		if !inside {
			prefix := true
			if first {
				first = false
				if c.midLine {
					// cat -n: the previous file's unterminated last line goes on here,
					// so this record is the rest of it: no number of its own.
					prefix = false
					c.lineBase--
				}
			}
			if prefix {
				if c.cfg.withName {
					w.WriteString(label)
					w.WriteByte(':')
				}
				if c.cfg.number {
					// The record belongs to line line+1, whether it completes it or is a
					// piece cut by --limit (which does not advance LineNo).
					w.Write(c.num.format(c.lineBase + line + 1))
				}
			}
		}
		_, err := w.Write(piece)
		if inside = r.Partial(); inside {
			if err != nil {
				c.writeFailed(err)
				break
			}
			length += len(piece)
			tail.add(piece, len(term))
			continue
		}
		c.longest = max(c.longest, length+len(piece))
		length = 0
		ended := true
		switch {
		case c.cfg.ors != nil:
			_, err = w.Write(c.cfg.ors)
		case !tail.endsWith(piece, term):
			// -H, and -f: the next record, from the next file, is not the rest of
			// this one.
			if c.cfg.withName || c.cfg.follow {
				_, err = w.Write(term)
			} else {
				ended = false
			}
		}
		tail.reset()
		if err != nil {
			c.writeFailed(err)
			break
		}
		c.midLine = !ended
		line = r.LineNo()
	}
	c.lineBase += line
	c.addStats(r.Stats())
	if err := r.Err(); err != nil && !c.stopped && !c.warnTrailing(name, err) {
		c.fail(name, err)
	}
}

// endTail keeps the last bytes of a record that comes in pieces, as many as the
// terminator has, so that a terminator cut between two pieces is still seen.
type endTail struct{ b []byte }

func (t *endTail) reset() { t.b = t.b[:0] }

// add appends piece, keeping at most n bytes.
func (t *endTail) add(piece []byte, n int) {
	if len(piece) >= n {
		t.b = append(t.b[:0], piece[len(piece)-n:]...)
		return
	}
	t.b = append(t.b, piece...)
	if len(t.b) > n {
		t.b = t.b[:copy(t.b, t.b[len(t.b)-n:])]
	}
}

// endsWith reports whether the record whose earlier pieces left t, and whose last piece
// is last, ends with term.
func (t *endTail) endsWith(last, term []byte) bool {
	if len(last) >= len(term) {
		return bytes.HasSuffix(last, term)
	}
	need := len(term) - len(last) // bytes of term in the earlier pieces
	return len(t.b) >= need && bytes.Equal(t.b[len(t.b)-need:], term[:need]) && bytes.Equal(last, term[need:])
}

// copyRuns writes the records unchanged, a run of whole records at a time (Runs): the
// output is the records as they are, so there is nothing to do per record. A large run
// goes straight to standard output once the buffer is flushed, without being copied.
func (c *command) copyRuns(name string, r *linereader.Reader) {
	w := c.w
	for run := range r.Runs() {
		var err error
		if len(run) >= directWrite {
			if err = w.Flush(); err == nil {
				_, err = c.out.Write(run)
			}
		} else {
			_, err = w.Write(run)
		}
		if err != nil {
			c.writeFailed(err)
			break
		}
	}
	c.addStats(r.Stats())
	if err := r.Err(); err != nil && !c.stopped && !c.warnTrailing(name, err) {
		c.fail(name, err)
	}
}

// flushReader writes the command's pending output before every read of an input that
// may make it wait (see file). When the output has failed it stops the input too.
type flushReader struct {
	r io.Reader
	c *command
}

// errOutputStopped ends reading an input once standard output has failed; it is never
// reported, since writeFailed has already said (or, for a closed pipe, need not say) why.
var errOutputStopped = errors.New("output stopped")

func (f *flushReader) Read(p []byte) (int, error) {
	if f.c.w.Buffered() > 0 {
		f.c.flush()
	}
	if f.c.stopped {
		return 0, errOutputStopped
	}
	return f.r.Read(p)
}

// directWrite is the run size from which copyRuns writes past the output buffer.
const directWrite = 32 << 10

// count implements -c for one input. A named regular file whose records are
// counted as separators is counted by CountAt, in parallel sections (-j); anything
// else by one pass over Pieces, which never holds a record whole.
func (c *command) count(name string, src io.Reader, file *os.File, size int64) {
	// CountAt pays only where it counts separators (in parallel sections); otherwise
	// the pass over Pieces below counts the same way and gives --stats its figures.
	if file != nil && size >= 0 && !c.cfg.stats && countsSeparators(c.cfg.opt) {
		n, err := linereader.CountAt(file, size, c.cfg.opt, c.cfg.jobs)
		if err != nil {
			c.fail(name, err)
			return
		}
		if c.bar != nil {
			c.bar.Add64(size)
		}
		c.countDone(name, n)
		return
	}
	r := linereader.New(src, c.cfg.opt)
	defer r.Close()
	var n int64
	length := 0 // of the current record so far, for --stats
	for piece := range r.Pieces() {
		length += len(piece)
		if !r.Partial() {
			n++
			c.longest = max(c.longest, length)
			length = 0
		}
	}
	c.addStats(r.Stats())
	if err := r.Err(); err != nil && !c.warnTrailing(name, err) {
		c.fail(name, err)
		return
	}
	c.countDone(name, n)
}

// countsSeparators reports whether records under opt are counted by counting
// separators: a separator that cannot overlap itself (so that each occurrence ends a
// record), nothing that cuts or checks records (paragraphs, --whole, --limit,
// --max-record), and no decompression (compressed bytes are not the records').
func countsSeparators(opt linereader.Options) bool {
	if opt.Paragraph || opt.Whole || opt.Limit > 0 || opt.MaxRecord > 0 || opt.Decompress {
		return false
	}
	sep := opt.Sep
	for k := 1; k < len(sep); k++ {
		if bytes.Equal(sep[:k], sep[len(sep)-k:]) {
			return false // "aa", "aba": two occurrences may overlap
		}
	}
	return true
}

func (c *command) countDone(name string, n int64) {
	c.counted++
	c.total += n
	if len(c.cfg.files) == 0 {
		c.printf("%d\n", n)
	} else {
		c.printf("%d %s\n", n, name)
	}
}

func (c *command) addStats(st linereader.Stats) {
	c.records += st.Records
	c.bytes += st.Bytes
	if st.Format != "" {
		c.compressedFiles++
		c.compressedIn += st.CompressedBytes
		c.compressedOut += st.Bytes
	}
	c.grows += st.Buffer.Grows
}

// lineNumber formats -n's prefix. Consecutive records have the same number or the next
// one, so it keeps the last prefix and counts up in place (as cat -n does) instead of
// formatting every number: formatting was a quarter of the time of foreach -n.
type lineNumber struct {
	n   int64
	buf []byte // appendNumber(nil, n)
}

// format returns the prefix for n, valid until the next call.
func (l *lineNumber) format(n int64) []byte {
	switch {
	case n == l.n && l.buf != nil:
	case n == l.n+1 && l.buf != nil && l.increment():
		l.n = n
	default:
		l.n, l.buf = n, appendNumber(l.buf[:0], n)
	}
	return l.buf
}

// increment adds one to the digits in buf, in place; it reports false when the number
// gains a digit beyond the padding (then the caller formats it afresh).
func (l *lineNumber) increment() bool {
	for i := len(l.buf) - 2; i >= 0; i-- { // the last byte is the tab
		switch c := l.buf[i]; {
		case c == '9':
			l.buf[i] = '0'
		case c == ' ':
			l.buf[i] = '1'
			return true
		default:
			l.buf[i] = c + 1
			return true
		}
	}
	return false
}

// appendNumber appends n right-aligned in 6 columns and a tab, as cat -n.
func appendNumber(b []byte, n int64) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], n, 10)
	for i := len(s); i < 6; i++ {
		b = append(b, ' ')
	}
	b = append(b, s...)
	return append(b, '\t')
}

func (c *command) printf(format string, args ...any) {
	if c.stopped {
		return
	}
	if _, err := fmt.Fprintf(c.w, format, args...); err != nil {
		c.writeFailed(err)
	}
}

func (c *command) flush() {
	if c.stopped {
		return
	}
	if err := c.w.Flush(); err != nil {
		c.writeFailed(err)
	}
}

// writeFailed handles an error writing standard output: a closed pipe ends the
// command quietly (foreach big | head); anything else is reported.
func (c *command) writeFailed(err error) {
	c.stopped = true
	if errors.Is(err, syscall.EPIPE) {
		return
	}
	c.report("write error", err)
	c.status = 1
}

// fail reports that the input name failed and sets the exit status.
func (c *command) fail(name string, err error) {
	c.status = 1
	if name == "-" {
		name = "(standard input)"
	}
	c.report(name, err)
}

// statusWarning is the exit status when every file was read but one had trailing data
// after its compressed streams (and none failed): 2 is taken by usage errors, which read
// nothing, so a script can still tell "read, with a warning" from both.
const statusWarning = 3

// warnTrailing reports err, when it is trailing data after the last compressed stream of
// the input name (-z), as a warning: every record was read, as zcat reads such a file. It
// reports whether err was that.
func (c *command) warnTrailing(name string, err error) bool {
	if !errors.Is(err, linereader.ErrTrailingData) {
		return false
	}
	if c.status == 0 {
		c.status = statusWarning
	}
	if name == "-" {
		name = "(standard input)"
	}
	c.report(name, err)
	return true
}

// report writes "foreach: what: reason" on standard error, where reason does not
// repeat the file name that *fs.PathError would add.
func (c *command) report(what string, err error) {
	var pe *fs.PathError
	var tl *linereader.TooLongError
	reason := err.Error()
	switch {
	case errors.As(err, &tl):
		reason = fmt.Sprintf("record at line %d (offset %d) is longer than --max-record %s",
			tl.LineNo, tl.Offset, formatSize(tl.Max))
	case errors.As(err, &pe):
		reason = pe.Err.Error()
	}
	if c.bar != nil {
		c.bar.Clear()
	}
	fmt.Fprintf(c.stderr, "foreach: %s: %s\n", what, reason)
}
