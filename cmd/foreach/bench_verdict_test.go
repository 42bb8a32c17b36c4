package main

import (
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/measure/contend"
)

func samplesOf(mbps ...float64) []sample {
	s := make([]sample, len(mbps))
	for i, v := range mbps {
		s[i].mbps = v
	}
	return s
}

// The comparison comes from the rounds' ratios: their median and range, and "no clear
// difference" exactly when the range includes 1.00.
func TestRatioVerdict(t *testing.T) {
	base := samplesOf(100, 100, 100)
	for _, tc := range []struct {
		a    []sample
		b    []sample
		want string
	}{
		{samplesOf(120, 130, 110), base, "1.20× [1.10–1.30] faster"},
		{samplesOf(80, 90, 70), base, "0.80× [0.70–0.90] slower"},
		{samplesOf(95, 130, 110), base, "1.10× [0.95–1.30] no clear difference"},
		{samplesOf(100, 120, 110), base, "1.10× [1.00–1.20] no clear difference"},
		// Paired by round: the same speeds against a baseline that moves with them.
		{samplesOf(120, 60, 90), samplesOf(100, 50, 75), "1.20× [1.20–1.20] faster"},
		{samplesOf(150), samplesOf(100), "1.50× [1.50–1.50] one round: no spread to judge by (use --runs)"},
		// The ratio of the medians (90/100 here) is not the comparison: the rounds' ratios are.
		{samplesOf(90, 300, 80), samplesOf(100, 100, 40), "2.00× [0.90–3.00] no clear difference"},
	} {
		vs := compare(tc.a, tc.b)
		if got := vs.ratio() + " " + vs.verdict(); got != tc.want {
			t.Errorf("compare(%v, %v) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// sameRecords compares each contender with the first that keeps or drops separators as
// it does: a contender whose records are cut one byte apart (same count, same length, other
// ends) is an error naming it, and the chomping contenders are not held to the bytes of
// the others.
func TestSameRecordsSeesRecordsShifted(t *testing.T) {
	keep := contend.Result{Records: 2, Bytes: 6, Ends: 'a' + '\n' + 'c' + '\n'}
	chomped := contend.Result{Records: 2, Bytes: 4, Ends: 'a' + 'b' + 'c' + 'd'}
	samples := make([][]sample, len(contenders))
	for i, c := range contenders {
		res := keep
		if c.Chomps {
			res = chomped
		}
		samples[i] = []sample{{res: res}}
	}
	if err := sameRecords(samples, 0); err != nil {
		t.Fatalf("agreeing contenders: %v", err)
	}
	last := len(contenders) - 1
	samples[last][0].res.Ends = 'a' + 'b' + '\n' + '\n' // "ab", "\ncd\n": cut one byte apart
	err := sameRecords(samples, 0)
	if err == nil || !strings.Contains(err.Error(), contenders[last].name) {
		t.Errorf("a shifted cut: err = %v, want one naming %q", err, contenders[last].name)
	}
}
