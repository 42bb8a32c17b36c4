package linereader_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// readyAgainstReads steps r to its end and checks Ready before every Next against the
// source's reads (Stats.Reads): Ready true means Next does not read; with exact set,
// Ready false also means that it does. It returns a description of the first mismatch.
func readyAgainstReads(r *linereader.Reader, exact bool) string {
	for step := 0; ; step++ {
		ready, reads := r.Ready(), r.Stats().Reads
		more := r.Next()
		read := r.Stats().Reads > reads
		if ready && read {
			return fmt.Sprintf("Ready reported true and Next read, at step %d", step)
		}
		if exact && !ready && !read {
			return fmt.Sprintf("Ready reported false and Next did not read, at step %d", step)
		}
		if !more {
			return ""
		}
	}
}

// Ready against the reads Next makes, for random inputs, every separator kind, limits,
// buffer sizes and read patterns: never true before a read, and never false without one
// where it is documented to be exact.
func TestReadyNeverBeforeARead(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 3))
	for i := range 3000 {
		in := linereader.RandomOver(rng, diffAlphabet, rng.IntN(60))
		limit := 0
		if rng.IntN(3) == 0 {
			limit = 1 + rng.IntN(6)
		}
		opt := optionsFor(rng.IntN(100), limit, rng.IntN(2) == 0, rng.IntN(2) == 0, diffBufferSizes[rng.IntN(len(diffBufferSizes))])
		src, how := wrapSource(in, i, uint64(i))
		r := linereader.New(src, opt)
		// Exact where a record's end is a matter of the buffered bytes alone: no UTF8
		// extension of a Limit cut, and a buffer that holds every record whole.
		exact := !opt.UTF8 && opt.BufferSize == 0
		if msg := readyAgainstReads(r, exact); msg != "" {
			t.Fatalf("case %d (%q, %+v, %s): %s", i, in, opt, how, msg)
		}
	}
}

// Sections: Ready is never true before a read, at a section's start, inside it, or
// past its end.
func TestReadyInSections(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 4))
	for i := range 500 {
		in := linereader.RandomOver(rng, "ab\n;", 20+rng.IntN(200))
		opt := linereader.Options{BufferSize: 1 + rng.IntN(16)}
		for _, sp := range linereader.Partition(int64(len(in)), 1+rng.IntN(5)) {
			r := linereader.NewSection(bytes.NewReader(in), sp.Start, sp.End, opt)
			if msg := readyAgainstReads(r, false); msg != "" {
				t.Fatalf("case %d (%q, %+v, %v): %s", i, in, opt, sp, msg)
			}
		}
	}
}

// The cases Ready exists for: records that are buffered are reported ready, the
// unterminated rest of what was read is not, and the end of the input is.
func TestReadyOverAPipeThatPauses(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte("one\ntwo\nthr"))
		pw.Write([]byte("ee\n"))
		pw.Close()
	}()
	r := linereader.New(pr, linereader.Options{})
	var got []string
	var ready []bool
	for {
		ready = append(ready, r.Ready())
		if !r.Next() {
			break
		}
		got = append(got, r.Text())
	}
	if strings.Join(got, "") != "one\ntwo\nthree\n" {
		t.Fatalf("records %q", got)
	}
	// Before "one": nothing read. Before "two": buffered. Before "three": "thr" only.
	// Before the end: the pipe has not said EOF yet.
	want := []bool{false, true, false, false}
	for k := range want {
		if ready[k] != want[k] {
			t.Fatalf("Ready before record %d is %v, want %v (all: %v)", k, ready[k], want[k], ready)
		}
	}
	if !r.Ready() {
		t.Fatal("Ready after the end of iteration is false")
	}
}
