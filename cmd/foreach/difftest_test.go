package main

// The differential test of every mode against the tool it copies (issue 37): random
// inputs shaped to meet the command's edges, each mode run through several --buffer
// sizes and compared byte for byte with cat, cat -n, grep -H, grep -Hn, grep -zHn,
// wc -l, tail -n, tail -z -n, tac, tac -s, zcat, xz -dc, bzcat, zstdcat and lz4cat.
// Where a tool and the command differ on purpose, knownDifferences says so: the only
// place the test adjusts what a tool printed. In the suite it runs a few cases per mode
// from fixed seeds; benchmarks/difftest.sh runs many more (-diff.cases, -diff.seed).

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

var (
	diffCases = flag.Int("diff.cases", 0, "random cases per mode of TestDiffAgainstTools (0: the suite's few)")
	diffSeed  = flag.Uint64("diff.seed", 37, "seed of TestDiffAgainstTools's cases")
)

// diffMode is one mode of the command and the tool it copies.
type diffMode struct {
	name    string
	flags   []string // the command's flags
	tool    []string // the tool's command line before the files
	sep     []byte   // the separator the inputs are shaped around
	files   int      // at most this many inputs per case
	compact bool     // inputs of at most a few hundred KB (the compressing modes)
	// compress makes a compressed input of plain, with the compressor that the tool's
	// format is made by; nil for plain inputs.
	compress []string
	// last: the mode takes --last N (tail -n N), N drawn per case.
	last bool
}

// diffModes are the modes compared, each with its tool.
var diffModes = []diffMode{
	{name: "cat", tool: []string{"cat"}, sep: []byte("\n"), files: 6},
	{name: "cat -n", flags: []string{"-n"}, tool: []string{"cat", "-n"}, sep: []byte("\n"), files: 6},
	{name: "grep -H", flags: []string{"-H"}, tool: []string{"grep", "-aH", ""}, sep: []byte("\n"), files: 6},
	{name: "grep -Hn", flags: []string{"-H", "-n"}, tool: []string{"grep", "-aHn", ""}, sep: []byte("\n"), files: 6},
	{name: "grep -zHn", flags: []string{"-0", "-H", "-n"}, tool: []string{"grep", "-zaHn", ""}, sep: []byte{0}, files: 4},
	{name: "wc -l", flags: []string{"-c"}, tool: []string{"wc", "-l"}, sep: []byte("\n"), files: 6},
	{name: "tail -n", tool: []string{"tail", "-n"}, sep: []byte("\n"), files: 4, last: true},
	{name: "tail -z -n", flags: []string{"-0"}, tool: []string{"tail", "-z", "-n"}, sep: []byte{0}, files: 3, last: true},
	{name: "tac", flags: []string{"--reverse"}, tool: []string{"tac"}, sep: []byte("\n"), files: 4},
	{name: "tac -s ';'", flags: []string{"--reverse", "--sep", ";"}, tool: []string{"tac", "-s", ";"}, sep: []byte(";"), files: 3},
	{name: "tac -s CRLF", flags: []string{"--reverse", "--sep", `\r\n`}, tool: []string{"tac", "-s", "\r\n"}, sep: []byte("\r\n"), files: 3},
	{name: "zcat", flags: []string{"-z"}, tool: []string{"zcat"}, sep: []byte("\n"), files: 3, compact: true, compress: []string{"gzip", "-c"}},
	{name: "xz -dc", flags: []string{"-z"}, tool: []string{"xz", "-dc"}, sep: []byte("\n"), files: 3, compact: true, compress: []string{"xz", "-c", "-T1"}},
	{name: "bzcat", flags: []string{"-z"}, tool: []string{"bzcat"}, sep: []byte("\n"), files: 3, compact: true, compress: []string{"bzip2", "-c"}},
	{name: "zstdcat", flags: []string{"-z"}, tool: []string{"zstdcat"}, sep: []byte("\n"), files: 3, compact: true, compress: []string{"zstd", "-c", "-q"}},
	{name: "lz4cat", flags: []string{"-z"}, tool: []string{"lz4cat"}, sep: []byte("\n"), files: 3, compact: true, compress: []string{"lz4", "-c", "-q"}},
}

// knownDifference is where a tool differs from the command on purpose, or by a quirk
// of its own, in one mode.
type knownDifference struct {
	// adjust turns what the tool printed for c into what the command prints; nil: the
	// same bytes.
	adjust func(c *diffCase, tool []byte) []byte
	// silentStatus is the tool's exit status for a case whose inputs are all empty,
	// where the command exits 0.
	silentStatus int
	// stdinAlone: the tool reads standard input ("-") only when it is the one input.
	stdinAlone bool
	// perFile: the tool is run on each input alone and its outputs put end to end,
	// which is what it prints for them all at once when it does not fail.
	perFile bool
}

// knownDifferences are the known differences, by mode: the one place the test adjusts
// what a tool did.
//
//   - wc -l counts newlines and the command counts records: a file whose last record
//     has no newline counts one more (and so does the total); and wc pads its counts to
//     a common width where the command writes "COUNT NAME" (docs/cli.md, -c).
//   - grep exits 1 when no line was selected (every input empty): the command has
//     printed every record of its inputs, and exits 0.
//   - bzcat (bzip2) and lz4cat take an argument that begins with "-" for a flag, "-"
//     too: among named files they do not read standard input, which the command does.
//   - tac (coreutils 9.1) fails with "memory exhausted" on a file after one holding a
//     record of 70,000 bytes (not of 100,000 or 131,071): it is run on each file alone.
//   - tail -n 0 prints nothing and opens nothing: the command prints no header either,
//     but still reports a file it cannot read (no case here has one).
var knownDifferences = map[string]knownDifference{
	"wc -l":       {adjust: wcAsCount},
	"grep -H":     {silentStatus: 1},
	"grep -Hn":    {silentStatus: 1},
	"grep -zHn":   {silentStatus: 1},
	"bzcat":       {stdinAlone: true},
	"lz4cat":      {stdinAlone: true},
	"tac":         {perFile: true},
	"tac -s ';'":  {perFile: true},
	"tac -s CRLF": {perFile: true},
}

// wcAsCount is wc -l's output as -c prints it for c.
func wcAsCount(c *diffCase, tool []byte) []byte {
	var out []byte
	extra := 0
	sc := bufio.NewScanner(bytes.NewReader(tool))
	for i := 0; sc.Scan(); i++ {
		count, name, _ := strings.Cut(strings.TrimLeft(sc.Text(), " "), " ")
		n, err := strconv.Atoi(count)
		if err != nil {
			panic(fmt.Sprintf("wc -l printed %q", sc.Text()))
		}
		if i < len(c.inputs) {
			if d := c.inputs[i].plain; len(d) > 0 && d[len(d)-1] != '\n' {
				n++
				extra++
			}
		} else {
			n += extra // the total
		}
		if name == "" {
			out = fmt.Appendf(out, "%d\n", n)
		} else {
			out = fmt.Appendf(out, "%d %s\n", n, name)
		}
	}
	return out
}

// toolStatus is the tool's exit status for c that stands for the command's 0.
func toolStatus(m diffMode, c *diffCase) int {
	if !slices.ContainsFunc(c.inputs, func(in diffInput) bool { return len(in.plain) > 0 }) {
		return knownDifferences[m.name].silentStatus
	}
	return 0
}

// diffInput is one input of a case: a file under name, or standard input ("-").
type diffInput struct {
	name  string
	plain []byte // its records' bytes
	data  []byte // what is read: plain, or plain compressed
}

// diffCase is one random case of a mode.
type diffCase struct {
	inputs  []diffInput
	last    int   // --last's N, for the modes that take one
	buffers []int // the --buffer sizes to run the command with (0: the default)
}

// edgeSizes are the sizes a record's end is placed near: the read sizes the cases use,
// the engine's and the command's default buffers (64 and 128 KiB), the output buffer
// (256 KiB) and the size from which a write skips it (32 KiB).
var edgeSizes = []int{7, 4096, directWrite, 64 << 10, 128 << 10, outBufferSize}

// diffContent is what records hold: bytes of every kind the edges care about (CR for
// CRLF, NUL, bytes that are not UTF-8, a UTF-8 character), and the separator's own.
const diffContent = "ab \r\x00\xff\xe3\x81\x82;\n"

// newDiffCase draws a case for m: one to m.files inputs, each empty, short, shaped so
// that records end near the edge sizes, or holding a long record; standard input now
// and then; names short and long.
func newDiffCase(rng *rand.Rand, m diffMode) *diffCase {
	c := &diffCase{}
	n := 1 + rng.IntN(m.files)
	stdin := -1
	if rng.IntN(5) == 0 && (n == 1 || !knownDifferences[m.name].stdinAlone) {
		stdin = rng.IntN(n)
	}
	for i := range n {
		name := "-"
		if i != stdin {
			name = fmt.Sprintf("%c%s", 'a'+i, strings.Repeat("_", []int{0, 0, 4, 120}[rng.IntN(4)]))
			if rng.IntN(10) == 0 {
				name += " x" // a space: grep and tail print names as they are
			}
		}
		c.inputs = append(c.inputs, diffInput{name: name, plain: diffData(rng, m.sep, m.compact)})
	}
	if m.last {
		c.last = []int{0, 1, 2, 3, 10, 100, 5000}[rng.IntN(7)]
	}
	total := 0
	for _, in := range c.inputs {
		total += len(in.plain)
	}
	sizes := []int{0, 7, 4096, 64 << 10}
	if total < 200<<10 {
		sizes = append(sizes, 1)
	}
	rng.Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	c.buffers = sizes[:3]
	return c
}

// diffData is one input's records, separated by sep: empty, a few short records,
// records placed to end within a few bytes of multiples of the edge sizes, or a long
// record among short ones; with a last record left unterminated a third of the time.
// compact keeps it to a few hundred KB.
func diffData(rng *rand.Rand, sep []byte, compact bool) []byte {
	var b []byte
	record := func(n int) {
		for range n {
			c := diffContent[rng.IntN(len(diffContent))]
			if bytes.IndexByte(sep, c) >= 0 {
				c = 'x' // a record holds no byte of its separator, so that its end is where it was placed
			}
			b = append(b, c)
		}
		b = append(b, sep...)
	}
	short := func() {
		for range rng.IntN(40) {
			record([]int{0, 1, 2, 5, 30, 80}[rng.IntN(6)])
		}
	}
	switch rng.IntN(8) {
	case 0:
		return nil
	case 1, 2, 3:
		short()
	case 4, 5, 6:
		// Records end at k*size+d for an edge size, d within a few bytes either side.
		sizes := edgeSizes
		if compact {
			sizes = sizes[:4]
		}
		size := sizes[rng.IntN(len(sizes))]
		for k := 1; k <= 1+rng.IntN(2); k++ {
			end := k*size + rng.IntN(9) - 4 - len(sep)
			if end > len(b) {
				record(end - len(b))
			}
			short()
		}
	default:
		short()
		n := 300<<10 + rng.IntN(300<<10)
		if compact {
			n = 70<<10 + rng.IntN(70<<10)
		}
		record(n)
		short()
	}
	if rng.IntN(3) == 0 {
		b = append(b, "end"[:1+rng.IntN(3)]...)
	}
	return b
}

// write writes c's files into the current directory (compressed with m.compress), and
// returns the names to give the command and the tool, and what goes on standard input.
func (c *diffCase) write(t *testing.T, m diffMode) (names []string, stdin []byte) {
	t.Helper()
	for i := range c.inputs {
		in := &c.inputs[i]
		in.data = in.plain
		if m.compress != nil {
			// Skipped when the compressor did not do its job (internal/testkit/tools).
			in.data = tools.Run(t, strings.Join(m.compress, " "), in.plain)
		}
		if in.name == "-" {
			stdin = in.data
		} else if err := os.WriteFile(in.name, in.data, 0o666); err != nil {
			t.Fatal(err)
		}
		names = append(names, in.name)
	}
	return names, stdin
}

// diffTally is what one mode ran.
type diffTally struct {
	cases, runs, bytes int
}

// TestDiffAgainstTools runs each mode of diffModes over random cases against its tool.
// In the suite each mode runs a few cases (fewer with -short or the race detector);
// -diff.cases sets the number, -diff.seed the seed (benchmarks/difftest.sh). Every
// mode logs how many cases and runs it made.
func TestDiffAgainstTools(t *testing.T) {
	cases := 8
	if testing.Short() || raceEnabled {
		cases = 2
	}
	if *diffCases > 0 {
		cases = *diffCases
	}
	t.Chdir(t.TempDir()) // the names as given are what grep, tail and -H print
	for i, m := range diffModes {
		t.Run(m.name, func(t *testing.T) {
			for _, tool := range [][]string{m.tool, m.compress} {
				if len(tool) > 0 {
					if _, err := exec.LookPath(tool[0]); err != nil {
						t.Skipf("no %s", tool[0])
					}
				}
			}
			rng := rand.New(rand.NewPCG(*diffSeed, uint64(i)))
			var tally diffTally
			for k := range cases {
				c := newDiffCase(rng, m)
				runDiffCase(t, m, c, fmt.Sprintf("seed %d, case %d", *diffSeed, k), &tally)
			}
			t.Logf("%s: %d cases, %d runs of the command, %d input bytes, no difference", m.name, tally.cases, tally.runs, tally.bytes)
		})
	}
}

// runDiffCase writes c, runs the tool once and the command at each of c's buffer
// sizes, and fails t at the first byte where they differ.
func runDiffCase(t *testing.T, m diffMode, c *diffCase, which string, tally *diffTally) {
	t.Helper()
	names, stdin := c.write(t, m)
	defer func() {
		for _, name := range names {
			if name != "-" {
				os.Remove(name)
			}
		}
	}()
	toolArgs := slices.Clone(m.tool)
	flags := slices.Clone(m.flags)
	if m.last {
		toolArgs = append(toolArgs, strconv.Itoa(c.last))
		flags = append(flags, "--last", strconv.Itoa(c.last))
	}
	known := knownDifferences[m.name]
	var want []byte
	if known.perFile {
		for _, name := range names {
			want = append(want, runTool(t, which, toolArgs, []string{name}, stdin, 0)...)
		}
	} else {
		want = runTool(t, which, toolArgs, names, stdin, toolStatus(m, c))
	}
	if adjust := known.adjust; adjust != nil {
		want = adjust(c, want)
	}
	tally.cases++
	for _, in := range c.inputs {
		tally.bytes += len(in.plain)
	}
	for _, size := range c.buffers {
		args := slices.Clone(flags)
		if size > 0 {
			args = append(args, "--buffer="+strconv.Itoa(size))
		}
		args = append(args, names...)
		var out, errb bytes.Buffer
		got := run(args, bytes.NewReader(stdin), &out, &errb)
		tally.runs++
		if got != 0 || !bytes.Equal(out.Bytes(), want) {
			i := firstDiff(out.String(), string(want))
			lo := max(0, i-40)
			t.Fatalf("%s: foreach %q: status %d %s\ndiffers from %q (inputs of %v bytes) at byte %d of %d (got %d):\ngot  %q\nwant %q",
				which, args, got, errb.String(), toolArgs, inputSizes(c), i, len(want), out.Len(),
				clip(out.Bytes(), lo, i+40), clip(want, lo, i+40))
		}
	}
}

// runTool runs the tool's command line over names, with stdin on its standard input,
// in the C locale, and returns what it printed; it fails t unless the tool exits with
// status.
func runTool(t *testing.T, which string, tool, names []string, stdin []byte, status int) []byte {
	t.Helper()
	cmd := exec.Command(tool[0], append(tool[1:], names...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%q: %v", tool, err)
	}
	if got != status {
		t.Fatalf("%s: %q %q exited %d: %s", which, tool, names, got, ee.Stderr)
	}
	return out
}

func inputSizes(c *diffCase) []int {
	var n []int
	for _, in := range c.inputs {
		n = append(n, len(in.plain))
	}
	return n
}

func clip(b []byte, lo, hi int) []byte { return b[min(lo, len(b)):min(hi, len(b))] }
