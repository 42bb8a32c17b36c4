package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/internal/testkit/testfifo"
)

// stackEntries is the stack-trace log of the tests of records of many lines, one entry
// a record: a line before the first entry (a record of its own), an error with its
// trace, a line of one entry, and an error whose trace ends the file without a newline;
// CRLF throughout.
var stackEntries = []string{
	"started\r\n",
	"2026-01-01 ERROR x\r\n\tat a.b(c.java:1)\r\n\tat d.e(f.java:2)\r\n",
	"2026-01-01 INFO y\r\n",
	"2026-01-01 ERROR z\r\n\tat g.h(i.java:3)",
}

// stackStart and stackContinue are two ways to say the same entries.
const (
	stackStart    = `^\d{4}-\d\d-\d\d `
	stackContinue = `^\s`
)

// writeStack writes the entries to dir/name, and a gzip of them to dir/name.gz; it
// returns both names.
func writeStack(t *testing.T, dir, name string, entries []string) (plain, gz string) {
	t.Helper()
	text := strings.Join(entries, "")
	plain, gz = filepath.Join(dir, name), filepath.Join(dir, name+".gz")
	require.NoError(t, os.WriteFile(plain, []byte(text), 0o644))
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(text))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(gz, b.Bytes(), 0o644))
	return plain, gz
}

// reversed returns the entries last first, as tac gives them: one after the other, the
// unterminated last one running on into the one before it.
func reversed(entries []string) string {
	r := slices.Clone(entries)
	slices.Reverse(r)
	return strings.Join(r, "")
}

// chomped is an entry with its last separator dropped, as -C prints it (then "\n").
func chomped(e string) string {
	e = strings.TrimSuffix(e, "\n")
	return strings.TrimSuffix(e, "\r") + "\n"
}

// Every mode of the command gives the entries whole: printed, numbered, labelled,
// chomped, counted, the last two, reversed; from the file, from standard input, and
// from a gzip of it with -z; with --start and with --continue.
func TestMultilineModes(t *testing.T) {
	dir := t.TempDir()
	plain, gz := writeStack(t, dir, "app.log", stackEntries)
	text := strings.Join(stackEntries, "")
	n := len(stackEntries)
	var numbered, labelled, chomp strings.Builder
	for i, e := range stackEntries {
		fmt.Fprintf(&numbered, "%6d\t%s", i+1, e)
		labelled.WriteString(plain + ":" + e)
		chomp.WriteString(chomped(e))
	}
	labelled.WriteString("\n") // -H ends the unterminated last record
	for _, pattern := range [][]string{{"--start", stackStart}, {"--continue", stackContinue}} {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{nil, text},
			{[]string{"-n"}, numbered.String()},
			{[]string{"-H"}, labelled.String()},
			{[]string{"-C"}, chomp.String()},
			{[]string{"-c"}, fmt.Sprintf("%d\n", n)},
			{[]string{"--last", "2"}, strings.Join(stackEntries[n-2:], "")},
			{[]string{"--reverse"}, reversed(stackEntries)},
			{[]string{"--reverse", "--last", "2"}, reversed(stackEntries[n-2:])},
		} {
			args := append(slices.Clone(pattern), tc.args...)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				for _, in := range [][]string{{plain}, {"-z", gz}, {"-z", "-j", "2", gz}} {
					want := tc.want
					if slices.Contains(tc.args, "-c") {
						want = fmt.Sprintf("%d %s\n", n, in[len(in)-1])
					}
					if slices.Contains(tc.args, "-H") {
						want = strings.ReplaceAll(want, plain+":", in[len(in)-1]+":")
					}
					out, errs, status := runCmd(t, "", append(slices.Clone(args), in...)...)
					require.Equal(t, 0, status, errs)
					assert.Equal(t, want, out, "%q", in)
				}
				if slices.Contains(tc.args, "-H") {
					return // standard input's label is another name
				}
				out, errs, status := runCmd(t, text, args...)
				require.Equal(t, 0, status, errs)
				assert.Equal(t, tc.want, out, "standard input")
			})
		}
	}
}

// --max-lines ends an entry after N lines: the next line begins one whatever it is.
func TestMultilineMaxLines(t *testing.T) {
	dir := t.TempDir()
	plain, _ := writeStack(t, dir, "app.log", stackEntries)
	// The entry of three lines is cut after two; its third line is an entry of its own.
	lines := strings.SplitAfter(stackEntries[1], "\n")
	want := []string{stackEntries[0], lines[0] + lines[1], lines[2], stackEntries[2], stackEntries[3]}
	var numbered strings.Builder
	for i, e := range want {
		fmt.Fprintf(&numbered, "%6d\t%s", i+1, e)
	}
	out, errs, status := runCmd(t, "", "--start", stackStart, "--max-lines", "2", "-n", plain)
	require.Equal(t, 0, status, errs)
	assert.Equal(t, numbered.String(), out)
	out, errs, status = runCmd(t, "", "--continue", stackContinue, "--max-lines=2", "-c", plain)
	require.Equal(t, 0, status, errs)
	assert.Equal(t, fmt.Sprintf("%d %s\n", len(want), plain), out)
	out, errs, status = runCmd(t, "", "--start", stackStart, "--max-lines", "2", "--reverse", plain)
	require.Equal(t, 0, status, errs)
	assert.Equal(t, reversed(want), out)
}

// -c on a stack-trace log large enough for sections (4 MiB and more: linereader.Count)
// counts on one core and on two what the entries are: the lines that begin one, and the
// lines before the first.
func TestMultilineCountInSections(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "st.log")
	_, err := corpus.WriteFile(name, corpus.Spec{Shape: "stacktrace", Size: 6 << 20, Seed: 3})
	require.NoError(t, err)
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	re := regexp.MustCompile(stackStart)
	want := 0
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) > 0 && (i == 0 || re.Match(line)) {
			want++
		}
	}
	require.Greater(t, want, 100)
	require.Less(t, want, bytes.Count(data, []byte("\n"))/2, "the shape has entries of many lines")
	for _, jobs := range []string{"1", "2"} {
		out, errs, status := runCmd(t, "", "--start", stackStart, "-c", "-j", jobs, "--buffer", "4KiB", name)
		require.Equal(t, 0, status, errs)
		assert.Equal(t, fmt.Sprintf("%d %s\n", want, name), out, "-j %s", jobs)
	}
	// Read backwards and forwards again, the entries are the file.
	dbl := filepath.Join(dir, "reversed")
	out, errs, status := runCmd(t, "", "--start", stackStart, "--reverse", "--buffer", "4KiB", name)
	require.Equal(t, 0, status, errs)
	require.NoError(t, os.WriteFile(dbl, []byte(out), 0o644))
	out, errs, status = runCmd(t, "", "--start", stackStart, "--reverse", dbl)
	require.Equal(t, 0, status, errs)
	assert.True(t, out == string(data), "--reverse twice is not the file")
}

// The flags of records of many lines that are wrong, or that conflict with flags that
// cut records by rules of their own: one line naming them, status 2.
func TestMultilineUsageErrors(t *testing.T) {
	dir := t.TempDir()
	plain, _ := writeStack(t, dir, "app.log", stackEntries)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--start", "(x"}, "invalid --start argument '(x': missing closing ): `(x`"},
		{[]string{"--continue", `\q`}, "invalid --continue argument '\\q': invalid escape sequence: `\\q`"},
		{[]string{"--start", "a", "--continue", "b"}, "--start and --continue cannot be used together"},
		{[]string{"--max-lines", "3"}, "--max-lines has no effect without --start or --continue"},
		{[]string{"--start", "a", "--max-lines", "-1"}, "invalid --max-lines argument '-1': must be at least 0"},
		{[]string{"--start", "a", "--max-lines", "x"}, "invalid --max-lines argument 'x': not a whole number"},
		{[]string{"--start", "a", "-p"}, "--start and --paragraph cannot be used together"},
		{[]string{"--continue", "a", "--whole"}, "--continue and --whole cannot be used together"},
		{[]string{"--start", "a", "--limit", "10"}, "--start and --limit cannot be used together"},
		{[]string{"--flush", "1s"}, "--flush has no effect without --start or --continue"},
		{[]string{"--start", "a", "--flush", "1s"}, "--flush has no effect without --follow"},
		{[]string{"-f", "--start", "a", "--flush", "soon"}, "invalid --flush argument 'soon': not a duration (examples: 500ms, 2s, 1m)"},
		{[]string{"-f", "--start", "a", "--flush", "0s"}, "invalid --flush argument '0s': must be more than 0"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errs, status := runCmd(t, "", append(tc.args, plain)...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Equal(t, "foreach: "+tc.msg+"\n"+tryHelp, errs)
		})
	}
}

// -f with --start: each entry is printed whole once the next one begins, in whatever
// pieces its lines are written, and one whose next line does not come once the file has
// been quiet for --flush; with --state, an entry held when the command stops is printed
// whole, once, by the next run.
func TestMultilineFollow(t *testing.T) {
	dir := t.TempDir()
	name, state := filepath.Join(dir, "app.log"), filepath.Join(dir, "state")
	f := openLog(t, name)
	held := stackEntries[1:3] // terminated entries
	appendFile(t, f, stackEntries[0]+held[0])
	// A --flush no test waits for: only the next entry's first line ends one.
	p := startFollow(t, "-f", "-n", "--state", state, "--start", stackStart, "--flush", "1h", name)
	p.expect(t, fmt.Sprintf("%6d\t%s", 1, stackEntries[0]))
	appendFile(t, f, held[1][:5])
	appendFile(t, f, held[1][5:])
	p.expect(t, fmt.Sprintf("%6d\t%s", 2, held[0]))
	waitRead(t, p.cmd.Process.Pid, name, int64(len(stackEntries[0]+held[0]+held[1])))
	p.terminate(t, "") // held[1] is held: not printed, and the state names its start

	p = startFollow(t, "-f", "-n", "--state", state, "--start", stackStart, "--flush", "20ms", name)
	p.expect(t, fmt.Sprintf("%6d\t%s", 1, held[1]))
	last := stackEntries[len(stackEntries)-1] + "\r\n"
	appendFile(t, f, last[:len(last)-3])
	appendFile(t, f, last[len(last)-3:])
	p.expect(t, fmt.Sprintf("%6d\t%s", 2, last))
	p.terminate(t, "")
}

// A FIFO followed with --start: an entry written in pieces by one writer after another
// is printed whole, and the last one once the FIFO has been quiet for --flush.
func TestMultilineFollowFIFO(t *testing.T) {
	fifo := testfifo.Make(t, "pipe")
	p := startFollow(t, "-f", "--start", stackStart, "--flush", "20ms", fifo)
	text := strings.Join(stackEntries[:3], "")
	for _, s := range []string{text[:30], text[30:]} {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = w.WriteString(s)
		require.NoError(t, err)
		require.NoError(t, w.Close())
	}
	p.expect(t, text)
	p.terminate(t, "")
}

// -f --last 2 with --start begins with the last two entries, whole, read from the end
// (the last once the file has been quiet for --flush), then what is appended.
func TestMultilineFollowLast(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.log")
	f := openLog(t, name)
	entries := slices.Clone(stackEntries)
	entries[len(entries)-1] += "\r\n" // complete: --last counts complete records
	appendFile(t, f, strings.Join(entries, ""))
	p := startFollow(t, "-f", "-H", "--last", "2", "--start", stackStart, "--flush", "20ms", name)
	n := len(entries)
	p.expect(t, name+":"+entries[n-2]+name+":"+entries[n-1])
	appendFile(t, f, entries[1][:25])
	appendFile(t, f, entries[1][25:])
	p.expect(t, name+":"+entries[1])
	p.terminate(t, "")
}
