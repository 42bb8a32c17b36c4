package linereader

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// Count with Options.Multiline reads large inputs in parallel sections (countSections):
// the count is that of one sequential read, for every number of workers, with and
// without MaxLines, MaxRecord and a final separator.
func TestCountMultilineSections(t *testing.T) {
	withCountPolicy(t, countPolicy{minFile: 500, minSection: 97, readSize: 64})
	rng := rand.New(rand.NewPCG(45, 5))
	dir := t.TempDir()
	patterns := []*Multiline{
		{Start: regexp.MustCompile(`^S`)},
		{Continue: regexp.MustCompile(`^\s`)},
		{Start: regexp.MustCompile(`^S`), MaxLines: 3},
		{Start: regexp.MustCompile(`^Q`)}, // no line begins a record: one record
		{Continue: regexp.MustCompile(`^`), MaxLines: 2},
	}
	for i := range 40 {
		var b bytes.Buffer
		for range 50 + rng.IntN(400) {
			b.WriteString([]string{"S", " ", "x", "", "\t", "SS"}[rng.IntN(6)])
			b.WriteString("abc"[:rng.IntN(4)])
			b.WriteByte('\n')
		}
		in := b.Bytes()
		if i%2 == 0 {
			in = in[:len(in)-1]
		}
		name := filepath.Join(dir, "in")
		if err := os.WriteFile(name, in, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, m := range patterns {
			opt := Options{Multiline: m, BufferSize: 1 + rng.IntN(40)}
			if i%3 == 0 {
				opt.MaxRecord, opt.TooLong = 12, TooLongSkip
			}
			want := sequentialCount(t, in, opt)
			for _, workers := range []int{1, 2, 3, 7} {
				got, err := CountAt(bytes.NewReader(in), int64(len(in)), opt, workers)
				if err != nil || got != want {
					t.Fatalf("case %d %+v workers %d: CountAt %d, %v; want %d", i, m, workers, got, err, want)
				}
			}
			if got, err := Count(name, opt, 2); err != nil || got != want {
				t.Fatalf("case %d %+v: Count %d, %v; want %d", i, m, got, err, want)
			}
		}
	}
}
