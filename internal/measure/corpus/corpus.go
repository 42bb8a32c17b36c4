package corpus

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Shape names a kind of corpus. The string is also the command's --shape value.
type Shape string

const (
	Tall           Shape = "tall"             // many short lines of words
	Wide           Shape = "wide"             // few very long lines of words
	Verywide       Shape = "verywide"         // lines of 512 KiB to 768 KiB of words
	Mixed          Shape = "mixed"            // long-tailed line lengths, empty lines included
	CRLF           Shape = "crlf"             // tall with "\r\n" line endings
	NoFinalNewline Shape = "no-final-newline" // tall whose last line has no terminator
	HugeLine       Shape = "huge-line"        // one line of exactly Size bytes, "\n" included
	Binary         Shape = "binary"           // exactly Size random bytes: NULs, some "\n"
	StackTrace     Shape = "stacktrace"       // log entries, some with a stack trace under them: records of many lines
)

// shapes is the fixed order of Shapes and of the error message that lists them.
var shapes = []Shape{Tall, Wide, Verywide, Mixed, CRLF, NoFinalNewline, HugeLine, Binary, StackTrace}

// Shapes lists every shape in a fixed order.
func Shapes() []Shape {
	return append([]Shape(nil), shapes...)
}

// Defaults of the shapes, used for every zero field of a Spec.
const (
	DefaultLines         = 10_000   // tall, crlf, no-final-newline, mixed
	DefaultPhrases       = 10       // tall, crlf, no-final-newline, mixed (its scale)
	DefaultWideLines     = 10       // wide
	DefaultWidePhrases   = 10_000   // wide
	DefaultVerywideLines = 10       // verywide
	DefaultHugeLineSize  = 16 << 20 // huge-line: 16 MiB
	DefaultBinarySize    = 1 << 20  // binary: 1 MiB
)

// VerywideMinLine and VerywideSpread bound the lines of the verywide shape: each
// line is words up to the first word end at or past a length drawn uniformly in
// [VerywideMinLine, VerywideMinLine+VerywideSpread), so every line, its "\n"
// included, is longer than VerywideMinLine and shorter than the bound plus one
// word. 512 KiB is past every buffer a line reader starts with (bufio's 4 KiB and
// 64 KiB, the engine's 64 KiB), so each line makes a reader grow or work around
// its buffer; about 640 KiB on average.
const (
	VerywideMinLine = 512 << 10
	VerywideSpread  = 256 << 10
)

// MixedMaxDoublings caps the long tail of the mixed shape: a non-empty line
// has at most Phrases<<MixedMaxDoublings words (81,920 at the defaults, about
// half a MiB).
const MixedMaxDoublings = 13

// Spec says what to generate. Zero fields take the shape's defaults.
//
// Lines and Phrases mean nothing to huge-line and binary, which are sized by
// Size alone, and are ignored there. Phrases means nothing to verywide either,
// whose lines are sized in bytes. For mixed, Phrases is a scale rather than a
// count: see the package documentation.
type Spec struct {
	Shape   Shape
	Lines   int    // number of lines; 0: the shape's default
	Phrases int    // phrases (words) per line; 0: the shape's default
	Seed    uint64 // PRNG seed; the same Spec always gives the same bytes
	Size    int64  // > 0: target size in bytes; overrides Lines
}

// Errors returned by Validate, Generate, WriteFile and Bytes, wrapped with the
// offending value; test for them with errors.Is.
var (
	ErrUnknownShape  = errors.New("corpus: unknown shape")
	ErrNegativeField = errors.New("corpus: negative field")
)

// Validate reports whether s can be generated: its shape must be one of
// Shapes and no numeric field may be negative.
func (s Spec) Validate() error {
	known := false
	for _, sh := range shapes {
		known = known || s.Shape == sh
	}
	if !known {
		names := make([]string, len(shapes))
		for i, sh := range shapes {
			names[i] = string(sh)
		}
		return fmt.Errorf("%w %q (want one of %s)", ErrUnknownShape, string(s.Shape), strings.Join(names, ", "))
	}
	switch {
	case s.Lines < 0:
		return fmt.Errorf("%w: Lines is %d", ErrNegativeField, s.Lines)
	case s.Phrases < 0:
		return fmt.Errorf("%w: Phrases is %d", ErrNegativeField, s.Phrases)
	case s.Size < 0:
		return fmt.Errorf("%w: Size is %d", ErrNegativeField, s.Size)
	}
	return nil
}

// withDefaults returns s with every zero field that its shape uses filled in.
// s must be valid.
func (s Spec) withDefaults() Spec {
	lines, phrases := DefaultLines, DefaultPhrases
	switch s.Shape {
	case Wide:
		lines, phrases = DefaultWideLines, DefaultWidePhrases
	case Verywide:
		lines = DefaultVerywideLines
	case HugeLine:
		if s.Size == 0 {
			s.Size = DefaultHugeLineSize
		}
	case Binary:
		if s.Size == 0 {
			s.Size = DefaultBinarySize
		}
	}
	if s.Lines == 0 {
		s.Lines = lines
	}
	if s.Phrases == 0 {
		s.Phrases = phrases
	}
	return s
}

// Generate writes the corpus described by s to w and returns the bytes written.
// An unknown shape or a negative field is an error that names it.
//
// Generate buffers its writes (256 KiB at a time), so w needs no buffering of
// its own. The first error from w stops generation and is returned with the
// count of bytes w accepted.
func Generate(w io.Writer, s Spec) (int64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	s = s.withDefaults()
	rng := &splitmix64{state: s.Seed}
	g := &generator{
		out:   output{w: w, buf: make([]byte, 0, flushAt+64<<10)},
		rng:   rng,
		words: wordPicker{rng: rng},
	}
	switch s.Shape {
	case HugeLine:
		g.hugeLine(s.Size)
	case Binary:
		g.binary(s.Size)
	case StackTrace:
		g.stackTrace(s)
	default:
		g.lines(s)
	}
	g.out.flush()
	return g.out.written, g.out.err
}

// WriteFile generates s into the named file (created or truncated).
//
// An invalid s is reported before the file is touched. If generation, a write
// or the close fails, the error is returned and a regular file is removed, so
// that a partial corpus is never mistaken for a whole one.
func WriteFile(name string, s Spec) (int64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	f, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	n, err := Generate(f, s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if fi, serr := os.Stat(name); serr == nil && fi.Mode().IsRegular() {
			os.Remove(name)
		}
		return n, err
	}
	return n, nil
}

// Bytes returns the corpus in memory (for tests and small sizes).
// The slice is fresh and the caller's.
func Bytes(s Spec) ([]byte, error) {
	var b bytes.Buffer
	if _, err := Generate(&b, s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// flushAt is the buffered amount that triggers a write to the destination.
const flushAt = 256 << 10

// output buffers what the generator produces on its way to w.
type output struct {
	w       io.Writer
	buf     []byte // bytes not yet written; flushed once len(buf) >= flushAt
	written int64  // bytes w has accepted
	err     error  // first write error; once set, nothing more is written
}

// size is the length of the corpus so far, buffered bytes included.
func (o *output) size() int64 { return o.written + int64(len(o.buf)) }

func (o *output) flush() {
	if o.err != nil || len(o.buf) == 0 {
		return
	}
	n, err := o.w.Write(o.buf)
	o.written += int64(n)
	if err == nil && n < len(o.buf) {
		err = io.ErrShortWrite
	}
	o.err = err
	o.buf = o.buf[:0]
}

// generator holds the state of one Generate call. words shares rng, so the
// order of draws, and with it the bytes, depends only on the Spec.
type generator struct {
	out   output
	rng   *splitmix64
	words wordPicker
}

// lines writes the text shapes: tall, wide, verywide, mixed, crlf and no-final-newline.
// With a Size it stops at the first line end at or past Size; for
// no-final-newline a line's end is after its last word, since lines are joined
// by "\n" rather than ended by it.
func (g *generator) lines(s Spec) {
	eol := "\n"
	if s.Shape == CRLF {
		eol = "\r\n"
	}
	for i := 0; g.out.err == nil; i++ {
		if (s.Size > 0 && g.out.size() >= s.Size) || (s.Size == 0 && i == s.Lines) {
			return
		}
		if s.Shape == NoFinalNewline && i > 0 {
			g.out.buf = append(g.out.buf, '\n')
		}
		if s.Shape == Verywide {
			g.appendWordsPast(VerywideMinLine + int(g.rng.below(VerywideSpread)))
		} else {
			n := s.Phrases
			if s.Shape == Mixed {
				n = g.mixedPhrases(s.Phrases)
			}
			g.appendWords(n)
		}
		if s.Shape != NoFinalNewline {
			g.out.buf = append(g.out.buf, eol...)
		}
		if len(g.out.buf) >= flushAt {
			g.out.flush()
		}
	}
}

// appendWords appends n words separated by single spaces, flushing as it goes
// so that a wide line never holds more than about flushAt bytes in memory.
func (g *generator) appendWords(n int) {
	for j := 0; j < n; j++ {
		if j > 0 {
			g.out.buf = append(g.out.buf, ' ')
		}
		g.out.buf = append(g.out.buf, g.words.next()...)
		if len(g.out.buf) >= flushAt {
			if g.out.flush(); g.out.err != nil {
				return
			}
		}
	}
}

// appendWordsPast appends words separated by single spaces up to the first word
// end at or past n bytes of line, flushing as it goes. The line length is counted
// here rather than taken from the buffer, which flushes in the middle of a line.
func (g *generator) appendWordsPast(n int) {
	for length := 0; length < n && g.out.err == nil; {
		if length > 0 {
			g.out.buf = append(g.out.buf, ' ')
			length++
		}
		w := g.words.next()
		g.out.buf = append(g.out.buf, w...)
		length += len(w)
		if len(g.out.buf) >= flushAt {
			g.out.flush()
		}
	}
}

// mixedPhrases draws the word count of one mixed line: one line in eight is
// empty; otherwise the line has k doublings, each taken with probability 9/16
// up to MixedMaxDoublings, and its count is uniform in (p<<k/2, p<<k]. So
// P(length > x) falls like x^-0.83 (log2(16/9)), a discrete Pareto tail heavy
// enough that 10,000 lines reliably hold a few lines past 100 KiB. It uses
// integers only, so that no floating-point library can change the result.
func (g *generator) mixedPhrases(p int) int {
	r := g.rng.next()
	if r&7 == 0 {
		return 0
	}
	k := 0
	for y := r >> 3; k < MixedMaxDoublings && y&15 < 9; y >>= 4 {
		k++ // 61 bits hold 15 four-bit trials, more than the cap needs
	}
	hi := uint64(p) << k
	if uint64(p) > (1<<62)>>k { // a silly Phrases: saturate rather than wrap
		hi = 1 << 62
	}
	lo := hi / 2
	return int(lo + 1 + g.rng.below(hi-lo))
}

// hugeLine writes one line of exactly size bytes, its "\n" included: words
// separated by single spaces, the last one cut to fit. When a single byte is
// left before the "\n", it extends the last word by one letter rather than
// leaving a trailing space.
func (g *generator) hugeLine(size int64) {
	left := size - 1
	for first := true; left > 0 && g.out.err == nil; first = false {
		w := g.words.next()
		if !first {
			if left == 1 {
				g.out.buf = append(g.out.buf, w[0])
				break
			}
			g.out.buf = append(g.out.buf, ' ')
			left--
		}
		if int64(len(w)) > left {
			w = w[:left]
		}
		g.out.buf = append(g.out.buf, w...)
		left -= int64(len(w))
		if len(g.out.buf) >= flushAt {
			g.out.flush()
		}
	}
	g.out.buf = append(g.out.buf, '\n')
}

// binary writes exactly size uniformly random bytes, eight per draw in
// little-endian order: about one byte in 256 is a NUL and one in 256 a "\n",
// so lines average 256 bytes and lengths are geometric.
func (g *generator) binary(size int64) {
	var b [8]byte
	for left := size; left > 0 && g.out.err == nil; {
		binary.LittleEndian.PutUint64(b[:], g.rng.next())
		n := min(left, 8)
		g.out.buf = append(g.out.buf, b[:n]...)
		left -= n
		if len(g.out.buf) >= flushAt {
			g.out.flush()
		}
	}
}
