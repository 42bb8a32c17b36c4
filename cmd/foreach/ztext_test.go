package main

// -z through internal/ztext: an index beside the file, the pieces of block formats, a
// stream decoded on -j cores; every mode's output exactly that of the text itself, and
// of the sequential read (-j 1); --index.

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/internal/testkit/zfixtures"
)

// ztextText is the text of the tests' compressed files, and its lines.
func ztextText(t *testing.T) ([]byte, []string) {
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: int64(zfixtures.TextSize()), Seed: 40})
	require.NoError(t, err)
	require.True(t, bytes.HasSuffix(text, []byte("\n")))
	lines := strings.SplitAfter(string(text), "\n")
	return text, lines[:len(lines)-1]
}

func TestDecompressThroughZtext(t *testing.T) {
	text, lines := ztextText(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	require.NoError(t, os.WriteFile(plain, text, 0o644))
	reversed := slices.Clone(lines)
	slices.Reverse(reversed)
	for _, f := range zfixtures.Write(t, dir, text, 32<<10) {
		wantErr, wantStatus := "", 0
		if f.Kind == "trailing.gz" {
			wantErr, wantStatus = "foreach: "+f.Path+": gzip: decompression OK, trailing data at compressed byte", statusWarning
		}
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"-c"}, strconv.Itoa(len(lines)) + " " + f.Path + "\n"},
			{[]string{"--last", "7"}, strings.Join(lines[len(lines)-7:], "")},
			{[]string{"--reverse"}, strings.Join(reversed, "")},
			{[]string{"--reverse", "--last", "3"}, strings.Join(reversed[:3], "")},
			{[]string{"-n"}, mustRun(t, "-n", plain)},
			{nil, string(text)},
		} {
			for _, jobs := range []string{"1", "3"} {
				args := append([]string{"-z", "-j", jobs}, c.args...)
				got, errs, status := runCmd(t, "", append(args, f.Path)...)
				what := f.Kind + " " + strings.Join(args, " ")
				assert.True(t, got == c.want, "%s: stdout differs (%d bytes, want %d)", what, len(got), len(c.want))
				assert.Equal(t, wantStatus, status, "%s: %s", what, errs)
				assert.True(t, strings.HasPrefix(errs, wantErr) && strings.Count(errs, "\n") == min(len(wantErr), 1), "%s: stderr %q", what, errs)
			}
		}
	}
}

func mustRun(t *testing.T, args ...string) string {
	out, errs, status := runCmd(t, "", args...)
	require.Equal(t, 0, status, errs)
	return out
}

// --index writes FILE.zidx and nothing else, leaves an index that matches alone, and
// makes a new one when the file changed; -z warns once of the stale one and reads the
// file as if it had none.
func TestIndexFlag(t *testing.T) {
	text, lines := ztextText(t)
	dir := t.TempDir()
	name := filepath.Join(dir, "f.gz")
	require.NoError(t, os.WriteFile(name, zfixtures.Gzip(text), 0o644))
	out, errs, status := runCmd(t, "", "--index", name)
	require.Equal(t, []any{"", "", 0}, []any{out, errs, status})
	st, err := os.Stat(name + ".zidx")
	require.NoError(t, err)
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(name+".zidx", old, old))
	mustRun(t, "--index", name)
	st, err = os.Stat(name + ".zidx")
	require.NoError(t, err)
	assert.True(t, st.ModTime().Equal(old), "an up-to-date index is rewritten")

	more := append(bytes.Clone(text), "one more line\n"...)
	require.NoError(t, os.WriteFile(name, zfixtures.Gzip(more), 0o644))
	out, errs, status = runCmd(t, "", "-z", "-c", name)
	assert.Equal(t, strconv.Itoa(len(lines)+1)+" "+name+"\n", out)
	assert.Equal(t, 0, status)
	assert.Equal(t, "foreach: "+name+": "+name+".zidx is not used: zindex: the index does not match its file\n", errs)
	out, _, _ = runCmd(t, "", "-z", "--last", "1", name)
	assert.Equal(t, "one more line\n", out)
	mustRun(t, "--index", name)
	_, errs, _ = runCmd(t, "", "-z", "-c", name)
	assert.Empty(t, errs, "a new index after the change")

	plain := filepath.Join(dir, "plain.txt")
	require.NoError(t, os.WriteFile(plain, text, 0o644))
	_, errs, status = runCmd(t, "", "--index", plain, name)
	assert.Equal(t, 1, status)
	assert.Equal(t, "foreach: "+plain+": not a file that can be indexed (gzip; BGZF, xz or zstd whose pieces say their sizes)\n", errs)
}

func TestIndexFlagUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--index"}, "--index needs a FILE"},
		{[]string{"--index", "-"}, "--index takes a FILE, not standard input"},
		{[]string{"--index", "-c", "f"}, "--index cannot be used with --count (it writes indexes and reads no records)"},
		{[]string{"--index", "--reverse", "f"}, "--index cannot be used with --reverse (it writes indexes and reads no records)"},
		{[]string{"-j", "2", "f"}, "--jobs has no effect without --count or --decompress"},
	} {
		_, errs, status := runCmd(t, "", c.args...)
		assert.Equal(t, 2, status, "%q", c.args)
		assert.Equal(t, "foreach: "+c.want+"\nTry 'foreach --help' for more information.\n", errs, "%q", c.args)
	}
}

// -z -c counts through FILE.zidx, found by the name the file was opened by (CountNamed):
// a byte changed in the middle of an indexed .gz after indexing (its size, first and
// last 64 KiB and time kept, so the index still loads) is reported where the read
// through the index meets it, at the access point before it, not where the sequential
// read (-j 1) meets it; without the index, -j 2 reports it as the sequential read does.
func TestCountThroughIndexByName(t *testing.T) {
	// 1 MiB of text whatever zfixtures.TextSize says under the race detector: the
	// changed byte must lie outside the first and last 64 KiB of the .gz.
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: 1 << 20, Seed: 40})
	require.NoError(t, err)
	dir := t.TempDir()
	name := filepath.Join(dir, "f.gz")
	gz := zfixtures.Gzip(text)
	require.Greater(t, len(gz), 3*64<<10, "a middle outside the bytes that identify the file")
	require.NoError(t, os.WriteFile(name, gz, 0o644))
	zfixtures.Index(t, name, 32<<10)
	st, err := os.Stat(name)
	require.NoError(t, err)
	gz[len(gz)/2] ^= 0x55
	require.NoError(t, os.WriteFile(name, gz, 0o644))
	require.NoError(t, os.Chtimes(name, st.ModTime(), st.ModTime()))
	_, seq, status := runCmd(t, "", "-z", "-c", "-j", "1", name)
	require.Equal(t, 1, status, seq)
	_, indexed, status := runCmd(t, "", "-z", "-c", "-j", "2", name)
	require.Equal(t, 1, status, indexed)
	assert.NotEqual(t, seq, indexed, "the index is not used")
	require.NoError(t, os.Remove(name+".zidx"))
	_, unindexed, _ := runCmd(t, "", "-z", "-c", "-j", "2", name)
	assert.Equal(t, seq, unindexed)
}
