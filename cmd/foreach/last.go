package main

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/foreachio/foreach/internal/cliflag"
	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/ztext"
	"github.com/foreachio/foreach/linereader"
)

// --last N and --reverse: the records of each file from its end (reverse.go holds
// --reverse's own part). A regular file is read from its end with linereader.NewTail
// and NewBackward, so the cost of --last does not grow with the file; other input is
// read forward, --last keeping only the last N records as it goes, --reverse a copy in
// a temporary file. Several files are each read on their own and, as tail does, each
// file's records come after a "==> NAME <==" header (not with -H, whose prefix names
// the file already; not with --reverse alone, as tac prints none).

// lastValue is --last's value: a number of records, at least 0. The config holds -1
// when the flag is not given.
type lastValue struct{ n *int }

func (v lastValue) String() string {
	if v.n == nil || *v.n < 0 {
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v lastValue) Type() string { return "N" }

func (v lastValue) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	switch {
	case err != nil:
		return errors.New("not a whole number")
	case n < 0:
		return errors.New("must be at least 0")
	}
	*v.n = n
	return nil
}

// fromEndFlags checks the flags that --last and --reverse combine with. --last with
// --follow is --follow's (follow.go).
func fromEndFlags(fs *cliflag.FlagSet, cfg *config) error {
	switch {
	case cfg.last >= 0 && cfg.count && !cfg.follow:
		return usagef("--last cannot be used with --count")
	case !cfg.reverse:
		return nil
	case cfg.count:
		return usagef("--reverse cannot be used with --count")
	case cfg.follow:
		return usagef("--reverse cannot be used with --follow (a followed file has no last record)")
	}
	if cfg.opt.Splittable() == nil {
		return nil
	}
	flag := "--sep " + quoteValue(fs.Lookup("sep").Value.String())
	switch {
	case cfg.opt.Paragraph:
		flag = "--paragraph"
	case cfg.opt.Whole:
		flag = "--whole"
	case cfg.opt.Limit > 0:
		flag = "--limit"
	}
	return usagef("--reverse cannot be used with %s (reading backwards needs records that end at a separator that cannot overlap itself)", flag)
}

// fromEnd prints the records of one open input for --last or --reverse.
func (c *command) fromEnd(in *input) {
	c.header(in.name)
	opt := c.cfg.opt
	src, size, plain, text := c.regular(in)
	switch {
	case c.cfg.reverse:
		c.reverse(in, src, size, plain)
	case plain && opt.Splittable() == nil:
		opt.Decompress = false
		c.printRecords(in.name, linereader.NewTail(src, size, c.cfg.last, opt))
	default:
		c.lastOfStream(in)
		return
	}
	if text == nil || c.stopped {
		return
	}
	// Read through an index, which does not see trailing data after the last gzip
	// member: said as a sequential read says it.
	if err := text.Trailing(); err != nil {
		c.warnTrailing(in.name, err)
	}
}

// regular returns the input as an io.ReaderAt of size bytes, from where it stands (a
// standard input that is a regular file may have been read in part) when it is a
// regular file whose size tells where its data ends (sizeIsEnd), and whether that is
// its records' bytes as they are: with -z, a compressed file's text through its index
// or its structure (and that Text, for its trailing data), else not, and the input is
// read forward to be decompressed. Other input is read forward, as tail and tac read a
// pipe.
func (c *command) regular(in *input) (io.ReaderAt, int64, bool, *ztext.Text) {
	if in.size < 0 || in.file == nil || !sizeIsEnd(in.file, in.size) {
		return nil, 0, false, nil
	}
	if t := c.compressedText(in); t != nil {
		return t.At, t.Size, t.At != nil, t
	}
	var pos int64
	if !in.opened {
		p, err := in.file.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, 0, false, nil
		}
		pos = min(p, in.size)
	}
	src := io.NewSectionReader(in.file, pos, in.size-pos)
	if c.cfg.opt.Decompress && decompress.FormatAt(src) != decompress.None {
		return nil, 0, false, nil
	}
	return src, in.size - pos, true, nil
}

// kernelPage is the size a kernel's file system (/sys) gives a file whose content is
// made when it is read, whatever its length.
const kernelPage = 4096

// sizeIsEnd reports whether the data of f, a regular file of size bytes, ends at size,
// so that it can be read from there backwards: not when size is 0 (the size of /proc's
// files, and an empty file costs nothing read forward), nor when no byte lies just
// before size (a file shorter than its size: /sys's, whose size is a page), nor when
// bytes lie past a size of at most a page (a page that reads more). A larger file
// that reads past its size is a file growing: it is read back from the size it had
// when opened, as tail reads it. One read of 2 bytes tells.
func sizeIsEnd(f io.ReaderAt, size int64) bool {
	if size <= 0 {
		return false
	}
	var b [2]byte
	n, _ := f.ReadAt(b[:], size-1)
	return n == 1 || n == 2 && size > kernelPage
}

// header writes tail's "==> NAME <==" before a file's records when several files are
// printed with --last, after a blank line from the second on. The line before it ends
// there: the next file's first record does not continue it. --last 0 prints no header,
// as tail -n 0 prints nothing at all.
func (c *command) header(name string) {
	if c.cfg.last <= 0 || len(c.cfg.files) < 2 || c.cfg.withName {
		return
	}
	if name == "-" {
		name = "standard input" // as tail names it
	}
	if c.tot.files > 1 { // the inputs opened so far, this one included: each got a header
		c.w.Write([]byte{'\n'})
	}
	c.w.Write([]byte("==> " + name + " <==\n"))
	c.lines.midLine = false
}

// lastOfStream prints the last N records of an input read forward: a pipe, or
// input that cannot be read backwards (compressed, or options that are not
// splittable). It keeps the last N records as they are read, separators included, in
// a ring whose slots are reused; then their bytes, which are the input from the first
// of them on, are cut into records again with the command's options, so that they are
// printed as a forward read prints them. A read error is reported after the records
// read before it are printed.
func (c *command) lastOfStream(in *input) {
	opt := c.options(in)
	opt.Chomp = false
	r := linereader.New(in.src, opt)
	defer r.Close()
	ring := newRing(c.cfg.last)
	for rec := range r.Views() {
		ring.add(rec)
	}
	opt = c.cfg.opt
	opt.Decompress = false
	c.printRecords(in.name, linereader.New(ring.reader(), opt))
	if err := r.Err(); err != nil && !c.stopped && !c.warnTrailing(in.name, err) {
		c.fail(in.name, err)
	}
}

// ring keeps the last n records added. Invariants: len(slots) <= n; once len(slots) ==
// n, slots[next] is the oldest record and the next to be replaced, its array reused.
type ring struct {
	n     int
	slots [][]byte
	next  int
}

func newRing(n int) *ring { return &ring{n: n} }

// add copies rec in, in place of the oldest record once there are n.
func (g *ring) add(rec []byte) {
	switch {
	case g.n == 0:
	case len(g.slots) < g.n:
		g.slots = append(g.slots, append([]byte(nil), rec...))
	default:
		g.slots[g.next] = append(g.slots[g.next][:0], rec...)
		g.next = (g.next + 1) % g.n
	}
}

// reader returns the records kept, oldest first, back to back.
func (g *ring) reader() io.Reader {
	rs := make([]io.Reader, 0, len(g.slots))
	for i := range g.slots {
		rs = append(rs, bytes.NewReader(g.slots[(g.next+i)%len(g.slots)]))
	}
	return io.MultiReader(rs...)
}
