package linereader_test

// Randomized differential test: thousands of short inputs over a small adversarial alphabet,
// random valid options, buffer sizes and read patterns, each compared record by record (bytes,
// LineNo, Offset) and in Stats against the reference splitter. The seeds are fixed so that
// every failure reproduces; one extra seed from the clock is logged to widen coverage.

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/iotest"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// diffAlphabet: separator bytes, CR, UTF-8 lead and continuation bytes, an invalid byte.
const diffAlphabet = "ab\n\r\xE3\x81\x82\xFF "

// diffSeps: nil is the default separator; "" stands for Paragraph, "whole" for Whole.
var diffSeps = []string{"default", "\n", "b", "ab", "aa", "aba", "\r\n", "\n\n", "abc", "paragraph", "whole"}

var diffBufferSizes = []int{1, 2, 3, 4, 5, 7, 8, 16, 64, 0}

func optionsFor(sepIdx int, limit int, chomp, utf bool, bufSize int) linereader.Options {
	opt := linereader.Options{Limit: limit, Chomp: chomp, UTF8: utf, BufferSize: bufSize}
	switch s := diffSeps[sepIdx%len(diffSeps)]; s {
	case "default":
	case "paragraph":
		opt.Paragraph = true
	case "whole":
		opt.Whole = true
	default:
		opt.Sep = []byte(s)
	}
	return opt
}

// wrapSource applies one of the read patterns, chosen by k.
func wrapSource(in []byte, k int, seed uint64) (io.Reader, string) {
	switch k % 6 {
	case 0:
		return bytes.NewReader(in), "plain"
	case 1:
		return iotest.OneByteReader(bytes.NewReader(in)), "OneByteReader"
	case 2:
		return iotest.HalfReader(bytes.NewReader(in)), "HalfReader"
	case 3:
		return iotest.DataErrReader(bytes.NewReader(in)), "DataErrReader"
	case 4:
		return &randomReader{r: bytes.NewReader(in), rng: rand.New(rand.NewPCG(seed, 1)), max: 4}, "random short reads"
	default:
		return &dataErrReader{data: string(in), err: io.EOF}, "data with EOF"
	}
}

// checkAgainstReference runs the engine over in and returns a description of the first
// difference from the reference, or "" if there is none.
func checkAgainstReference(in []byte, opt linereader.Options, src io.Reader) string {
	want := refSplit(in, opt)
	r := linereader.New(src, opt)
	got, err := linereader.ReadAtMost(r, "Next", runawayCap(in))
	if err != nil {
		return fmt.Sprintf("Err() = %v after %d records %v", err, len(got), got)
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("record %d missing: want %v\n all got  %v\n all want %v", i, want[i], got, want)
		case i >= len(want):
			return fmt.Sprintf("extra record %d: got %v\n all got  %v\n all want %v", i, got[i], got, want)
		case got[i] != want[i]:
			return fmt.Sprintf("record %d: got %v, want %v\n all got  %v\n all want %v", i, got[i], want[i], got, want)
		}
	}
	st := r.Stats()
	if st.Records != int64(len(want)) {
		return fmt.Sprintf("Stats.Records = %d, want %d", st.Records, len(want))
	}
	if st.Bytes != int64(len(in)) {
		return fmt.Sprintf("Stats.Bytes = %d, want %d", st.Bytes, len(in))
	}
	if st.MaxRecord != refMaxRecord(want) {
		return fmt.Sprintf("Stats.MaxRecord = %d, want %d", st.MaxRecord, refMaxRecord(want))
	}
	// Losslessness, checked on the engine's own output as well.
	if !opt.Chomp && !opt.Paragraph {
		var cat []byte
		for _, g := range got {
			cat = append(cat, g.Rec...)
		}
		if !bytes.Equal(cat, in) {
			return fmt.Sprintf("records concatenate to %q, not the input", cat)
		}
	}
	return ""
}

func runDifferential(t *testing.T, seed uint64, n int) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	failures := 0
	for i := range n {
		in := linereader.RandomOver(rng, diffAlphabet, rng.IntN(33))
		opt := optionsFor(rng.IntN(len(diffSeps)), rng.IntN(10), rng.IntN(2) == 0, rng.IntN(2) == 0,
			diffBufferSizes[rng.IntN(len(diffBufferSizes))])
		src, pattern := wrapSource(in, rng.IntN(6), seed+uint64(i))

		// The reference is lossless by construction; check it, so a reference bug shows as one.
		if !opt.Chomp && !opt.Paragraph {
			var cat []byte
			for _, r := range refSplit(in, opt) {
				cat = append(cat, r.Rec...)
			}
			if !bytes.Equal(cat, in) {
				t.Fatalf("seed %d case %d: reference not lossless on %q %s", seed, i, in, describeOptions(opt))
			}
		}
		if diff := checkAgainstReference(in, opt, src); diff != "" {
			t.Errorf("seed %d case %d: input %q options %s source %s:\n%s", seed, i, in, describeOptions(opt), pattern, diff)
			if failures++; failures >= 5 {
				t.Fatalf("seed %d: stopping after %d failures", seed, failures)
			}
		}
	}
}

func TestDifferentialRandom(t *testing.T) {
	seeds := []uint64{1, 2, 3, 42, 1729}
	clock := uint64(time.Now().UnixNano())
	t.Logf("extra seed from the clock: %d (rerun with it by adding it to the list)", clock)
	seeds = append(seeds, clock)
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { runDifferential(t, seed, n) })
	}
}

// Every option combination over every input of length 0..4 from a smaller alphabet: no
// sampling, so nothing small is missed.
func TestDifferentialExhaustiveSmall(t *testing.T) {
	alphabet := []byte{'a', 'b', '\n', '\r', 0xE3, 0x81}
	var inputs [][]byte
	var gen func(prefix []byte)
	gen = func(prefix []byte) {
		inputs = append(inputs, slices.Clone(prefix))
		if len(prefix) == 4 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix, c))
		}
	}
	gen(nil)
	failures := 0
	for sepIdx := range diffSeps {
		for limit := range 5 {
			for flags := range 4 {
				opt := optionsFor(sepIdx, limit, flags&1 != 0, flags&2 != 0, 1+limit%3)
				for _, in := range inputs {
					if diff := checkAgainstReference(in, opt, iotest.OneByteReader(bytes.NewReader(in))); diff != "" {
						t.Errorf("input %q options %s:\n%s", in, describeOptions(opt), diff)
						if failures++; failures >= 10 {
							t.Fatal("stopping after 10 failures")
						}
					}
				}
			}
		}
	}
}
