package bytesize

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"
)

// The package replaces three functions of go-humanize in the command: on every input
// they must give what go-humanize gives (an error where it gives one).
func TestParseAsHumanize(t *testing.T) {
	cases := []string{
		"", "0", "1", "4096", "64KiB", "64 KiB", "64kib", "64 k", "1G", "1.5MB", "1,000", "1,0,0",
		".5k", "5.", "1.2.3", "12abc", " 12", "12 ", "1e3", "-1", "+1", "18446744073709551615",
		"18446744073709551616", "16EiB", "15EiB", "15.9EiB", "16 EB", "18.4467440737eb", "1٣", "٣",
		"1 K i B", "0x10", "NaN", "inf", "9,223,372,036,854,775,808", "1.0000000000000000001 b",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"0", "1", "5", "9", ".", ",", " ", "k", "K", "i", "b", "B", "m", "g", "t", "p", "e", "E", "x", "٣"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		got, err := Parse(s)
		want, werr := humanize.ParseBytes(s)
		if (err != nil) != (werr != nil) || got != want {
			t.Errorf("Parse(%q) = %d, %v; go-humanize: %d, %v", s, got, err, want, werr)
		}
	}
}

func TestIECAsHumanize(t *testing.T) {
	ns := []uint64{0, 1, 9, 10, 99, 100, 1023, 1024, 1025, 1536, 10188, 10189, 10239, 10240, 102348, 1 << 20,
		1<<20 - 1, 82854982, 123456789, 1 << 40, 1<<63 - 1, 1 << 63, math.MaxUint64}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		ns = append(ns, rng.Uint64()>>rng.IntN(64))
	}
	for _, n := range ns {
		if got, want := IEC(n), humanize.IBytes(n); got != want {
			t.Errorf("IEC(%d) = %q, go-humanize %q", n, got, want)
		}
	}
}

func TestCommaAsHumanize(t *testing.T) {
	ns := []int64{0, 7, 8, -1, -8, 999, 1000, -1000, 999999, 1000000, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		n := rng.Int64() >> rng.IntN(64)
		if rng.IntN(2) == 0 {
			n = -n
		}
		ns = append(ns, n)
	}
	for _, n := range ns {
		if got, want := Comma(n), humanize.Comma(n); got != want {
			t.Errorf("Comma(%d) = %q, go-humanize %q", n, got, want)
		}
	}
	if got := Comma(1234567); got != "1,234,567" {
		t.Errorf("Comma(1234567) = %q", got)
	}
	if got := strconv.Itoa(len(Comma(math.MinInt64))); got != "26" {
		t.Errorf("Comma(MinInt64) has %s bytes", got)
	}
}
