package decompress_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/corpus"

	"github.com/foreachio/foreach/internal/testkit/tools"
)

// compress runs a compression tool on input and returns its output, skipping the
// test when the tool did not do its job (internal/testkit/tools).
func compress(t *testing.T, command string, input []byte) []byte {
	t.Helper()
	return tools.Run(t, command, input)
}

// tryCompress runs a compression tool on input and returns its output, and false when
// the tool is not installed, fails, or writes nothing: a tool that did not do its job
// skips a test rather than failing it.
func tryCompress(t *testing.T, command string, input []byte) ([]byte, bool) {
	t.Helper()
	return tools.Output(t, command, input)
}

func generate(t *testing.T, s corpus.Spec) []byte {
	t.Helper()
	b, err := corpus.Bytes(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// toolCommands are the tools' commands the tests compress with: the
// default level and the extremes, and the options that change the
// structure of the stream (blocks, checks, threads).
var toolCommands = []struct {
	format  decompress.Format
	command string
}{
	{decompress.Gzip, "gzip -c"},
	{decompress.Gzip, "gzip -c -1"},
	{decompress.Gzip, "gzip -c -9"},
	{decompress.Zstd, "zstd -c -q"},
	{decompress.Zstd, "zstd -c -q -1"},
	{decompress.Zstd, "zstd -c -q -19"},
	{decompress.Zstd, "zstd -c -q --no-check -T2"},
	{decompress.Zstd, "zstd -c -q --long=27"},
	{decompress.Bzip2, "bzip2 -c"},
	{decompress.Bzip2, "bzip2 -c -1"},
	{decompress.Xz, "xz -c"},
	{decompress.Xz, "xz -c -0 --check=crc32"},
	{decompress.Xz, "xz -c -0 --check=none"},
	{decompress.Xz, "xz -c -0 --check=sha256"},
	{decompress.Xz, "xz -c -0 -T2 --block-size=64KiB"},
	{decompress.Lzma, "xz -c --format=lzma"},
	{decompress.Lzma, "xz -c --format=lzma -0 --lzma1=preset=0,lc=0,lp=4,pb=0"},
	{decompress.Lz4, "lz4 -c -q"},
	{decompress.Lz4, "lz4 -c -q -1"},
	{decompress.Lz4, "lz4 -c -q -12"},
	{decompress.Lz4, "lz4 -c -q -BD -B4"},
	{decompress.Lz4, "lz4 -c -q -BX --no-frame-crc --content-size"},
	{decompress.Lz4, "lz4 -c -q -l"},
}

// TestTools decodes what the tools make of a 512 KiB mixed corpus and of 64
// KiB of random bytes (which the compressors store rather than compress),
// byte for byte.
func TestTools(t *testing.T) {
	inputs := map[string][]byte{
		"mixed":  generate(t, corpus.Spec{Shape: corpus.Mixed, Size: 512 << 10, Seed: 3}),
		"binary": generate(t, corpus.Spec{Shape: corpus.Binary, Size: 64 << 10, Seed: 3}),
	}
	for _, tc := range toolCommands {
		for name, input := range inputs {
			t.Run(tc.command+"/"+name, func(t *testing.T) {
				compressed := compress(t, tc.command, input)
				got, err, f := decode(t, compressed, iotest.HalfReader)
				if err != nil || f != tc.format {
					t.Fatalf("error %v, format %q", err, f)
				}
				if !bytes.Equal(got, input) {
					t.Fatalf("decoded %d bytes that differ from the %d compressed", len(got), len(input))
				}
			})
		}
	}
}

// TestToolsConcatenated joins two streams the tool made of two different
// inputs, as cat a.gz b.gz does, then cuts the result inside the second
// stream: the first input is delivered whole before the error.
func TestToolsConcatenated(t *testing.T) {
	a := generate(t, corpus.Spec{Shape: corpus.Mixed, Size: 200 << 10, Seed: 4})
	b := generate(t, corpus.Spec{Shape: corpus.Tall, Size: 200 << 10, Seed: 5})
	for _, command := range []string{"gzip -c", "zstd -c -q", "bzip2 -c", "xz -c", "lz4 -c -q"} {
		t.Run(command, func(t *testing.T) {
			ca, cb := compress(t, command, a), compress(t, command, b)
			joined := append(append([]byte{}, ca...), cb...)
			got, err, _ := decode(t, joined, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, append(append([]byte{}, a...), b...)) {
				t.Fatalf("decoded %d bytes, want %d + %d", len(got), len(a), len(b))
			}
			cut := len(ca) + len(cb)/2
			got, err, _ = decode(t, joined[:cut], nil)
			if err == nil {
				t.Fatal("cut inside the second stream: no error")
			}
			if !bytes.HasPrefix(got, a) || !bytes.HasPrefix(append(append([]byte{}, a...), b...), got) {
				t.Fatalf("cut inside the second stream: %d bytes decoded, want the first input (%d) and a prefix of the second", len(got), len(a))
			}
		})
	}
}

// TestToolsDamageLate cuts a 1 MiB stream 100 bytes before its end: all
// but the last block is delivered. (bzip2 -1 blocks hold 100 KB of input,
// lz4 -B4 blocks 64 KiB; deflate, zstd and xz deliver up to the cut.)
func TestToolsDamageLate(t *testing.T) {
	input := generate(t, corpus.Spec{Shape: corpus.Mixed, Size: 1 << 20, Seed: 6})
	for _, command := range []string{"gzip -c", "zstd -c -q", "bzip2 -c -1", "xz -c -1", "lz4 -c -q -B4"} {
		t.Run(command, func(t *testing.T) {
			c := compress(t, command, input)
			got, err, _ := decode(t, c[:len(c)-100], nil)
			if err == nil {
				t.Fatal("no error")
			}
			if !bytes.HasPrefix(input, got) {
				t.Fatalf("%d bytes decoded that are not a prefix of the input", len(got))
			}
			if len(got) < len(input)-200<<10 {
				t.Fatalf("%d of %d bytes decoded before the damage near the end", len(got), len(input))
			}
		})
	}
}

// TestToolsEmpty: each tool's stream of empty input gives nothing and no
// error.
func TestToolsEmpty(t *testing.T) {
	for _, command := range []string{"gzip -c", "zstd -c -q", "bzip2 -c", "xz -c", "lz4 -c -q"} {
		t.Run(command, func(t *testing.T) {
			got, err, f := decode(t, compress(t, command, nil), nil)
			if err != nil || len(got) != 0 || f == decompress.None {
				t.Fatalf("%q, %v, format %q", got, err, f)
			}
		})
	}
}

// TestToolsZstdWindowLimit: like zstd -d without --memory, the Reader
// reads frames with windows up to 128 MiB (--long=27) and refuses larger
// ones (--long=28) before allocating them.
func TestToolsZstdWindowLimit(t *testing.T) {
	input := bytes.Repeat([]byte("0123456789\n"), 100)
	got, err, _ := decode(t, compress(t, "zstd -c -q --long=27", input), nil)
	if err != nil || !bytes.Equal(got, input) {
		t.Fatalf("--long=27: %v, %d bytes", err, len(got))
	}
	got, err, _ = decode(t, compress(t, "zstd -c -q --long=28", input), nil)
	if err == nil || len(got) != 0 {
		t.Fatalf("--long=28: %d bytes, error %v; want none and an error", len(got), err)
	}
	if !errors.Is(err, zstd.ErrWindowSizeExceeded) && !errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		t.Fatalf("--long=28: %v, want the window refused", err)
	}
}

// decompressWith runs the decompressing command of a format's tool on
// input and returns what it wrote and its exit status.
func decompressWith(t *testing.T, command string, input []byte) ([]byte, int) {
	t.Helper()
	args := strings.Fields(command)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), 0
	case errors.As(err, &ee):
		return out.Bytes(), ee.ExitCode()
	}
	t.Fatalf("%s: %v", command, err)
	return nil, 0
}

// TestToolsTrailing compares the Reader with each format's own tool on a
// complete stream followed by zero padding or by garbage, and on two joined
// streams cut at every byte of the second. Where they agree: every tool
// writes every byte of the complete stream, as the Reader delivers it; a
// stream cut short is an error for both. Where they differ, by design (the
// Reader reads every format as zcat reads gzip): padding is silent here,
// where zstd and lz4 refuse it, xz refuses it unless in fours and bzip2
// warns; garbage is trailing data here (a warning for the command), where
// zstd, xz and lz4 fail and bzip2 warns with status 0 (gzip itself takes
// a single byte of garbage for a member cut short). The tools' exit
// statuses are logged.
func TestToolsTrailing(t *testing.T) {
	content := generate(t, corpus.Spec{Shape: corpus.Mixed, Size: 64 << 10, Seed: 8})
	tools := []struct{ compress, decompress string }{
		{"gzip -c", "gzip -dc"},
		{"zstd -c -q", "zstd -dc -q"},
		{"bzip2 -c", "bzip2 -dc -q"},
		{"xz -c", "xz -dc -q"},
		{"lz4 -c -q", "lz4 -dc -q"},
	}
	for _, tool := range tools {
		t.Run(tool.compress, func(t *testing.T) {
			stream := compress(t, tool.compress, content)
			tiny := compress(t, tool.compress, []byte("c\n"))
			var statuses []string
			for _, tail := range []string{"\x00", "\x00\x00\x00\x00", strings.Repeat("\x00", 512), "x", "garbage\n", "\x00\x00\x00\x00garbage"} {
				input := append(append([]byte{}, stream...), tail...)
				theirs, status := decompressWith(t, tool.decompress, input)
				ours, err, _ := decode(t, input, nil)
				if !bytes.Equal(ours, content) || !bytes.Equal(theirs, content) {
					t.Fatalf("followed by %q: the Reader gave %d bytes, the tool %d, of %d", tail, len(ours), len(theirs), len(content))
				}
				if trailing := tail[len(tail)-1] != 0; trailing != (err != nil) {
					t.Fatalf("followed by %q: %v", tail, err)
				}
				statuses = append(statuses, fmt.Sprintf("%.8q: %d", tail, status))
			}
			t.Logf("%s after a complete stream, exit status: %s", tool.decompress, strings.Join(statuses, ", "))

			joined := append(append([]byte{}, stream...), tiny...)
			whole := append(append([]byte{}, content...), "c\n"...)
			for cut := len(stream) + 1; cut < len(joined); cut++ {
				theirs, status := decompressWith(t, tool.decompress, joined[:cut])
				ours, err, _ := decode(t, joined[:cut], nil)
				if status == 0 || !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("cut at %d of %d: the tool's status %d, the Reader's error %v", cut, len(joined), status, err)
				}
				if !bytes.HasPrefix(ours, content) || !bytes.HasPrefix(whole, ours) || !bytes.HasPrefix(whole, theirs) {
					t.Fatalf("cut at %d: the Reader gave %d bytes, the tool %d", cut, len(ours), len(theirs))
				}
			}
		})
	}
}

// TestAptLists reads the package lists apt keeps as lz4 frames, where
// there are any, and compares them with lz4cat's output, byte for byte.
func TestAptLists(t *testing.T) {
	names, _ := filepath.Glob("/var/lib/apt/lists/*.lz4")
	if len(names) == 0 {
		t.Skip("no lz4 package lists in /var/lib/apt/lists")
	}
	if _, err := exec.LookPath("lz4cat"); err != nil {
		t.Skip("lz4cat is not installed")
	}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		input, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, status := decompressWith(t, "lz4cat", input)
		if status != 0 {
			t.Fatalf("lz4cat %s: status %d", name, status)
		}
		got, err, f := decode(t, input, nil)
		if err != nil || f != decompress.Lz4 || !bytes.Equal(got, want) {
			t.Fatalf("%s: %v, format %q, %d bytes; lz4cat gave %d", name, err, f, len(got), len(want))
		}
		t.Logf("%s: %d bytes, %d lines", filepath.Base(name), len(got), bytes.Count(got, []byte("\n")))
	}
}

// TestToolsXzFilters: what xz makes with each of its filters (the branch converters
// for x86, PowerPC, IA-64, ARM, ARM-Thumb, ARM64, SPARC and RISC-V, and delta), alone,
// with a start offset and in a chain, decodes to the input, read whole and one byte at
// a time from its source. A filter the installed xz does not have (RISC-V before xz
// 5.6) is skipped, said in the log; the suites' files cover it (TestSuites).
func TestToolsXzFilters(t *testing.T) {
	input := append(goSources(t, 96<<10), generate(t, corpus.Spec{Shape: corpus.Binary, Size: 32 << 10, Seed: 9})...)
	for _, filters := range []string{"--x86", "--x86=start=3", "--powerpc", "--ia64", "--arm", "--armthumb",
		"--arm64", "--arm64=start=4096", "--sparc", "--riscv", "--riscv=start=2", "--delta=dist=4",
		"--delta=dist=256", "--delta=dist=3 --x86", "--arm --armthumb --sparc"} {
		t.Run(filters, func(t *testing.T) {
			c, ok := tryCompress(t, "xz -c -T1 "+filters+" --lzma2=preset=1", input)
			if !ok {
				t.Skipf("xz %s: the installed xz does not make it", filters)
			}
			for _, wrap := range []func(io.Reader) io.Reader{nil, iotest.OneByteReader} {
				got, err, _ := decode(t, c, wrap)
				if err != nil || !bytes.Equal(got, input) {
					t.Fatalf("%d of %d bytes, %v", len(got), len(input), err)
				}
			}
		})
	}
}
