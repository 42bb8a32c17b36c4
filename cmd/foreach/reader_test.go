package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/testkit/testfifo"

	"github.com/stretchr/testify/require"
)

// The command reads every input with one Reader, started over by Reset, whose Stats
// keep the buffer's whole history: --stats must still add each input's buffer growths
// once. A record held whole (--max-record) past four times the buffer grows it, and
// Reset gives that buffer back, so the same file read again grows it as much again.
func TestStatsCountsEachInputsGrowthsOnce(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.txt")
	small := filepath.Join(dir, "small.txt")
	require.NoError(t, os.WriteFile(huge, []byte(strings.Repeat("x", 100<<10)+"\n"), 0o644))
	require.NoError(t, os.WriteFile(small, []byte("a\nb\n"), 0o644))
	growths := func(files ...string) int {
		t.Helper()
		args := append([]string{"--stats", "--buffer", "4KiB", "--max-record", "1MiB"}, files...)
		_, errs, status := runCmd(t, "", args...)
		require.Equal(t, 0, status, errs)
		m := regexp.MustCompile(`, (\d+) buffer growths?, `).FindStringSubmatch(errs)
		require.NotNil(t, m, errs)
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		return n
	}
	one := growths(huge)
	require.Positive(t, one)
	require.Equal(t, 0, growths(small))
	require.Equal(t, 2*one, growths(huge, small, huge))
}

// A FIFO named first: no output is pending, so the command opens it without looking at
// it first (as it opens a regular file, outside the runtime's poller); its records
// still come as they are written, each before the next read waits.
func TestStreamingNamedFIFOFirst(t *testing.T) {
	fifo := testfifo.Make(t, "fifo")
	p := startPipeRun(t, "-n", fifo)
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = w.Write([]byte("x\n"))
	require.NoError(t, err)
	p.expect(t, "     1\tx\n")
	_, err = w.Write([]byte("y\n"))
	require.NoError(t, err)
	p.expect(t, "     2\ty\n")
	require.NoError(t, w.Close())
	p.finish(t, "", 0)
}
