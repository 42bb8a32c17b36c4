package main

// -z on files made by the formats' own tools: the fixtures of internal/decompress
// (gzip, zstd, bzip2, xz and lz4 at their default levels, see its testdata/README), read
// here as they are, so that these tests run where a tool is missing.
// testdata/script/decompress.txtar makes larger files with the tools that are present.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const fixtures = "../../internal/decompress/testdata"

var formats = []struct{ name, ext string }{
	{"gzip", ".gz"}, {"zstd", ".zst"}, {"bzip2", ".bz2"}, {"xz", ".xz"}, {"lz4", ".lz4"},
}

// Every mode gives the same output from a compressed file with -z as from the file
// itself, and -c the same count; without -z the compressed bytes are copied as they are.
func TestDecompressMatchesPlain(t *testing.T) {
	plain := filepath.Join(fixtures, "lines.txt")
	for _, f := range formats {
		compressed := plain + f.ext
		raw, err := os.ReadFile(compressed)
		require.NoError(t, err)
		for _, args := range [][]string{{}, {"-n"}, {"-C", "--ors", `\0`}, {"--buffer", "7"}, {"-p"}, {"-l", "100", "-n"}, {"--max-record", "1MiB"}} {
			want, errs, status := runCmd(t, "", append(args, plain)...)
			require.Equal(t, 0, status, errs)
			got, errs, status := runCmd(t, "", append(append([]string{"-z"}, args...), compressed)...)
			assert.Equal(t, 0, status, "%s %q: %s", f.name, args, errs)
			assert.True(t, got == want, "%s %q: output differs from the uncompressed file's", f.name, args)
		}
		// -H names the compressed file.
		want, _, _ := runCmd(t, "", "-H", plain)
		got, _, _ := runCmd(t, "", "-z", "-H", compressed)
		assert.Equal(t, strings.ReplaceAll(want, plain+":", compressed+":"), got, f.name)

		for _, args := range [][]string{{"-c"}, {"-c", "--stats"}, {"-c", "-p"}} {
			want, _, _ := runCmd(t, "", append(args, plain)...)
			got, errs, status := runCmd(t, "", append(append([]string{"-z"}, args...), compressed)...)
			assert.Equal(t, 0, status, "%s %q: %s", f.name, args, errs)
			assert.Equal(t, strings.ReplaceAll(want, plain, compressed), got, "%s %q", f.name, args)
		}

		// Standard input too.
		got, errs, status := runCmd(t, string(raw), "-z", "-n")
		want, _, _ = runCmd(t, "", "-n", plain)
		assert.Equal(t, 0, status, errs)
		assert.True(t, got == want, "%s on standard input", f.name)

		// Without -z a compressed file is data like any other.
		got, _, status = runCmd(t, "", compressed)
		assert.Equal(t, 0, status)
		assert.True(t, got == string(raw), "%s without -z: not a byte-exact copy", f.name)
	}
	// An empty stream of each format is an empty input; a plain file with -z is read as it is.
	for _, f := range formats {
		out, errs, status := runCmd(t, "", "-z", "-c", filepath.Join(fixtures, "empty"+f.ext))
		assert.Equal(t, 0, status, errs)
		assert.Equal(t, "0 "+filepath.Join(fixtures, "empty"+f.ext)+"\n", out)
	}
	want, _ := os.ReadFile(plain)
	got, _, status := runCmd(t, "", "-z", plain)
	assert.Equal(t, 0, status)
	assert.True(t, got == string(want), "a plain file with -z")
}

// --stats shows the compressed and decompressed sizes of the compressed files and their
// ratio.
func TestDecompressStats(t *testing.T) {
	plain := filepath.Join(fixtures, "lines.txt")
	_, errs, status := runCmd(t, "", "-z", "--stats", plain+".gz", plain+".xz", plain)
	require.Equal(t, 0, status, errs)
	st := func(name string) int64 {
		fi, err := os.Stat(name)
		require.NoError(t, err)
		return fi.Size()
	}
	in := st(plain+".gz") + st(plain+".xz")
	out := 2 * st(plain)
	want := fmt.Sprintf("foreach: 3 files, 360 records, %s (2 compressed files: %s decompressed to %s, ratio %.1f), longest record ",
		formatSize(int(3*st(plain))), formatSize(int(in)), formatSize(int(out)), float64(out)/float64(in))
	assert.True(t, strings.HasPrefix(errs, want), "stats %q\nwant prefix %q", errs, want)

	// No compressed file: the usual line.
	_, errs, _ = runCmd(t, "", "-z", "--stats", plain)
	assert.NotContains(t, errs, "compressed")
}

// A stream cut short or damaged: every record decompressed before the damage is
// printed, then the file is reported with the library's message (format and compressed
// offset), exit status 1, and the next file is still read.
func TestDecompressDamaged(t *testing.T) {
	plain := filepath.Join(fixtures, "lines.txt")
	text, err := os.ReadFile(plain)
	require.NoError(t, err)
	dir := t.TempDir()
	next := filepath.Join(dir, "next")
	require.NoError(t, os.WriteFile(next, []byte("next\n"), 0o644))
	for _, f := range formats {
		raw, err := os.ReadFile(plain + f.ext)
		require.NoError(t, err)
		for _, cut := range []int{len(raw) / 3, len(raw) / 2, len(raw) - 1} {
			bad := filepath.Join(dir, fmt.Sprintf("cut%d%s", cut, f.ext))
			require.NoError(t, os.WriteFile(bad, raw[:cut], 0o644))
			what := fmt.Sprintf("%s cut at %d", f.name, cut)

			out, errs, status := runCmd(t, "", "-z", bad, next)
			assert.Equal(t, 1, status, what)
			assert.True(t, strings.HasPrefix(errs, "foreach: "+bad+": "+f.name+": "), "%s: %q", what, errs)
			assert.Contains(t, errs, " at compressed byte ", what)
			assert.Equal(t, 1, strings.Count(errs, "\n"), "%s: one line: %q", what, errs)
			require.True(t, strings.HasSuffix(out, "next\n"), "%s: the next file is read", what)
			got := strings.TrimSuffix(out, "next\n")
			assert.True(t, bytes.HasPrefix(text, []byte(got)), "%s: the output is not the start of the file", what)

			// -c reports the file and counts the next one.
			out, errs2, status := runCmd(t, "", "-z", "-c", bad, next)
			assert.Equal(t, 1, status, what)
			assert.Equal(t, errs, errs2, what)
			assert.Equal(t, "1 "+next+"\n1 total\n", out, what)
		}
	}
}

// Trailing data after a compressed file's last stream, as zcat reads it: every record is
// printed (or counted), then one warning names the file, the format and the compressed
// offset where the trailing data starts, and the exit status is 3 (read, with a warning)
// unless a file failed, which makes it 1; the next files are read. Zero padding is
// ignored silently.
func TestDecompressTrailing(t *testing.T) {
	plain := filepath.Join(fixtures, "lines.txt")
	text, err := os.ReadFile(plain)
	require.NoError(t, err)
	dir := t.TempDir()
	next := filepath.Join(dir, "next")
	require.NoError(t, os.WriteFile(next, []byte("next\n"), 0o644))
	for _, f := range formats {
		raw, err := os.ReadFile(plain + f.ext)
		require.NoError(t, err)
		write := func(name string, tail string) string {
			path := filepath.Join(dir, name+f.ext)
			require.NoError(t, os.WriteFile(path, append(append([]byte{}, raw...), tail...), 0o644))
			return path
		}
		padded := write("padded", strings.Repeat("\x00", 512))
		garbage := write("garbage", "trailing garbage\n")
		warning := fmt.Sprintf("foreach: %s: %s: decompression OK, trailing data at compressed byte %d ignored\n", garbage, f.name, len(raw))

		out, errs, status := runCmd(t, "", "-z", padded)
		assert.Equal(t, 0, status, "%s padded: %s", f.name, errs)
		assert.Empty(t, errs, f.name)
		assert.True(t, out == string(text), "%s padded: output differs from the file's", f.name)

		out, errs, status = runCmd(t, "", "-z", garbage, next)
		assert.Equal(t, 3, status, f.name)
		assert.Equal(t, warning, errs, f.name)
		assert.True(t, out == string(text)+"next\n", "%s with garbage: every record, then the next file", f.name)

		out, errs, status = runCmd(t, "", "-z", "-c", garbage, padded)
		assert.Equal(t, 3, status, f.name)
		assert.Equal(t, warning, errs, f.name)
		assert.Equal(t, fmt.Sprintf("120 %s\n120 %s\n240 total\n", garbage, padded), out, f.name)

		// A file that fails makes the status 1, before or after the warning.
		cut := write("cut", "")
		require.NoError(t, os.Truncate(cut, int64(len(raw)/2)))
		for _, files := range [][]string{{garbage, cut}, {cut, garbage}} {
			_, errs, status = runCmd(t, "", append([]string{"-z", "-n"}, files...)...)
			assert.Equal(t, 1, status, "%s %q", f.name, files)
			assert.Contains(t, errs, warning, f.name)
			assert.Contains(t, errs, "foreach: "+cut+": "+f.name+": unexpected end of data at compressed byte ", f.name)
		}

		// Standard input is named as in other messages.
		garbled, err := os.ReadFile(garbage)
		require.NoError(t, err)
		_, errs, status = runCmd(t, string(garbled), "-z", "-c")
		assert.Equal(t, 3, status, f.name)
		assert.Equal(t, strings.Replace(warning, garbage, "(standard input)", 1), errs, f.name)
	}
}
