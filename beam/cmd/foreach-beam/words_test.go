package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// TestTallyRoundTrip: the tallies a section emits, flushed often, carry every word to
// its own shard with its exact count, and a damaged tally is an error.
func TestTallyRoundTrip(t *testing.T) {
	defer func(n int) { flushWords = n }(flushWords)
	flushWords = 7
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string]int64{}
	got := map[string]int64{}
	var blobs [][]byte
	emit := func(s int, b []byte) {
		one := map[string]int64{}
		if err := mergeTally(b, one); err != nil {
			t.Fatalf("shard %d: %v", s, err)
		}
		for w := range one {
			if shardOf(w) != s {
				t.Errorf("%q emitted in shard %d, belongs to %d", w, s, shardOf(w))
			}
		}
		if err := mergeTally(b, got); err != nil {
			t.Fatal(err)
		}
		blobs = append(blobs, b)
	}
	tl := newTally()
	for range 5000 {
		w := fmt.Sprintf("w%d", rng.IntN(300))
		if rng.IntN(10) == 0 {
			w = strings.Repeat("x", 200+rng.IntN(200)) // a length of two uvarint bytes
		}
		want[w]++
		tl.add([]byte(w), emit)
	}
	tl.flush(emit)
	if len(got) != len(want) {
		t.Fatalf("%d words merged, want %d", len(got), len(want))
	}
	for w, n := range want {
		if got[w] != n {
			t.Errorf("%q: %d, want %d", w, got[w], n)
		}
	}
	if len(tl.counts) != 0 {
		t.Errorf("%d words left after the flush", len(tl.counts))
	}
	for _, b := range blobs[:20] {
		for cut := 1; cut < len(b); cut++ {
			err := mergeTally(b[:cut], map[string]int64{})
			if whole := endsAnEntry(b, cut); (err == nil) != whole {
				t.Errorf("a tally cut at %d of %d bytes (between entries: %v): %v", cut, len(b), whole, err)
			}
		}
	}
}

// endsAnEntry walks b's entries and says whether one of them ends at cut.
func endsAnEntry(b []byte, cut int) bool {
	for off := 0; off < len(b); {
		l, k := uvarint(b[off:])
		off += k + int(l)
		_, k = uvarint(b[off:])
		if off += k; off == cut {
			return true
		}
	}
	return false
}

func uvarint(b []byte) (uint64, int) {
	var x uint64
	for i, c := range b {
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return x, i + 1
		}
	}
	return 0, 0
}

// TestJobWordsFlushed: with tallies flushed every few words, and words of equal counts
// spread over every shard, the job's report is the reference's, ties in alphabetical
// order.
func TestJobWordsFlushed(t *testing.T) {
	defer func(n int) { flushWords = n }(flushWords)
	flushWords = 5
	dir, paths := corpusDir(t)
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "tie%03d tie%03d common\n", i, i) // 400 words of count 2
	}
	ties := filepath.Join(dir, "ties.txt")
	if err := os.WriteFile(ties, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, ties)
	for _, top := range []int{3, 40} {
		prefix := filepath.Join(t.TempDir(), fmt.Sprintf("top%d", top))
		code, _, stderr := runJob(t, "--input", filepath.Join(dir, "*.txt"), "--output", prefix,
			"--section-size", "2KiB", "--top", fmt.Sprint(top))
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
		_, words, _, _ := expected(t, paths, linereader.Options{}, top)
		if got := readFile(t, prefix+"-words.tsv"); got != words {
			t.Errorf("top %d: words report:\n%s\nwant:\n%s", top, got, words)
		}
	}
}
