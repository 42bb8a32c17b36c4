package cputime

import (
	"runtime"
	"testing"
)

// CPU time never goes back, and spinning for a while moves it forward.
func TestNowMovesWithWork(t *testing.T) {
	t0, ok := Now()
	if !ok {
		if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
			t.Fatalf("no CPU time on %s", runtime.GOOS)
		}
		t.Skip("no CPU time on this platform")
	}
	x := uint64(1)
	for t1 := t0; t1-t0 < 20e6; t1, _ = Now() {
		for range 1 << 16 {
			x = x*6364136223846793005 + 1
		}
	}
	if t1, _ := Now(); t1 < t0 {
		t.Fatalf("CPU time went back: %v then %v", t0, t1)
	}
	_ = x
}
