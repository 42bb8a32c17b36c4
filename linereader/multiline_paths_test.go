package linereader_test

// Options.Multiline on the paths that do not read forward from the start: sections at
// every offset, reading from the end (NewBackward, NewTail, TailStart), Count in
// parallel sections, compressed input; each against the reference joiner.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// sectionRecords reads the sections of in cut at cuts (ascending, inside (0, len(in)))
// with Views and returns their records in order, each section's line numbers checked to
// count from 1 (but for skipped records, which count too).
func sectionRecords(in []byte, opt linereader.Options, cuts []int64) ([]linereader.Seen, error) {
	bounds := append(append([]int64{0}, cuts...), int64(len(in)))
	var all []linereader.Seen
	for i := 0; i+1 < len(bounds); i++ {
		r := linereader.NewSection(bytes.NewReader(in), bounds[i], bounds[i+1], opt)
		got, err := linereader.ReadAll(r, "Views")
		if err != nil {
			return all, fmt.Errorf("section [%d, %d): %w", bounds[i], bounds[i+1], err)
		}
		skips := opt.MaxRecord > 0 && opt.TooLong == linereader.TooLongSkip // skipped records count
		for k, g := range got {
			if g.LineNo != int64(k+1) && !skips {
				return all, fmt.Errorf("section [%d, %d): record %d has LineNo %d", bounds[i], bounds[i+1], k, g.LineNo)
			}
			g.LineNo = 0
			all = append(all, g)
		}
	}
	return all, nil
}

// withoutLineNo returns the records with LineNo zeroed: sections count their own.
func withoutLineNo(s []linereader.Seen) []linereader.Seen {
	out := make([]linereader.Seen, len(s))
	for i, x := range s {
		x.LineNo = 0
		out[i] = x
	}
	return out
}

// splittableMultiline returns random options for sections and reading from the end
// (every separator of mlSeps is splittable) without TooLongStop, whose error ends a
// sequential read where later sections go on.
func splittableMultiline(rng *rand.Rand) linereader.Options {
	opt := randomMultilineOptions(rng)
	if opt.TooLong == linereader.TooLongStop {
		opt.MaxRecord = 0
	}
	return opt
}

// Sections cut at every offset, in two and in three, give the records of one read.
func TestMultilineSectionsEveryOffset(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 2))
	n := 250
	if testing.Short() {
		n = 60
	}
	for i := range n {
		opt := splittableMultiline(rng)
		in := randomMultiline(rng, rng.IntN(10), string(opt.Sep))
		want, _ := refJoin(in, opt)
		want = withoutLineNo(want)
		for k := int64(1); k < int64(len(in)); k++ {
			cuts := []int64{k}
			if rng.IntN(2) == 0 && k+1 < int64(len(in)) {
				cuts = append(cuts, k+1+rng.Int64N(int64(len(in))-k-1))
			}
			got, err := sectionRecords(in, opt, cuts)
			if err != nil {
				t.Fatalf("case %d: input %q options %s cuts %v: %v", i, in, describeOptions(opt), cuts, err)
			}
			if d := diffSeen(want, got); d != "" {
				t.Fatalf("case %d: input %q options %s cuts %v:\n%s", i, in, describeOptions(opt), cuts, d)
			}
		}
	}
}

// A section inside one long record of many lines reads about its own bytes, not on to
// the record's end, and yields nothing.
func TestMultilineSectionInsideRecord(t *testing.T) {
	in := "S\n" + strings.Repeat(" continuation line\n", 100000) + "S end\n"
	r := linereader.NewSection(strings.NewReader(in), 1<<20, 1<<20+1000, linereader.Options{Multiline: start(`^S`), BufferSize: 4096})
	got, err := linereader.ReadAll(r, "Views")
	if len(got) != 0 || err != nil {
		t.Fatalf("%v, %v", got, err)
	}
	if b := r.Stats().Reads; b > 4 {
		t.Fatalf("%d reads of 4 KiB for a section of 1000 bytes", b)
	}
}

// With MaxLines, a section whose first line is no anchor reads back to the last anchor
// to count; the records are still those of one read.
func TestMultilineSectionMaxLinesReadsBack(t *testing.T) {
	opt := linereader.Options{Multiline: &linereader.Multiline{Start: regexp.MustCompile(`^S`), MaxLines: 3}}
	in := []byte("x\nS\na\nb\nc\nd\ne\nf\ng\nS\nh\n")
	want, _ := refJoin(in, opt)
	for k := int64(1); k < int64(len(in)); k++ {
		got, err := sectionRecords(in, opt, []int64{k})
		if err != nil {
			t.Fatal(err)
		}
		if d := diffSeen(withoutLineNo(want), got); d != "" {
			t.Fatalf("cut at %d: %s", k, d)
		}
	}
}

// reversed returns s last first, LineNo counting from 1 as a backward Reader's does.
func reversed(s []linereader.Seen) []linereader.Seen {
	out := make([]linereader.Seen, len(s))
	for i, x := range s {
		x.LineNo = int64(len(s) - i)
		out[len(s)-1-i] = x
	}
	return out
}

// NewBackward yields the records of one forward read, last first, through every
// iterator.
func TestMultilineBackward(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 3))
	n := 1200
	if testing.Short() {
		n = 300
	}
	for i := range n {
		opt := splittableMultiline(rng)
		in := randomMultiline(rng, rng.IntN(12), string(opt.Sep))
		want, _ := refJoin(in, opt)
		how := linereader.Iterators[i%len(linereader.Iterators)]
		r := linereader.NewBackward(bytes.NewReader(in), int64(len(in)), opt)
		got, err := linereader.ReadAtMost(r, how, 4*len(in)+8)
		if how == "Pieces" || how == "Runs" {
			got = linereader.Joined(got)
		}
		if err != nil {
			t.Fatalf("case %d %s: input %q options %s: %v", i, how, in, describeOptions(opt), err)
		}
		if d := diffSeen(reversed(want), got); d != "" {
			t.Fatalf("case %d %s: input %q options %s:\n%s", i, how, in, describeOptions(opt), d)
		}
	}
}

// NewTail and TailStart: the last n records, for every n.
func TestMultilineTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 4))
	n := 300
	if testing.Short() {
		n = 80
	}
	for i := range n {
		opt := splittableMultiline(rng)
		in := randomMultiline(rng, rng.IntN(12), string(opt.Sep))
		all := opt
		all.TooLong = linereader.TooLongCut // every record counts among the last n, one skipped too
		every, _ := refJoin(in, all)
		want, _ := refJoin(in, opt)
		for k := 0; k <= len(every)+1; k++ {
			from := int64(len(in))
			if k > 0 && len(every) > 0 {
				from = every[max(0, len(every)-k)].Off
			}
			var tail []linereader.Seen
			for _, w := range want {
				if w.Off >= from {
					w.LineNo = 0
					tail = append(tail, w)
				}
			}
			got, err := linereader.ReadAll(linereader.NewTail(bytes.NewReader(in), int64(len(in)), k, opt), "Views")
			if err != nil {
				t.Fatalf("case %d tail %d: input %q options %s: %v", i, k, in, describeOptions(opt), err)
			}
			if d := diffSeen(tail, withoutLineNo(got)); d != "" {
				t.Fatalf("case %d tail %d: input %q options %s:\n%s", i, k, in, describeOptions(opt), d)
			}
			if s, err := linereader.TailStart(bytes.NewReader(in), int64(len(in)), k, opt); s != from || err != nil {
				t.Fatalf("case %d: TailStart(%d) = %d, %v, want %d", i, k, s, err, from)
			}
		}
	}
}

// Compressed input, decompressed as it is read, gives the records of the text.
func TestMultilineCompressed(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 6))
	for i := range 100 {
		opt := randomMultilineOptions(rng)
		opt.Decompress = true
		in := randomMultiline(rng, rng.IntN(30), string(opt.Sep))
		how := linereader.Iterators[i%len(linereader.Iterators)]
		r := linereader.New(bytes.NewReader(linereader.Gzipped(t, in)), opt)
		if d := checkJoined(in, opt, r, how); d != "" {
			t.Fatalf("case %d %s: input %q options %s:\n%s", i, how, in, describeOptions(opt), d)
		}
	}
}
