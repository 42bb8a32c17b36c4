package linereader_test

// FuzzReader compares the engine with the reference splitter on arbitrary input, options and
// read patterns. Crashers found by `go test -fuzz=FuzzReader ./linereader/` belong in
// testdata/fuzz/FuzzReader/, where plain `go test` replays them.

import (
	"testing"
	"time"
)

// The option bits: bits 0-3 pick the separator (diffSeps, modulo its length), bit 4 Chomp,
// bit 5 UTF8, bits 8-10 the read pattern.
func FuzzReader(f *testing.F) {
	seeds := []struct {
		in      string
		bits    uint16
		limit   uint8
		bufSize uint8
	}{
		{"a\nb", 0, 0, 0},
		{"aaaaa", 4, 0, 1},
		{"ababababa", 5, 0, 2},
		{"\n\n\n", 0, 0, 1},
		{"\n\n\na\n\n\n\nb\n", 9, 0, 3},
		{"a\n\n\nb\n", 9 | 1<<4, 0, 1},
		{"xxabyyab", 3, 3, 1},
		{"a\xE3\x81bcd", 1 << 5, 2, 1},
		{"a\xE3\nb\n", 1<<4 | 1<<5, 2, 2},
		{"x\r\r\n", 1 << 4, 0, 1},
		{"abcdef\nxy\n", 0, 4, 3},
		{"abc", 0, 3, 1},
		{"ab\xFFcd\xFF", 10, 2, 1},
		{"a\r\nb\r\n", 6 | 1<<4 | 1<<8, 0, 1},
		{"\xF0\x9F\x98\x80\xE3\x81\x82", 1<<5 | 2<<8, 1, 2},
		{"aba\nabc\n\n", 8 | 4<<8, 5, 3},
	}
	for _, s := range seeds {
		f.Add([]byte(s.in), s.bits, s.limit, s.bufSize)
	}
	f.Fuzz(func(t *testing.T, in []byte, bits uint16, limit uint8, bufSize uint8) {
		if len(in) > 1<<10 {
			return
		}
		opt := optionsFor(int(bits&15), int(limit%17), bits&(1<<4) != 0, bits&(1<<5) != 0, int(bufSize%70))
		src, pattern := wrapSource(in, int(bits>>8&7), uint64(bits))
		// The goroutine and its generous deadline turn a hang (a Next that never returns)
		// into a failure the fuzzer records, instead of a worker it silently waits on.
		done := make(chan string, 1)
		go func() { done <- checkAgainstReference(in, opt, src) }()
		select {
		case diff := <-done:
			if diff != "" {
				t.Errorf("input %q options %s source %s:\n%s", in, describeOptions(opt), pattern, diff)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("hang: input %q options %s source %s: no result after 20s", in, describeOptions(opt), pattern)
		}
	})
}
