package follow

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// csvLog is a log that begins with a header, as CSV and many JSON logs do: every file
// of its rotation begins with the same bytes.
func csvLog(from, to int) string {
	var b strings.Builder
	b.WriteString("time,level,message\n")
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "2026-12-01T00:00:%02d,info,record %d\n", i%60, i)
	}
	return b.String()
}

// candidate writes data to a file in dir and opens it as a file beside the name, with
// its modification time set back by age.
func candidate(t *testing.T, dir, name, data string, age time.Duration) *file {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if age > 0 {
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	fl, err := openFile(newHandles(nil), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fl.close)
	return fl
}

// readAs is the content of data as a reading that read it to p has it.
func readAs(data string, p int) content {
	return content{head: []byte(data[:min(p, headLen)]), tail: []byte(data[max(0, p-tailLen):p]), p: int64(p)}
}

// live is c as the content of the file being read.
func live(c content) content { c.live = true; return c }

// Regression test for the copy verdict from a short shared prefix (round 4's sameHead
// compared two heads over their common length, one byte at least, and a file whose
// first bytes were a header shared with a file read was taken for its copy, known so,
// and never read): a file is a copy only when it holds what was read of the other at
// its start and just before the point read to, with a full head and a tail beyond it,
// or is those bytes whole; one shorter than what was read, beginning alike, is looked at
// again while it changes.
func TestJudge(t *testing.T) {
	dir := t.TempDir()
	long := csvLog(0, 200) // longer than headLen + tailLen
	short := csvLog(0, 3)
	for _, tc := range []struct {
		name string
		data string
		age  time.Duration
		read content
		want verdict
	}{
		{"header alone, new", "time,level,message\n", 0, readAs(long, len(long)), verdictUndecided},
		{"header alone, settled", "time,level,message\n", time.Second, readAs(long, len(long)), verdictOwn},
		{"same header, other records", csvLog(500, 700), 0, readAs(long, len(long)), verdictOwn},
		{"same header, other records, short file read", csvLog(500, 700), 0, readAs(short, len(short)), verdictOwn},
		{"copy of what was read", long, 0, readAs(long, len(long)), verdictCopy},
		{"copy with more than was read", long + "more,info,x\n", 0, readAs(long, len(long)), verdictCopy},
		{"copy of a prefix read", long, 0, readAs(long, 3000), verdictCopy},
		{"same first KiB, other bytes after", long[:3000] + strings.Repeat("z", 2000), 0, readAs(long, 4000), verdictOwn},
		{"copy being made", long[:2000], 0, readAs(long, len(long)), verdictUndecided},
		{"exact copy of a short file", short, 0, readAs(short, len(short)), verdictCopy},
		{"short file read, more in the other", short + "x,y,z\n", 0, readAs(short, len(short)), verdictOwn},
		{"nothing read", long, 0, content{}, verdictOwn},
		{"copy of a short file at the name, with more", short + "x,y,z\n", 0, live(readAs(short, len(short))), verdictCopy},
		{"same header as a short file at the name", csvLog(500, 700), 0, live(readAs(short, len(short))), verdictOwn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := candidate(t, dir, strings.ReplaceAll(tc.name, " ", "_"), tc.data, tc.age)
			fi, _ := fl.f.Stat()
			if got := judge(fl, fi.Size(), fi.ModTime(), []content{tc.read}); got != tc.want {
				t.Errorf("judge = %v, want %v", got, tc.want)
			}
		})
	}
}

// A compressed file is a copy when its content begins with a full head read, or is a
// short file read whole; one that only shares a header is read.
func TestJudgeSealed(t *testing.T) {
	dir := t.TempDir()
	long, short := csvLog(0, 200), csvLog(0, 3)
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	for _, tc := range []struct {
		name string
		data string
		read content
		want verdict
	}{
		{"compressed copy", gz(long), readAs(long, len(long)), verdictCopy},
		{"compressed short copy", gz(short), readAs(short, len(short)), verdictCopy},
		{"compressed, same header", gz(csvLog(500, 520)), readAs(short, len(short)), verdictOwn},
		{"compressed, other", gz(csvLog(500, 700)), readAs(long, len(long)), verdictOwn},
		{"compressed, being written", gz(long)[:20], readAs(long, len(long)), verdictUndecided},
		{"compressed copy of the file being read, with more", gz(short + "x,y,z\n"), live(readAs(short, len(short))), verdictCopy},
		{"compressed, same header as the file being read", gz(csvLog(500, 520)), live(readAs(short, len(short))), verdictOwn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := candidate(t, dir, strings.ReplaceAll(tc.name, " ", "_")+".gz", tc.data, 0)
			fi, _ := fl.f.Stat()
			complete, ok := fl.seal()
			if !ok {
				t.Fatal("seal failed")
			}
			if got := judgeSealed(fl, complete, fi.ModTime(), []content{tc.read}); got != tc.want {
				t.Errorf("judgeSealed = %v, want %v (head %q)", got, tc.want, fl.head)
			}
		})
	}
}

// sampleStream takes the same bytes as sampleAt, for any p, head and tail lengths, and
// the rest of the stream goes on at p.
func TestSampleStream(t *testing.T) {
	data := []byte(csvLog(0, 80))
	for _, p := range []int64{0, 1, 5, 64, 300, 1023, 1024, 1025, 1300, int64(len(data))} {
		for _, hn := range []int{0, 3, 100, 1024} {
			for _, tn := range []int{0, 1, 64, 256} {
				if int64(tn) > p || hn > len(data) {
					continue
				}
				a, okA := sampleAt(bytes.NewReader(data), int64(len(data)), p, hn, tn)
				b, rest, okB := sampleStream(bytes.NewReader(data), p, hn, tn)
				if !okA || !okB || !bytes.Equal(a.head, b.head) || !bytes.Equal(a.tail, b.tail) {
					t.Fatalf("p %d head %d tail %d: at %q %q %v, stream %q %q %v", p, hn, tn, a.head, a.tail, okA, b.head, b.tail, okB)
				}
				var got bytes.Buffer
				got.ReadFrom(rest)
				if !bytes.Equal(got.Bytes(), data[p:]) {
					t.Fatalf("p %d head %d tail %d: the rest is %q", p, hn, tn, got.Bytes())
				}
			}
		}
	}
}
