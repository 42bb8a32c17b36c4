package pgzip_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"go.uber.org/goleak"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
	"github.com/foreachio/foreach/internal/pgzip"
)

// Every test leaves no goroutine behind: a Reader's workers stop at the end
// of the file, on an error, or at Close.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// result is what a reader gave: its bytes, and its error described with
// everything a caller can reach (the message, a *decompress.Error's offset,
// a *CorruptError's bit).
type result struct {
	text []byte
	err  string
}

func describe(err error) string {
	if err == nil {
		return "<nil>"
	}
	s := err.Error()
	var de *decompress.Error
	if errors.As(err, &de) {
		s += fmt.Sprintf(" [format %q offset %d]", de.Format, de.Offset)
	}
	var ce *inflate.CorruptError
	if errors.As(err, &ce) {
		s += fmt.Sprintf(" [bit %d]", ce.Bit)
	}
	for _, e := range []error{io.ErrUnexpectedEOF, decompress.ErrTrailingData, inflate.ErrChecksum, inflate.ErrHeader, inflate.ErrCorrupt} {
		if errors.Is(err, e) {
			s += fmt.Sprintf(" [is %q]", e)
		}
	}
	return s
}

// readAll reads r to its end or error in reads of an odd size, as a reader
// of records does: a Read that returns bytes with an error would lose them.
func readAll(t testing.TB, r io.Reader) result {
	t.Helper()
	var out []byte
	buf := make([]byte, 40<<10+7)
	for empty := 0; ; {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if n > 0 && err != nil && err != io.EOF {
			t.Fatalf("Read returned %d bytes with an error %v", n, err)
		}
		if err == io.EOF {
			return result{out, describe(nil)}
		}
		if err != nil {
			return result{out, describe(err)}
		}
		if n == 0 {
			if empty++; empty == 100 {
				t.Fatal("Read returned 0, nil 100 times in a row")
			}
		}
	}
}

// sequential is the reference: decompress.NewReader over the file.
func sequential(t testing.TB, file []byte) result {
	t.Helper()
	r := decompress.NewReader(bytes.NewReader(file))
	defer r.Close()
	return readAll(t, r)
}

func parallel(t testing.TB, file []byte, opt pgzip.Options) (result, pgzip.Stats) {
	t.Helper()
	r := pgzip.NewReader(bytes.NewReader(file), int64(len(file)), opt)
	defer r.Close()
	res := readAll(t, r)
	return res, r.Stats()
}

// same checks that the parallel Reader gives what the sequential one gives,
// with every option given, and returns the stats of the last.
func same(t testing.TB, name string, file []byte, opts ...pgzip.Options) pgzip.Stats {
	t.Helper()
	want := sequential(t, file)
	var st pgzip.Stats
	for _, opt := range opts {
		var got result
		got, st = parallel(t, file, opt)
		if testing.Verbose() {
			t.Logf("%s, %+v: %+v", name, opt, st)
		}
		if got.err != want.err || !bytes.Equal(got.text, want.text) {
			t.Fatalf("%s, %+v: %d bytes, %s; sequentially %d bytes, %s; the first difference at %d",
				name, opt, len(got.text), got.err, len(want.text), want.err, firstDiff(got.text, want.text))
		}
	}
	return st
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// smallChunks are options that cut a file of a few MiB into many chunks.
var smallChunks = []pgzip.Options{
	{Workers: 2, ChunkSize: 24 << 10},
	{Workers: 3, ChunkSize: 10 << 10},
	{Workers: 2, ChunkSize: 64 << 10, MaxChunkText: 100 << 10},
}

// goSources returns n bytes of the Go distribution's sources: real text no
// one here wrote. They are read once.
func goSources(t testing.TB, n int) []byte {
	t.Helper()
	sourcesOnce.Do(func() {
		root := filepath.Join(runtime.GOROOT(), "src")
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(sources) >= maxSources {
				return filepath.SkipDir
			}
			if strings.HasSuffix(p, ".go") {
				if b, err := os.ReadFile(p); err == nil {
					sources = append(sources, b...)
				}
			}
			return nil
		})
	})
	if len(sources) < n {
		t.Skipf("%d bytes of Go sources under GOROOT, want %d", len(sources), n)
	}
	return sources[:n:n]
}

const maxSources = 4 << 20

var (
	sourcesOnce sync.Once
	sources     []byte
)

// gz compresses data with compress/gzip at level, calling Flush every flush
// bytes (0: never): each flush ends a block with an empty stored one. The
// files are made once (the race detector makes compressing slow).
func gz(t testing.TB, data []byte, level, flush int) []byte {
	t.Helper()
	key := fmt.Sprintf("%p %d %d %d", unsafe.SliceData(data), len(data), level, flush)
	if f, ok := gzCache.Load(key); ok {
		return f.([]byte)
	}
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	for rest := data; len(rest) > 0; {
		n := len(rest)
		if flush > 0 {
			n = min(n, flush)
		}
		w.Write(rest[:n])
		rest = rest[n:]
		if flush > 0 {
			w.Flush()
		}
	}
	w.Close()
	gzCache.Store(key, b.Bytes())
	return b.Bytes()
}

var gzCache sync.Map

// TestText: Go sources at every level, with and without flushes, in chunks
// of every size: the sequential text.
func TestText(t *testing.T) {
	data := goSources(t, 1<<20)
	cases := []struct{ level, flush int }{{1, 0}, {6, 0}, {9, 0}, {6, 100 << 10}}
	if underRace {
		cases = cases[1:3]
	}
	for _, c := range cases {
		level, flush := c.level, c.flush
		{
			name := fmt.Sprintf("level %d, flush %d", level, flush)
			// How many chunks are used depends on how the goroutines
			// are scheduled (the consumer decodes on past a chunk whose
			// worker has not yet started): it is logged, not checked.
			st := same(t, name, gz(t, data, level, flush), smallChunks...)
			t.Logf("%s: %+v", name, st)
		}
	}
}

// TestSequentialCases: what is read sequentially (one worker, a short
// member, not gzip) is decompress's, and no chunk is made.
func TestSequentialCases(t *testing.T) {
	data := goSources(t, 256<<10)
	file := gz(t, data, 6, 0)
	cases := map[string][]byte{
		"gzip":    file,
		"plain":   data,
		"empty":   nil,
		"magic":   file[:3],
		"header":  file[:10],
		"deflate": file[10:],
	}
	for name, f := range cases {
		for _, opt := range []pgzip.Options{{}, {Workers: 1}, {Workers: 4}} {
			if st := same(t, name, f, opt); st.Chunks != 0 {
				t.Fatalf("%s, %+v: %d chunks", name, opt, st.Chunks)
			}
		}
	}
}

// TestBlockKinds: streams of small blocks, stored blocks, Huffman-only
// blocks, and files whose text is itself deflate data (stored blocks full
// of real block headers, which the guesses find).
func TestBlockKinds(t *testing.T) {
	data := goSources(t, 512<<10)
	inner := gz(t, data, 6, 0)
	cases := map[string][]byte{
		"small blocks":   gz(t, data, 6, 1000),
		"stored":         gz(t, data, 0, 0),
		"huffman only":   gz(t, data, flate.HuffmanOnly, 0),
		"gz in stored":   gz(t, inner, 0, 0),
		"gz in gz":       gz(t, inner, 6, 0),
		"gz and text":    gz(t, append(append(append([]byte{}, data[:200<<10]...), inner...), data[200<<10:]...), 1, 0),
		"fixed blocks":   fixedBlocks(data),
		"mixed kinds":    mixedKinds(t, data),
		"one byte block": gz(t, data[:30<<10], 6, 1),
	}
	for name, f := range cases {
		st := same(t, name, f, smallChunks[:2]...)
		t.Logf("%s: %+v", name, st)
	}
}

// TestConcatenated: what follows a member is read as decompress reads it:
// more members (long and short), zero padding, trailing data, a magic
// number cut short.
func TestConcatenated(t *testing.T) {
	data := goSources(t, 512<<10)
	a, b := gz(t, data[:256<<10], 6, 0), gz(t, data[256<<10:], 9, 0)
	small := gz(t, []byte("a small member\n"), 6, 0)
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := map[string][]byte{
		"two members":        cat(a, b),
		"long, short, long":  cat(a, small, b),
		"short, long":        cat(small, a),
		"zero padding":       cat(a, make([]byte, 1000)),
		"trailing data":      cat(a, []byte("trailing garbage")),
		"zeros then garbage": cat(a, make([]byte, 10), []byte("x")),
		"cut magic":          cat(a, []byte{0x1f, 0x8b}),
		"magic only":         cat(a, []byte{0x1f, 0x8b, 8}),
		"bad second header":  cat(a, []byte{0x1f, 0x8b, 8, 0xff, 0, 0, 0, 0, 0, 0}),
		"other format after": cat(a, []byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0}),
	}
	for name, f := range cases {
		same(t, name, f, smallChunks...)
	}
}

// fixedBlocks compresses data into non-final fixed-code blocks of literals
// and short matches (distance 1), 3000 bytes each, and a final empty one:
// blocks no guess finds.
func fixedBlocks(data []byte) []byte {
	var w bitWriter
	w.bytes = append(w.bytes, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	for start := 0; start < len(data); start += 3000 {
		w.put(0, 1)
		w.put(1, 2)
		block := data[start:min(len(data), start+3000)]
		for i := 0; i < len(block); i++ {
			if i > 0 && i+3 <= len(block) && block[i] == block[i-1] && block[i+1] == block[i] && block[i+2] == block[i] {
				w.fixedSym(257) // length 3
				w.code(0, 5)    // distance 1
				i += 2
				continue
			}
			w.fixedSym(int(block[i]))
		}
		w.fixedSym(256)
	}
	w.put(1, 1)
	w.put(1, 2)
	w.fixedSym(256)
	w.flush()
	crc := crc32IEEE(data)
	w.bytes = append(w.bytes, byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24))
	n := uint32(len(data))
	return append(w.bytes, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
}

// mixedKinds compresses data in pieces of alternating kinds (dynamic,
// stored, Huffman only, fast) into one deflate stream, as one member.
func mixedKinds(t testing.TB, data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Close()
	header := b.Bytes()[:10]
	var stream bytes.Buffer
	levels := []int{6, 0, flate.HuffmanOnly, 1}
	piece := 40 << 10
	for i, start := 0, 0; start < len(data); i, start = i+1, start+piece {
		fw, _ := flate.NewWriter(&stream, levels[i%len(levels)])
		fw.Write(data[start:min(len(data), start+piece)])
		fw.Flush() // ends with an empty stored block, byte-aligned: the next writer's blocks follow
	}
	// A final empty stored block.
	stream.Write([]byte{1, 0, 0, 0xff, 0xff})
	crc := crc32IEEE(data)
	n := uint32(len(data))
	file := append(append([]byte{}, header...), stream.Bytes()...)
	return append(file, byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24), byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
}
