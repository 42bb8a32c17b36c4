package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func testBar(total int64) (*bar, *bytes.Buffer, *fakeClock) {
	var out bytes.Buffer
	clock := &fakeClock{time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	b := &bar{w: &out, total: total, now: clock.now}
	b.start, b.last = clock.now(), clock.now()
	return b, &out, clock
}

// The bar shows the input, the share done, the bytes of the total, the rate and the
// time left; it is redrawn at most every barEvery, in place, and a shorter line covers
// the longer one before it.
func TestBarDrawsInPlaceAtMostEveryPeriod(t *testing.T) {
	b, out, clock := testBar(4 << 20)
	b.Describe("big.log")
	clock.t = clock.t.Add(time.Second)
	b.Add64(1 << 20)
	want := "\rforeach: big.log  25% [=======                       ] 1.0 MiB / 4.0 MiB  1.0 MiB/s  3s left"
	if got := out.String(); got != want {
		t.Fatalf("first draw %q, want %q", got, want)
	}
	out.Reset()
	clock.t = clock.t.Add(barEvery / 2)
	b.Add64(1 << 20)
	if out.Len() != 0 {
		t.Fatalf("drawn again within %v: %q", barEvery, out.String())
	}
	clock.t = clock.t.Add(barEvery)
	b.Describe("b")
	b.Add64(2 << 20)
	line := "foreach: b 100% [==============================] 4.0 MiB / 4.0 MiB  3.5 MiB/s"
	pad := strings.Repeat(" ", len(want)-1-len(line))
	if got := out.String(); got != "\r"+line+pad {
		t.Fatalf("second draw %q, want %q", got, "\r"+line+pad)
	}
	out.Reset()
	b.Clear()
	if got := out.String(); got != "\r"+strings.Repeat(" ", len(line))+"\r" {
		t.Fatalf("Clear wrote %q", got)
	}
	out.Reset()
	b.Clear()
	if out.Len() != 0 {
		t.Fatalf("Clear of a cleared bar wrote %q", out.String())
	}
}

// With an unknown total (a pipe), the bar shows the bytes read and the rate.
func TestBarUnknownTotal(t *testing.T) {
	b, out, clock := testBar(-1)
	clock.t = clock.t.Add(barEvery / 2)
	b.Add64(1)
	if out.Len() != 0 {
		t.Fatalf("drawn within %v of the start: %q", barEvery, out.String())
	}
	clock.t = clock.t.Add(2 * time.Second)
	b.Add64(3<<30 - 1)
	if got, want := out.String(), "\rforeach  3.0 GiB  1.5 GiB/s"; got != want {
		t.Fatalf("drew %q, want %q", got, want)
	}
}
