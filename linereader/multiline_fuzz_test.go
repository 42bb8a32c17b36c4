package linereader_test

import (
	"math/rand/v2"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// FuzzMultiline checks records of many lines against the reference joiner
// (multiline_ref_test.go) on inputs the fuzzer makes: the input is the fuzzer's bytes, the
// options, iterator and source (read sizes, short reads) are drawn from its seed, so that
// every pattern, separator, MaxLines, MaxRecord and TooLong meets inputs no generator
// here would write.
func FuzzMultiline(f *testing.F) {
	f.Add([]byte("S 1\n at a\n at b\nS 2\n\nplain\n"), uint64(1))
	f.Add([]byte("x\r\n y\r\nz"), uint64(7))
	f.Add([]byte("\n\n\n"), uint64(3))
	f.Add([]byte("S a<>S b<> c<>"), uint64(11))
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		if len(in) > 4096 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 45))
		opt := randomMultilineOptions(rng)
		how := linereader.Iterators[rng.IntN(len(linereader.Iterators))]
		src, pattern := wrapSource(in, rng.IntN(6), seed)
		if d := checkJoined(in, opt, linereader.New(src, opt), how); d != "" {
			t.Fatalf("%s, source %s, input %q, options %s:\n%s", how, pattern, in, describeOptions(opt), d)
		}
	})
}
