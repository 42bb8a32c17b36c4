package main

import (
	"encoding/binary"
	"errors"
	"slices"
)

// The words leave a section as a few large elements, not one element per distinct word.
// A word is sent to one of wordShards shards by a hash of its bytes that every worker
// computes alike; a shard's tallies are merged by one worker, which keeps the shard's
// --top largest counts; top.Largest picks the job's among those. The result is exact: a
// word's every occurrence reaches its shard, and a word among the job's top is among its
// shard's top.
//
// One element per distinct word per section (a map emitted whole, then summed per key)
// made a runner hold every word of the vocabulary as an element of its own: over 200 MB of
// the Go distribution's sources, whose words are mostly distinct tokens, Prism took 5.2 GB
// and 44.5 s where a loop into one map takes 155 MB and 3.2 s.
const wordShards = 64

// flushWords is how many distinct words a section's tally holds before it is sent on and
// started again, so that a section's memory is bounded whatever its vocabulary. A variable
// for the tests, which make it small to flush often.
var flushWords = 1 << 16

// tally counts a section's words, and encodes them per shard for emitting.
type tally struct {
	counts map[string]int64 // the words since the last flush; at most flushWords keys
}

func newTally() *tally { return &tally{counts: map[string]int64{}} }

// add counts w, a borrowed slice (the map key is a copy), and flushes through emit when
// the tally is full.
func (t *tally) add(w []byte, emit func(int, []byte)) {
	t.counts[string(w)]++
	if len(t.counts) >= flushWords {
		t.flush(emit)
	}
}

// flush emits one element per shard that has words: the shard and its words encoded as
// uvarint(len) word uvarint(count), one after another. The tally is empty after.
func (t *tally) flush(emit func(int, []byte)) {
	var parts [wordShards][]byte
	for w, n := range t.counts {
		s := shardOf(w)
		parts[s] = binary.AppendUvarint(parts[s], uint64(len(w)))
		parts[s] = append(parts[s], w...)
		parts[s] = binary.AppendUvarint(parts[s], uint64(n))
	}
	for s, b := range parts {
		if len(b) > 0 {
			emit(s, b)
		}
	}
	clear(t.counts)
}

// shardOf is FNV-1a of w modulo wordShards: the same on every worker and machine, which
// hash/maphash, seeded per process, is not.
func shardOf(w string) int {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i])
		h *= 16777619
	}
	return int(h % wordShards)
}

var errTally = errors.New("foreach-beam: a tally of words is damaged")

// mergeTally adds the counts encoded in b to counts.
func mergeTally(b []byte, counts map[string]int64) error {
	for len(b) > 0 {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return errTally
		}
		w := b[k : k+int(l)]
		b = b[k+int(l):]
		n, k := binary.Uvarint(b)
		if k <= 0 {
			return errTally
		}
		b = b[k:]
		counts[string(w)] += int64(n)
	}
	return nil
}

// shardTopFn merges a shard's tallies and emits the shard's Top largest word counts.
type shardTopFn struct {
	Top int
}

func (f *shardTopFn) ProcessElement(_ int, tallies func(*[]byte) bool, emit func(wordCount)) error {
	counts := map[string]int64{}
	var b []byte
	for tallies(&b) {
		if err := mergeTally(b, counts); err != nil {
			return err
		}
	}
	all := make([]wordCount, 0, len(counts))
	for w, n := range counts {
		all = append(all, wordCount{w, n})
	}
	slices.SortFunc(all, compareWordCount)
	for _, wc := range all[:min(f.Top, len(all))] {
		emit(wc)
	}
	return nil
}
