package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// printFlags are the flags of a printing mode that the reference printer knows: -n, -H,
// -C, --ors and --sep (nil: the default, "\n").
type printFlags struct {
	number, withName, chomp bool
	ors                     []byte // nil: no --ors
	sep                     []byte // nil: no --sep
}

// args are the command-line flags that select f.
func (f printFlags) args() []string {
	var a []string
	if f.number {
		a = append(a, "-n")
	}
	if f.withName {
		a = append(a, "-H")
	}
	if f.chomp {
		a = append(a, "-C")
	}
	if f.ors != nil {
		a = append(a, "--ors="+escapeArg(f.ors))
	}
	if f.sep != nil {
		a = append(a, "--sep="+escapeArg(f.sep))
	}
	return a
}

// escapeArg writes b in the escapes --sep and --ors understand, every byte as \xHH.
func escapeArg(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		fmt.Fprintf(&s, `\x%02x`, c)
	}
	return s.String()
}

// refPrint is what the command prints for inputs named names with the flags f, written
// for obviousness rather than speed: each input cut after every separator; each record
// chomped with -C (the default separator takes "\r\n" too), prefixed with "NAME:" with
// -H, numbered as cat -n does (counting across inputs) or with -H as grep -n does (from
// 1 in each input), then --ors (with -C, "\n" by default), or with -H the separator when
// the record lacks one. An unterminated last record runs on into the next input's first
// record, which then has no prefix of its own and shares its line number.
func refPrint(inputs [][]byte, names []string, f printFlags) []byte {
	sep, ors := f.sep, f.ors
	if sep == nil {
		sep = []byte("\n")
	}
	if ors == nil && f.chomp {
		ors = []byte("\n")
	}
	var out []byte
	line, midLine := 0, false
	for i, in := range inputs {
		if f.withName {
			line = 0
		}
		for j, rec := range splitAfter(in, sep) {
			if j == 0 && midLine {
				line-- // the rest of the line before
			} else {
				if f.withName {
					out = append(out, names[i]+":"...)
				}
				switch {
				case f.number && f.withName:
					out = fmt.Appendf(out, "%d:", line+1)
				case f.number:
					out = fmt.Appendf(out, "%6d\t", line+1)
				}
			}
			line++
			ended := bytes.HasSuffix(rec, sep)
			if f.chomp && ended {
				rec = rec[:len(rec)-len(sep)]
				if string(sep) == "\n" {
					rec = bytes.TrimSuffix(rec, []byte("\r"))
				}
			}
			out = append(out, rec...)
			switch {
			case ors != nil:
				out, ended = append(out, ors...), true
			case !ended && f.withName:
				out, ended = append(out, sep...), true
			}
			midLine = !ended
		}
	}
	return out
}

// splitAfter cuts in after every sep: the records of a forward read, the last one
// perhaps unterminated.
func splitAfter(in, sep []byte) [][]byte {
	var records [][]byte
	for len(in) > 0 {
		n := len(in)
		if i := bytes.Index(in, sep); i >= 0 {
			n = i + len(sep)
		}
		records, in = append(records, in[:n]), in[n:]
	}
	return records
}

// printCase is one run of the printer: inputs written under names in a directory (one
// of them may be standard input, "-"), the flags, the read size and the size of the
// output buffer.
type printCase struct {
	inputs  [][]byte
	names   []string // as given on the command line; "-" is standard input
	flags   printFlags
	buffer  int // --buffer
	outSize int // the output buffer's size
}

// check runs c in dir (which holds its files under their names) and fails t where the
// output is not the reference printer's, or the command failed or panicked.
func (c printCase) check(t *testing.T, dir string) {
	t.Helper()
	labels := make([]string, len(c.names))
	stdin := ""
	args := append(c.flags.args(), "--buffer="+strconv.Itoa(c.buffer))
	for i, name := range c.names {
		if name == "-" {
			labels[i], stdin = stdinName, string(c.inputs[i])
		} else {
			name = filepath.Join(dir, name)
			labels[i] = name
			if err := os.WriteFile(name, c.inputs[i], 0o666); err != nil {
				t.Fatal(err)
			}
		}
		args = append(args, name)
	}
	want := refPrint(c.inputs, labels, c.flags)
	var out, errb bytes.Buffer
	status := runWith(args, strings.NewReader(stdin), &out, &errb, c.outSize)
	if status != 0 || out.String() != string(want) {
		t.Fatalf("foreach %q with a %d-byte output buffer: status %d %s\ndiffers from the reference at byte %d of %d\ngot  %.400q\nwant %.400q",
			args, c.outSize, status, errb.String(), firstDiff(out.String(), string(want)), len(want), out.String(), want)
	}
}

// randomPrintCase draws a case whose records, names and prefixes end near every offset
// of a small output buffer: many short records (empty lines among them), some about the
// buffer's size, an unterminated last record now and then, names from 1 byte to longer
// than the buffer.
func randomPrintCase(rng *rand.Rand) printCase {
	seps := [][]byte{nil, []byte(";"), []byte("\r\n"), []byte("ab"), []byte("\x00")}
	orses := [][]byte{nil, nil, []byte("|"), []byte("<>"), bytes.Repeat([]byte("="), 40)}
	c := printCase{
		flags: printFlags{
			number: rng.IntN(2) == 0, withName: rng.IntN(2) == 0, chomp: rng.IntN(4) == 0,
			ors: orses[rng.IntN(len(orses))], sep: seps[rng.IntN(len(seps))],
		},
		buffer:  []int{1, 3, 16, 100, 4096, 128 << 10}[rng.IntN(6)],
		outSize: 1 + rng.IntN(600),
	}
	if rng.IntN(8) == 0 {
		c.outSize, c.buffer = outBufferSize, max(c.buffer, 4096)
	}
	sep := c.flags.sep
	if sep == nil {
		sep = []byte("\n")
	}
	files := 1 + rng.IntN(4)
	stdin := -1
	if rng.IntN(4) == 0 {
		stdin = rng.IntN(files)
	}
	for i := range files {
		name := "-"
		if i != stdin {
			name = fmt.Sprintf("%d%s", i, strings.Repeat("n", rng.IntN([]int{3, 30, 250}[rng.IntN(3)])))
		}
		c.names = append(c.names, name)
		c.inputs = append(c.inputs, randomRecords(rng, sep, c.outSize))
	}
	return c
}

// randomRecords is records ending with sep, of lengths around 0, a few bytes, and near
// size, the last one unterminated a third of the time: up to a few hundred for a small
// size; for the command's own buffer, about a buffer's worth of short ones and a
// couple of long ones.
func randomRecords(rng *rand.Rand, sep []byte, size int) []byte {
	var b []byte
	records, long := rng.IntN(300), 10
	if size > 4096 {
		records, long = rng.IntN(size/4), size/2
	}
	for range records {
		n := rng.IntN(8)
		switch rng.IntN(long) {
		case 0:
			n = 0
		case 1:
			n = max(0, size-20+rng.IntN(40))
		}
		for range n {
			b = append(b, "xy\r\x00\xff"[rng.IntN(5)])
		}
		b = append(b, sep...)
	}
	if rng.IntN(3) == 0 {
		b = append(b, "tail"[:1+rng.IntN(4)]...)
	}
	return b
}

// The printer against the reference, over random records, names, flags, read sizes and
// output buffer sizes (the 256 KiB of the command now and then): no store may go past
// the room the printer checked, which with a small buffer a case reaches at every
// offset of it.
func TestPrinterMatchesReference(t *testing.T) {
	t.Chdir(t.TempDir()) // names as typed, short or long, are the labels of -H
	rng := rand.New(rand.NewPCG(37, 1))
	cases := 300
	switch {
	case raceEnabled:
		cases = 15 // the printer starts no goroutine; the race detector makes each case ten times slower
	case testing.Short():
		cases = 60
	}
	for range cases {
		randomPrintCase(rng).check(t, ".")
	}
}

// FuzzPrinter is TestPrinterMatchesReference with the fuzzer choosing the case: seed,
// flags and sizes from its integers, one input from its bytes (the rest drawn).
func FuzzPrinter(f *testing.F) {
	f.Add(uint64(1), uint8(0b0011), uint16(257), []byte("a\n\nb"))
	f.Add(uint64(2), uint8(0b0101), uint16(9), []byte("xx;y;"))
	f.Add(uint64(3), uint8(0b1110), uint16(1), []byte(""))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, seed uint64, flags uint8, outSize uint16, in []byte) {
		rng := rand.New(rand.NewPCG(seed, uint64(flags)))
		c := randomPrintCase(rng)
		c.flags.number, c.flags.withName, c.flags.chomp = flags&1 != 0, flags&2 != 0, flags&4 != 0
		c.outSize = 1 + int(outSize)%2048
		c.inputs[0] = in
		if c.names[0] == "-" {
			c.names[0] = "0"
		}
		c.check(t, dir)
	})
}

// Issue 37: the panic of -H -n. A file named a whose 857 lines are about 300 bytes
// (the first 301, the others 300), then an empty line: its record, "a:858:\n", comes
// when 9 bytes of the 256 KiB output buffer are left, where the number was written as
// one 8-byte store after the 2-byte label, past the room checked (slice bounds out of
// range [:262145] with capacity 262144; lines of 1,366 bytes do it at line 192).
func TestWithFilenameNumberNearBufferEndIssue37(t *testing.T) {
	t.Chdir(t.TempDir())
	line := append(bytes.Repeat([]byte("x"), 299), '\n')
	in := append([]byte("x"), bytes.Repeat(line, 857)...)
	in = append(in, "\nafter\n"...)
	c := printCase{inputs: [][]byte{in}, names: []string{"a"}, flags: printFlags{number: true, withName: true},
		buffer: 128 << 10, outSize: outBufferSize}
	c.check(t, ".")
}
