package main

// --index with -z (indexing.go): every mode's output exactly that of the same read
// without --index, and the index written that of --index alone, byte for byte; none
// after a failed read, and no temporary file left.

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/testkit/zfixtures"
	"github.com/foreachio/foreach/zindex"
)

// indexAlone runs --index alone on name, with no index beside it, and returns what it
// wrote (nil: nothing), its stderr and status, leaving no index behind.
func indexAlone(t *testing.T, name string) (zidx []byte, errs string, status int) {
	t.Helper()
	require.NoError(t, removeIfThere(name+".zidx"))
	out, errs, status := runCmd(t, "", "--index", name)
	require.Empty(t, out)
	zidx, err := os.ReadFile(name + ".zidx")
	if err == nil {
		require.NoError(t, os.Remove(name+".zidx"))
	}
	return zidx, errs, status
}

func removeIfThere(name string) error {
	if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// dirNames returns the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// checkIndexReads loads name's index (zindex.Load: it matches the file) and reads the
// whole text through it: text, and the points of want, an index of the same file.
func checkIndexReads(t *testing.T, name string, text, want []byte) {
	t.Helper()
	ix, err := zindex.Load(name)
	require.NoError(t, err)
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	got, err := io.ReadAll(io.NewSectionReader(ix.ReaderAt(f), 0, ix.Size()))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(text, got), "%s: the text through the index differs", name)
	w, err := zindex.Read(bytes.NewReader(want))
	require.NoError(t, err)
	require.Equal(t, w.Points(), ix.Points(), "%s: points", name)
	for i := range w.Points() {
		wt, wc := w.Point(i)
		gt, gc := ix.Point(i)
		assert.Equal(t, []int64{wt, wc}, []int64{gt, gc}, "%s: point %d", name, i)
	}
}

// A plain .gz (one member, no index) in every mode: the index falls out of the read,
// equal to --index alone's; the output is the read's without --index, on one core or
// three.
func TestIndexWhileReadingEveryMode(t *testing.T) {
	text, _ := ztextText(t)
	dir := t.TempDir()
	name := filepath.Join(dir, "f.gz")
	require.NoError(t, os.WriteFile(name, zfixtures.Gzip(text), 0o644))
	alone, errs, status := indexAlone(t, name)
	require.Equal(t, []any{"", 0}, []any{errs, status})
	require.NotEmpty(t, alone)
	for _, mode := range [][]string{
		{"-c"}, {"-c", "-0"}, {"-c", "-p"}, {"-c", "--sep", "ab"}, {"-c", "-l", "100"}, {"-c", "--whole"}, {"-c", "--buffer", "100"},
		nil, {"-n"}, {"-H"}, {"-C", "--ors", ";"}, {"--last", "5"}, {"--last", "0"},
		{"--reverse"}, {"--reverse", "--last", "2"}, {"-n", "--last", "3"},
		{"--max-record", "300", "--too-long", "skip"}, {"-c", "--max-record", "300", "--too-long", "cut"},
	} {
		for _, jobs := range []string{"1", "3"} {
			args := append(append([]string{"-z", "-j", jobs}, mode...), name)
			what := strings.Join(args[:len(args)-1], " ")
			out0, errs0, status0 := runCmd(t, "", args...)
			require.Equal(t, []string{"f.gz"}, dirNames(t, dir), what)
			out, errs, status := runCmd(t, "", append([]string{"--index"}, args...)...)
			assert.True(t, out == out0, "%s: stdout differs (%d bytes, want %d)", what, len(out), len(out0))
			assert.Equal(t, []any{errs0, status0}, []any{errs, status}, what)
			require.Equal(t, []string{"f.gz", "f.gz.zidx"}, dirNames(t, dir), what)
			got, err := os.ReadFile(name + ".zidx")
			require.NoError(t, err)
			assert.True(t, bytes.Equal(alone, got), "%s: the index differs from --index alone's", what)
			checkIndexReads(t, name, text, alone)
			require.NoError(t, os.Remove(name+".zidx"))
		}
	}
}

// --stats: the figures of a read through the index being built are those of the same
// read without it, the compressed side included (the engine does not decode it).
func TestIndexWhileReadingStats(t *testing.T) {
	text, lines := ztextText(t)
	dir := t.TempDir()
	name := filepath.Join(dir, "f.gz")
	gz := zfixtures.Gzip(text)
	require.NoError(t, os.WriteFile(name, gz, 0o644))
	figures := func(errs string) string { // up to the time, which differs from run to run
		i := strings.Index(errs, " buffer growth")
		require.Positive(t, i, errs)
		return errs[:i]
	}
	for _, mode := range [][]string{nil, {"-c"}} {
		args := append(append([]string{"-z", "--stats"}, mode...), name)
		out0, errs0, status0 := runCmd(t, "", args...)
		out, errs, status := runCmd(t, "", append([]string{"--index"}, args...)...)
		assert.Equal(t, []any{out0, status0}, []any{out, status}, "%q", mode)
		assert.Equal(t, figures(errs0), figures(errs), "%q", mode)
		assert.Contains(t, errs, "foreach: 1 file, "+plural(int64(len(lines)), "record")+", ")
		assert.Contains(t, errs, "(1 compressed file: ")
		require.NoError(t, os.Remove(name+".zidx"))
	}
}

// Every kind of compressed file with -z -c --index: the count that of -z -c, and then
// what --index alone does with the file, the same bytes written or the same message:
// a gzip file indexed while it is decoded, BGZF, xz blocks and sized zstd frames from
// their structure after the read, bzip2 and unsized zstd frames reported as files
// that cannot be indexed (status 1), as a file that is not compressed.
func TestIndexWhileReadingEveryFormat(t *testing.T) {
	text, _ := ztextText(t)
	dir := t.TempDir()
	files := zfixtures.Write(t, dir, text, 32<<10)
	plain := filepath.Join(dir, "plain.txt")
	require.NoError(t, os.WriteFile(plain, text, 0o644))
	files = append(files, zfixtures.File{Kind: "plain.txt", Path: plain})
	for _, f := range files {
		alone, aloneErrs, aloneStatus := indexAlone(t, f.Path) // the fixtures' own indexes go
		for _, mode := range [][]string{{"-c"}, nil, {"--last", "2"}} {
			args := append(append([]string{"-z"}, mode...), f.Path)
			what := f.Kind + " " + strings.Join(args[:len(args)-1], " ")
			out0, errs0, status0 := runCmd(t, "", args...)
			out, errs, status := runCmd(t, "", append([]string{"--index"}, args...)...)
			assert.True(t, out == out0, "%s: stdout differs (%d bytes, want %d)", what, len(out), len(out0))
			assert.Equal(t, errs0+aloneErrs, errs, what)
			if aloneStatus != 0 {
				status0 = aloneStatus
			}
			assert.Equal(t, status0, status, what)
			got, err := os.ReadFile(f.Path + ".zidx")
			if alone == nil {
				assert.True(t, os.IsNotExist(err), "%s: an index where --index alone writes none", what)
				assert.Equal(t, "foreach: "+f.Path+": "+errNotIndexable.Error()+"\n", aloneErrs, what)
				continue
			}
			require.NoError(t, err, what)
			assert.True(t, bytes.Equal(alone, got), "%s: the index differs from --index alone's", what)
			checkIndexReads(t, f.Path, text, alone)
			require.NoError(t, os.Remove(f.Path+".zidx"))
		}
	}
	for _, e := range dirNames(t, dir) {
		assert.NotContains(t, e, ".zidx.", "a temporary file left")
	}
}

// A damaged file with -z --index: what can be read is printed, the read's error and
// status, and no index: none written, no temporary file left, and an index that was
// there before (stale) left as it was. Pinned for a truncated .gz (indexed while
// read) and a damaged BGZF file (indexed after a read that does not succeed). (--last
// reads a BGZF file's last pieces only: it meets no damage in the middle, and its
// index is made from the headers, as --index alone makes it, which meets none either.)
func TestIndexWhileReadingDamaged(t *testing.T) {
	text, _ := ztextText(t)
	gz, bgzf := zfixtures.Gzip(text), zfixtures.BGZF(text, 16<<10)
	bad := slices.Clone(bgzf)
	bad[len(bad)/2] ^= 0xff
	for _, c := range []struct {
		kind  string
		data  []byte
		modes [][]string
	}{
		{"cut.gz", gz[:len(gz)*2/3], [][]string{nil, {"-c"}, {"-n"}, {"--last", "2"}, {"--reverse"}}},
		{"bad.gz", bad, [][]string{nil, {"-c"}, {"-n"}, {"--reverse"}}},
	} {
		for _, mode := range c.modes {
			dir := t.TempDir()
			name := filepath.Join(dir, c.kind)
			require.NoError(t, os.WriteFile(name, c.data, 0o644))
			args := append(append([]string{"-z"}, mode...), name)
			what := c.kind + " " + strings.Join(args[:len(args)-1], " ")
			out0, errs0, status0 := runCmd(t, "", args...)
			require.Equal(t, 1, status0, what)
			require.Contains(t, errs0, "foreach: "+name+": gzip: ", what)
			out, errs, status := runCmd(t, "", append([]string{"--index"}, args...)...)
			assert.True(t, out == out0, "%s: stdout differs (%d bytes, want %d)", what, len(out), len(out0))
			assert.Equal(t, []any{errs0, 1}, []any{errs, status}, what)
			assert.Equal(t, []string{c.kind}, dirNames(t, dir), what)

			stale := []byte("an index of another file")
			require.NoError(t, os.WriteFile(name+".zidx", stale, 0o644))
			_, _, status = runCmd(t, "", append([]string{"--index"}, args...)...)
			assert.Equal(t, 1, status, what)
			got, err := os.ReadFile(name + ".zidx")
			require.NoError(t, err)
			assert.Equal(t, stale, got, "%s: the index there before", what)
			assert.Equal(t, []string{c.kind, c.kind + ".zidx"}, dirNames(t, dir), what)
		}
	}
}

// An index that matches its file is read through and left as it is; one that does not
// is replaced after the read, without the warning -z alone gives (--index is asked to
// make a new one); a read stopped by --max-record writes none.
func TestIndexWhileReadingFreshStaleFailed(t *testing.T) {
	text, lines := ztextText(t)
	dir := t.TempDir()
	name := filepath.Join(dir, "f.gz")
	require.NoError(t, os.WriteFile(name, zfixtures.Gzip(text), 0o644))
	mustRun(t, "--index", name)
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(name+".zidx", old, old))
	assert.Equal(t, strconv.Itoa(len(lines))+" "+name+"\n", mustRun(t, "-z", "-c", "--index", name))
	st, err := os.Stat(name + ".zidx")
	require.NoError(t, err)
	assert.True(t, st.ModTime().Equal(old), "an up-to-date index is rewritten")

	more := append(slices.Clone(text), "one more line\n"...)
	require.NoError(t, os.WriteFile(name, zfixtures.Gzip(more), 0o644))
	out, errs, status := runCmd(t, "", "-z", "--last", "1", "--index", name)
	assert.Equal(t, []any{"one more line\n", "", 0}, []any{out, errs, status})
	alone, _, _ := indexAlone(t, name)
	mustRun(t, "-z", "--last", "1", "--index", name)
	got, err := os.ReadFile(name + ".zidx")
	require.NoError(t, err)
	assert.Equal(t, alone, got, "the stale index replaced by the read's")

	require.NoError(t, os.Remove(name+".zidx"))
	_, errs, status = runCmd(t, "", "-z", "--index", "--max-record", "10", name)
	assert.Equal(t, 1, status)
	assert.Contains(t, errs, "longer than --max-record")
	assert.Equal(t, []string{"f.gz"}, dirNames(t, dir), "an index after a failed read")
}

func TestIndexWhileReadingUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-z", "--index"}, "--index needs a FILE"},
		{[]string{"-z", "--index", "-c"}, "--index needs a FILE"},
		{[]string{"-z", "--index", "-"}, "--index takes a FILE, not standard input"},
		{[]string{"-z", "--index", "-f", "f"}, "--decompress cannot be used with --follow (a compressed stream is not read as it grows)"},
		{[]string{"--index", "--last", "2", "f"}, "--index cannot be used with --last (it writes indexes and reads no records)"},
	} {
		_, errs, status := runCmd(t, "", c.args...)
		assert.Equal(t, 2, status, "%q", c.args)
		assert.Equal(t, "foreach: "+c.want+"\nTry 'foreach --help' for more information.\n", errs, "%q", c.args)
	}
}
