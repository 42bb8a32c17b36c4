package bytelist_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/foreachio/foreach/bytelist"
)

// piece is the size of the read-sized steps in which a line arrives: each line is
// appended in writes of piece bytes (the last one shorter), or whole when shorter.
const piece = 128

// lineSizes are the line lengths the AppendLine benchmarks measure.
var lineSizes = []struct {
	name string
	n    int
}{
	{"16B", 16},
	{"1KiB", 1 << 10},
	{"1MiB", 1 << 20},
}

// makeLine returns a line of n bytes: printable text ending in a newline.
func makeLine(n int) []byte {
	line := make([]byte, n)
	for i := range line {
		line[i] = 'a' + byte(i%26)
	}
	line[n-1] = '\n'
	return line
}

// naiveAppend is the pattern this project replaces (JRuby's old IO.foreach): it appends p
// to buf, which started empty (nil) for this line, and when p does not fit it replaces
// buf by a copy with capacity cap*3/2+1, or the needed size if more, counting the growth
// in *grows.
func naiveAppend(buf, p []byte, grows *int) []byte {
	if need := len(buf) + len(p); need > cap(buf) {
		grown := make([]byte, len(buf), max(cap(buf)*3/2+1, need))
		copy(grown, buf)
		buf = grown
		*grows++
	}
	return append(buf, p...)
}

// naiveSink keeps each naive line alive past its iteration, as a caller handed the line
// would, so that the compiler cannot place the buffer on the stack.
var naiveSink []byte

// BenchmarkAppendLine appends one line per op, in piece-sized writes, with a soft reset
// between lines: a reused ByteList, a reused bytes.Buffer, and a fresh naive buffer per
// line. Compare with: benchstat -col /impl.
func BenchmarkAppendLine(b *testing.B) {
	for _, size := range lineSizes {
		line := makeLine(size.n)
		b.Run("size="+size.name+"/impl=ByteList", func(b *testing.B) {
			l := bytelist.New(0)
			before := l.Stats().Grows
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				l.Reset()
				for off := 0; off < len(line); off += piece {
					l.Write(line[off:min(off+piece, len(line))])
				}
			}
			if !bytes.Equal(l.Bytes(), line) {
				b.Fatalf("ByteList holds %d bytes, want the %d-byte line", l.Len(), len(line))
			}
			b.ReportMetric(float64(l.Stats().Grows-before)/float64(b.N), "growths/line")
		})
		b.Run("size="+size.name+"/impl=bytes.Buffer", func(b *testing.B) {
			var buf bytes.Buffer
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				for off := 0; off < len(line); off += piece {
					buf.Write(line[off:min(off+piece, len(line))])
				}
			}
			if !bytes.Equal(buf.Bytes(), line) {
				b.Fatalf("bytes.Buffer holds %d bytes, want the %d-byte line", buf.Len(), len(line))
			}
		})
		b.Run("size="+size.name+"/impl=Naive", func(b *testing.B) {
			grows := 0
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				var buf []byte // every line starts empty
				for off := 0; off < len(line); off += piece {
					buf = naiveAppend(buf, line[off:min(off+piece, len(line))], &grows)
				}
				naiveSink = buf
			}
			if !bytes.Equal(naiveSink, line) {
				b.Fatalf("naive buffer holds %d bytes, want the %d-byte line", len(naiveSink), len(line))
			}
			b.ReportMetric(float64(grows)/float64(b.N), "growths/line")
		})
	}
}

// naiveGrowsFor1MiB is how many growths naiveAppend makes for one 1 MiB line arriving
// in piece-sized writes: capacity 0 -> 128 (the first piece), 256, 385, 578, ..., 856663,
// 1284995.
const naiveGrowsFor1MiB = 23

// TestAppendLineGrowths pins the growth behaviour BenchmarkAppendLine relies on, for a
// 1 MiB line appended in piece-sized writes.
func TestAppendLineGrowths(t *testing.T) {
	line := makeLine(1 << 20)

	// ByteList, fresh: geometric growth from empty needs at most
	// ceil(log2(1 MiB / minCap)) + 1 growths.
	l := bytelist.New(0)
	for off := 0; off < len(line); off += piece {
		l.Write(line[off:min(off+piece, len(line))])
	}
	if !bytes.Equal(l.Bytes(), line) {
		t.Fatalf("fresh ByteList holds %d bytes, want the %d-byte line", l.Len(), len(line))
	}
	fresh := l.Stats().Grows
	bound := int(math.Ceil(math.Log2(float64(len(line))/64))) + 1
	if fresh < 1 || fresh > bound {
		t.Errorf("fresh ByteList: %d growths for a 1 MiB line, want 1..%d", fresh, bound)
	}

	// ByteList, reused after Reset: the capacity is kept, so no growth at all.
	capBefore := l.Cap()
	l.Reset()
	for off := 0; off < len(line); off += piece {
		l.Write(line[off:min(off+piece, len(line))])
	}
	if !bytes.Equal(l.Bytes(), line) {
		t.Fatalf("reused ByteList holds %d bytes, want the %d-byte line", l.Len(), len(line))
	}
	if reused := l.Stats().Grows - fresh; reused != 0 || l.Cap() != capBefore {
		t.Errorf("reused ByteList: %d growths (cap %d -> %d), want 0 and the same capacity", reused, capBefore, l.Cap())
	}

	// Naive: count what naiveAppend does and what the 1.5x rule predicts.
	var buf []byte
	naive := 0
	for off := 0; off < len(line); off += piece {
		buf = naiveAppend(buf, line[off:min(off+piece, len(line))], &naive)
	}
	if !bytes.Equal(buf, line) {
		t.Fatalf("naive buffer holds %d bytes, want the %d-byte line", len(buf), len(line))
	}
	want, c := 0, 0
	for n := piece; n <= len(line); n += piece {
		if n > c {
			c = max(c*3/2+1, n)
			want++
		}
	}
	if naive != want || naive != naiveGrowsFor1MiB {
		t.Errorf("naive: %d growths for a 1 MiB line, want %d (loop) and %d (pinned)", naive, want, naiveGrowsFor1MiB)
	}
	if naive <= fresh {
		t.Errorf("naive: %d growths, not more than a fresh ByteList's %d", naive, fresh)
	}
	t.Logf("growths per 1 MiB line: ByteList fresh %d (bound %d), reused 0, naive %d", fresh, bound, naive)
}
