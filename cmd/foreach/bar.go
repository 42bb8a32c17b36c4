package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/foreachio/foreach/internal/bytesize"
)

// barEvery is how often the bar is redrawn at most: often enough to look alive, seldom
// enough that drawing costs nothing beside the reading.
const barEvery = 100 * time.Millisecond

// barWidth is the width of the bar's gauge, in cells.
const barWidth = 30

// bar is the progress bar on standard error: one line, redrawn in place, naming the input
// being read, with the bytes read of the total, the rate and the time left (with an
// unknown total, the bytes and the rate). It is written by hand rather than taken from a
// library: the one used before brought net/http and crypto/tls into the command, a
// quarter of its size and of its start-up, which a tree of small files pays per process.
// Invariants (under mu): done counts the bytes added since start; shown is the width of
// the line on the terminal now (0: none).
type bar struct {
	mu    sync.Mutex // Add may come from any goroutine
	w     io.Writer
	total int64 // -1: unknown
	done  int64
	name  string
	start time.Time
	last  time.Time // the last draw, or start
	shown int
	now   func() time.Time
}

func newBar(w io.Writer, total int64) *bar {
	b := &bar{w: w, total: total, now: time.Now}
	b.start = b.now()
	b.last = b.start // the first draw waits a period, for a rate worth showing
	return b
}

// Add64 counts n more bytes read, and redraws if the last draw is barEvery old.
func (b *bar) Add64(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += n
	if t := b.now(); t.Sub(b.last) >= barEvery {
		b.draw(t)
	}
}

// Describe names the input being read.
func (b *bar) Describe(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.name = name
}

// Finish draws the bar as it ends, then clears it: the last state is seen, if only for
// an instant, however short the run.
func (b *bar) Finish() {
	b.mu.Lock()
	b.draw(b.now())
	b.mu.Unlock()
	b.Clear()
}

// Clear erases the line, so that a message or the end leaves nothing behind; the next
// Add64 draws it again.
func (b *bar) Clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.shown > 0 {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", b.shown))
		b.shown = 0
		b.last = time.Time{}
	}
}

// draw writes the line at t (called with mu held).
func (b *bar) draw(t time.Time) {
	line := b.line(t)
	pad := ""
	if len(line) < b.shown {
		pad = strings.Repeat(" ", b.shown-len(line))
	}
	fmt.Fprintf(b.w, "\r%s%s", line, pad)
	b.shown, b.last = len(line), t
}

// line is what the bar shows at t.
func (b *bar) line(t time.Time) string {
	elapsed := t.Sub(b.start).Seconds()
	rate := ""
	if elapsed > 0 {
		rate = bytesize.IEC(uint64(float64(b.done)/elapsed)) + "/s"
	}
	head := "foreach"
	if b.name != "" {
		head += ": " + b.name
	}
	if b.total < 0 {
		return fmt.Sprintf("%s  %s  %s", head, bytesize.IEC(uint64(b.done)), rate)
	}
	frac := 1.0
	if b.total > 0 {
		frac = min(1, float64(b.done)/float64(b.total))
	}
	cells := int(frac * barWidth)
	gauge := strings.Repeat("=", cells) + strings.Repeat(" ", barWidth-cells)
	left := ""
	if b.done > 0 && b.done < b.total && elapsed > 0 {
		rest := time.Duration(float64(b.total-b.done) / (float64(b.done) / elapsed) * float64(time.Second))
		left = "  " + rest.Round(time.Second).String() + " left"
	}
	return fmt.Sprintf("%s %3d%% [%s] %s / %s  %s%s", head, int(frac*100), gauge,
		bytesize.IEC(uint64(b.done)), bytesize.IEC(uint64(b.total)), rate, left)
}
