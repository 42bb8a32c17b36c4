package decompress_test

import (
	"bytes"
	"errors"
	"go/build"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goSources is about n bytes of real text: the Go distribution's sources of a few
// packages, concatenated.
func goSources(t testing.TB, n int) []byte {
	t.Helper()
	var b []byte
	for _, pkg := range []string{"bufio", "bytes", "strings", "strconv", "fmt", "sort", "encoding/json", "net/http"} {
		names, err := filepath.Glob(filepath.Join(build.Default.GOROOT, "src", pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(names)
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, data...)
			if len(b) >= n {
				return b[:n]
			}
		}
	}
	if len(b) == 0 {
		t.Skip("no Go sources under GOROOT")
	}
	return b
}

// truncatedTools are the formats' compressors and their own decompressors.
var truncatedTools = []struct{ compress, decompress string }{
	{"gzip -c", "gzip -dc"},
	{"gzip -c -1", "gzip -dc"},
	{"bzip2 -c", "bzip2 -dc"},
	{"bzip2 -c -1", "bzip2 -dc"},
	{"xz -c", "xz -dc"},
	{"xz -c -0 -T2 --block-size=256KiB", "xz -dc"},
	{"xz -c --format=lzma", "xz -dc"},
	{"zstd -c -q", "zstd -dc -q"},
	{"zstd -c -q -19", "zstd -dc -q"},
	{"lz4 -c -q", "lz4 -dc -q"},
	{"lz4 -c -q -BD -B4", "lz4 -dc -q"},
}

// TestTruncatedAsTools cuts real compressed files at many points and compares the
// Reader with the format's own tool on the same bytes (issue 37): the Reader yields
// every byte the tool yields (a truncated .xz gave 188-394 KB less than xz -dc, a .gz 2
// bytes less than zcat), only bytes of the input, and then an error that says the
// stream was cut short.
func TestTruncatedAsTools(t *testing.T) {
	size, points := 1<<20, 16
	if testing.Short() || raceEnabled {
		size, points = 256<<10, 6 // still far less than xz's dictionary, which ulikunitz filled before giving out
	}
	input := goSources(t, size)
	for _, tool := range truncatedTools {
		t.Run(tool.compress, func(t *testing.T) {
			stream := compress(t, tool.compress, input)
			cuts := truncationPoints(len(stream), points)
			more := 0
			for _, cut := range cuts {
				theirs, status := decompressWith(t, tool.decompress, stream[:cut])
				ours, err, _ := decode(t, stream[:cut], nil)
				if status == 0 || err == nil {
					t.Fatalf("cut at %d of %d: tool status %d, Reader error %v: want both to fail", cut, len(stream), status, err)
				}
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("cut at %d of %d: %v, want io.ErrUnexpectedEOF", cut, len(stream), err)
				}
				if !bytes.HasPrefix(input, ours) {
					t.Fatalf("cut at %d of %d: the Reader yields %d bytes that are not the input's first", cut, len(stream), len(ours))
				}
				if len(ours) < len(theirs) {
					t.Errorf("cut at %d of %d: the Reader yields %d bytes, %s %d (%d fewer)", cut, len(stream), len(ours), strings.Fields(tool.decompress)[0], len(theirs), len(theirs)-len(ours))
				}
				if len(ours) > len(theirs) {
					more++
				}
			}
			t.Logf("%d cuts; at %d the Reader yields more than the tool", len(cuts), more)
		})
	}
}

// truncationPoints are n points spread over a stream of size bytes, from the end of
// the longest header Detect reads (14 bytes, a .lzma file's and its first byte of data:
// input cut inside it is not recognised, and passes as it is) to the last byte, and
// the few bytes before its end.
func truncationPoints(size, n int) []int {
	var cuts []int
	for i := range n {
		cuts = append(cuts, 14+i*(size-15)/(n-1))
	}
	for k := 1; k <= 4; k++ {
		cuts = append(cuts, size-k)
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}
