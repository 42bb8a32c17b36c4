package main

import "testing"

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

// touch sums the first and last byte of every record, so that two contenders whose
// records have the same count and total length but are cut one byte apart disagree.
func TestTouchSeesRecordsShifted(t *testing.T) {
	var a, b result
	for _, rec := range []string{"ab\n", "cd\n"} {
		touch(&a, []byte(rec))
	}
	for _, rec := range []string{"ab", "\ncd\n"} {
		touch(&b, []byte(rec))
	}
	if a.records != b.records || a.bytes != b.bytes {
		t.Fatalf("the two cuts should agree on counts: %+v %+v", a, b)
	}
	if a.ends == b.ends {
		t.Errorf("records cut one byte apart give the same ends sum %d", a.ends)
	}
}
