package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/foreachio/foreach/internal/cliflag"
	"github.com/foreachio/foreach/internal/ztext"
	"github.com/foreachio/foreach/linereader"
)

// run is the whole command: main only adds the process around it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runWith(args, stdin, stdout, stderr, outBufferSize)
}

// runWith is run with an output buffer of outSize bytes: the printer's tests make it
// small, so that records, prefixes and names meet its end at every offset.
func runWith(args []string, stdin io.Reader, stdout, stderr io.Writer, outSize int) int {
	if len(args) > 0 && args[0] == "bench" {
		return runBench(args[1:], stdout, stderr)
	}
	cfg, err := parseArgs(args)
	switch {
	case errors.Is(err, cliflag.ErrHelp):
		fmt.Fprint(stdout, usage())
		return 0
	case errors.Is(err, errVersion):
		fmt.Fprint(stdout, versionText(debug.ReadBuildInfo()))
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "foreach: %v\n%s", err, tryHelp)
		return 2
	}
	c := &command{
		cfg:    cfg,
		stdin:  stdin,
		w:      newOutput(stdout, outSize),
		stdout: stdout,
		stderr: stderr,
		start:  time.Now(),
		lines:  numbering{num: lineNumber{grep: cfg.withName}}, // -H -n numbers as grep -Hn
	}
	return c.run()
}

// command is one run of `foreach [flags] [FILE...]`.
type command struct {
	cfg    *config
	stdin  io.Reader
	w      *output   // over stdout: every byte of output goes through it, or is flushed past
	stdout io.Writer // under w; an *os.File when it is the process's standard output
	stderr io.Writer
	bar    *bar // nil: no progress bar

	status   int  // exit status so far
	failures int  // inputs reported failed so far (fail): a read that failed writes no index
	stopped  bool // standard output is closed or failing: stop quietly
	start    time.Time

	out   stdoutFile
	rd    reuse     // the Reader of every input but a followed one
	tot   totals    // the figures of the inputs read so far, for --stats and -c's total
	lines numbering // -n's state across inputs
	ix    *indexing // --index with -z: the index of the input being read (indexing.go); else nil
}

func (c *command) run() int {
	names := c.cfg.files
	if len(names) == 0 {
		names = []string{"-"}
	}
	c.startProgress(names)
	if c.cfg.indexOnly() {
		for _, name := range names {
			c.indexFile(name) // ztext.go
		}
		c.finishProgress()
		return c.status
	}
	if c.cfg.follow {
		c.followAll(names)
	}
	for _, name := range names {
		if c.cfg.follow || c.stopped {
			break // -f: followAll read every file
		}
		c.file(name)
	}
	if c.cfg.count && len(names) > 1 {
		c.printf("%d total\n", c.tot.counted)
	}
	c.flush()
	c.finishProgress()
	if c.cfg.stats {
		c.printStats()
	}
	return c.status
}

// input is one named input, open.
type input struct {
	name string      // as named on the command line; "-" is standard input
	src  io.Reader   // what the engine reads: the file, with the progress bar and flushing around it
	file *os.File    // the file under src, standard input included; nil when stdin is not an *os.File
	info os.FileInfo // file's; nil when it has none
	size int64       // the size of a regular file; -1 for anything else
	// opened: file was opened by name here, so it is read from its start: CountAt
	// may read it by offsets. Standard input may have been read partly before.
	opened bool
	// decoded: src gives the text of the compressed file already (through the
	// zindex.Builder of --index with -z): it is read with Decompress off.
	decoded bool
	// asked: compressedText has looked at the file; text is what it found (nil: the
	// file is read as a stream by the engine).
	asked bool
	text  *ztext.Text
}

// file processes one named input ("-" is standard input), reporting its errors.
func (c *command) file(name string) {
	in, err := c.open(name)
	if err != nil {
		c.fail(name, err)
		return
	}
	if in.opened {
		defer in.file.Close()
	}
	c.tot.files++
	if c.bar != nil {
		c.bar.Describe(displayName(name))
		in.src = &progressReader{r: in.src, bar: c.bar}
	}
	if in.size < 0 {
		// A pipe, terminal, socket or FIFO may make the next read wait: the output
		// so far is written first, so that the reader downstream sees each record
		// as soon as the input pauses. Regular files never wait, and keep large writes.
		in.src = &flushReader{r: in.src, c: c}
	}
	c.ix = c.startIndex(in) // over the wrappers: the bar counts the compressed bytes
	defer c.finishIndex(in)
	switch {
	case c.cfg.count:
		c.count(in)
	case c.cfg.last >= 0 || c.cfg.reverse:
		c.fromEnd(in) // last.go
	case c.intoItself(in):
		c.fail(name, errInputIsOutput)
	case c.verbatim():
		c.copy(in)
	default:
		c.print(in)
	}
}

// open opens a named input, or takes standard input for "-".
func (c *command) open(name string) (*input, error) {
	in := &input{name: name, src: c.stdin, size: -1}
	if name == "-" {
		in.file, _ = c.stdin.(*os.File)
	} else {
		// Opening a FIFO waits for a writer: what earlier files produced is written
		// first. With nothing pending, the file need not be looked at first.
		open := openRegular
		if c.w.Buffered() > 0 {
			if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
				c.flush()
				open = os.Open
			}
		}
		f, err := open(name)
		if err != nil {
			return nil, err
		}
		in.src, in.file, in.opened = f, f, true
	}
	if in.file == nil {
		return in, nil
	}
	fi, err := in.file.Stat()
	switch {
	case err != nil && in.opened:
		in.file.Close()
		return nil, err
	case err != nil: // standard input that cannot say what it is: read it as a stream
		return in, nil
	case fi.IsDir():
		if in.opened {
			in.file.Close()
		}
		return nil, syscall.EISDIR
	case fi.Mode().IsRegular():
		in.size = fi.Size()
	}
	in.info = fi
	return in, nil
}

// errInputIsOutput is GNU cat's refusal to copy a file into itself, which would not end
// while the copy reads what it has just written.
var errInputIsOutput = errors.New("input file is output file")

// intoItself reports whether the input is the regular file standard output writes to,
// with bytes left to read: as cat, the command refuses to print it.
func (c *command) intoItself(in *input) bool {
	if in.size <= 0 {
		return false
	}
	if _, oi := c.outFile(); oi == nil || !oi.Mode().IsRegular() || !os.SameFile(oi, in.info) {
		return false
	}
	pos, err := in.file.Seek(0, io.SeekCurrent)
	return err == nil && pos < in.size
}

// verbatim reports whether the output is the input, byte for byte: nothing is added
// to or taken from the records, and nothing needs each record seen (--stats measures
// them).
func (c *command) verbatim() bool {
	cfg := c.cfg
	return !cfg.number && !cfg.withName && cfg.ors == nil && !cfg.stats && cfg.opt.Verbatim()
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

// done ends the reading of an input: its figures go to the totals, and its error, if
// any, is reported under its name (not once the output has stopped: the input was cut
// short on purpose); trailing data after compressed streams is a warning.
func (c *command) done(name string, r *linereader.Reader) {
	st := c.stats(r)
	c.tot.add(st)
	if err := r.Err(); err != nil && !c.stopped && !c.warnTrailing(name, err) {
		c.fail(name, err)
	}
	if st.TooLong > 0 && !c.stopped {
		what := "skipped"
		if c.cfg.opt.TooLong == linereader.TooLongCut {
			what = "cut"
		}
		c.report(messageName(name), fmt.Errorf("%s longer than --max-record %s %s",
			plural(st.TooLong, "record"), formatSize(c.cfg.opt.MaxRecord), what))
	}
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
