package linereader_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// The memory of one huge record, by design rather than by forcing the collector: a line
// of L bytes read with Views or Lines peaks at no more than 2.1 L of resident memory (the
// record's blocks while it is gathered, then the one array of its length), and with
// MaxRecord a line that never ends is refused having held about the limit. Each case runs
// in a child process, the test binary itself, so that nothing else the tests hold counts,
// and reads its own peak (VmHWM) when it is done.
func TestMemoryOfHugeRecords(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the peak from /proc/self/status")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory is part of the peak")
	}
	if testing.Short() {
		t.Skip("reads 512 MiB per case")
	}
	const L = 512 << 20
	cases := []struct {
		iterator string
		max      int     // MaxRecord
		bound    float64 // peak RSS at most bound × the line, or × max when set
	}{
		{"Views", 0, 2.1},
		{"Lines", 0, 2.1},
		{"Views", 64 << 20, 1.5},
		{"Lines", 64 << 20, 1.5},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/max=%d", c.iterator, c.max)
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("LINEREADER_MEMORY_CHILD=%s %d %d", c.iterator, L, c.max))
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			var peak, longest int64
			var errText string
			_, err = fmt.Sscanf(lastLine(string(out)), "peak %d longest %d err %q", &peak, &longest, &errText)
			require.NoError(t, err, "child said %q", out)
			base := float64(L)
			if c.max > 0 {
				base = float64(c.max)
				require.Contains(t, errText, "longer than the maximum", "a line past MaxRecord")
			} else {
				require.Empty(t, errText)
				require.Equal(t, int64(L), longest, "the record")
			}
			t.Logf("%s: peak RSS %d MiB, %.2f× the %s", name, peak>>20, float64(peak)/base, map[bool]string{true: "limit", false: "line"}[c.max > 0])
			require.LessOrEqual(t, float64(peak), c.bound*base, "peak RSS")
		})
	}
}

// TestMemoryChild is the child of TestMemoryOfHugeRecords: it reads one line of L bytes,
// made on the fly (no file, no page cache), with the named iterator, and prints its peak.
func TestMemoryChild(t *testing.T) {
	spec := os.Getenv("LINEREADER_MEMORY_CHILD")
	if spec == "" {
		t.Skip("run by TestMemoryOfHugeRecords")
	}
	var iterator string
	var size int64
	var maxRecord int
	if _, err := fmt.Sscanf(spec, "%s %d %d", &iterator, &size, &maxRecord); err != nil {
		t.Fatal(err)
	}
	r := linereader.New(&longLine{n: size}, linereader.Options{MaxRecord: maxRecord})
	var kept []byte
	longest := 0
	if iterator == "Lines" {
		for rec := range r.Lines() {
			kept = rec // held, as a caller who keeps its lines holds it
			longest = max(longest, len(rec))
		}
	} else {
		for rec := range r.Views() {
			longest = max(longest, len(rec))
		}
	}
	errText := ""
	if err := r.Err(); err != nil {
		errText = err.Error()
	}
	fmt.Printf("\npeak %d longest %d err %q\n", vmHWM(t), longest, errText)
	runtime.KeepAlive(kept)
}

// longLine is n-1 bytes of 'x' and a newline, or with n < 0 an endless line.
type longLine struct{ n, done int64 }

func (l *longLine) Read(p []byte) (int, error) {
	if l.done == l.n {
		return 0, io.EOF
	}
	if l.n > 0 {
		p = p[:min(int64(len(p)), l.n-l.done)]
	}
	for i := range p {
		p[i] = 'x'
	}
	l.done += int64(len(p))
	if l.done == l.n {
		p[len(p)-1] = '\n'
	}
	return len(p), nil
}

// vmHWM returns the process's peak resident memory, in bytes.
func vmHWM(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			_, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "peak ") {
			return lines[i]
		}
	}
	return ""
}
