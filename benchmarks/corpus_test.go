package benchmarks

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dustin/go-humanize"

	"github.com/foreachio/foreach/testdata/gen/corpus"
)

// sizeEnv names the environment variable that sets the benchmark corpus size,
// such as 16MiB; unset, it is defaultBenchSize.
const sizeEnv = "FOREACH_BENCH_SIZE"

const (
	// defaultBenchSize makes the read path matter: far more than any buffer,
	// small enough for the page cache.
	defaultBenchSize = 64 << 20
	// smallSize is the corpus size of the tests, and of the benchmarks with -short
	// and no FOREACH_BENCH_SIZE.
	smallSize = 1 << 20
)

// shapes are the corpora every contender reads: many short lines, few long ones
// that fit in a 64 KiB buffer, lines of 512 KiB and more that do not, and a long
// tail of lengths with empty lines among them.
var shapes = []corpus.Shape{corpus.Tall, corpus.Wide, corpus.Verywide, corpus.Mixed}

// corpusFile is one generated file and its reference counts.
type corpusFile struct {
	path string
	size int64
	// records is the number of records every contender must yield: one per "\n",
	// plus a last record without one if the file does not end in "\n".
	records int64
	// newlines is the number of "\n" bytes: a contender that strips the terminator
	// (bufio.ScanLines) yields size - newlines bytes.
	newlines int64
	// hashKeep and hashChomp are the sums over the records of FNV-1a 64 of each
	// record, with its "\n" and without it; endsKeep and endsChomp the sums of
	// the first and last byte of each non-empty record, likewise (result.touch).
	hashKeep, hashChomp uint64
	endsKeep, endsChomp uint64
}

// corpora generates each file once per process, in dir, which TestMain removes.
var corpora struct {
	sync.Mutex
	dir   string
	files map[string]*corpusFile
}

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "foreach-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	corpora.dir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// benchSize is the corpus size of the benchmarks: FOREACH_BENCH_SIZE if set,
// else smallSize with -short, else defaultBenchSize.
func benchSize(tb testing.TB) int64 {
	if s := os.Getenv(sizeEnv); s != "" {
		n, err := humanize.ParseBytes(s)
		if err != nil || n == 0 {
			tb.Fatalf("%s=%q: want a size such as 16MiB", sizeEnv, s)
		}
		return int64(n)
	}
	if testing.Short() {
		return smallSize
	}
	return defaultBenchSize
}

// corpusOf returns the file of the given shape and size, generating it and its
// reference on first use. Generating writes the file, so it is in the page cache.
func corpusOf(tb testing.TB, shape corpus.Shape, size int64) *corpusFile {
	tb.Helper()
	corpora.Lock()
	defer corpora.Unlock()
	key := fmt.Sprintf("%s-%d", shape, size)
	if f, ok := corpora.files[key]; ok {
		return f
	}
	path := filepath.Join(corpora.dir, key+".txt")
	if _, err := corpus.WriteFile(path, corpus.Spec{Shape: shape, Size: size, Seed: 1}); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	f := reference(data)
	f.path = path
	if corpora.files == nil {
		corpora.files = make(map[string]*corpusFile)
	}
	corpora.files[key] = f
	return f
}

// reference counts what every contender must find in data, independently of all
// of them: bytes.Count for the records, IndexByte for the per-record hashes.
func reference(data []byte) *corpusFile {
	f := &corpusFile{size: int64(len(data)), newlines: int64(bytes.Count(data, []byte{'\n'}))}
	f.records = f.newlines
	if len(data) > 0 && data[len(data)-1] != '\n' {
		f.records++
	}
	for rest := data; len(rest) > 0; {
		n := bytes.IndexByte(rest, '\n') + 1
		if n == 0 {
			n = len(rest)
		}
		rec := rest[:n]
		chomped := bytes.TrimSuffix(rec, []byte{'\n'})
		f.hashKeep += fnv1a(rec)
		f.hashChomp += fnv1a(chomped)
		f.endsKeep += uint64(rec[0]) + uint64(rec[len(rec)-1])
		if len(chomped) > 0 {
			f.endsChomp += uint64(chomped[0]) + uint64(chomped[len(chomped)-1])
		}
		rest = rest[n:]
	}
	return f
}

// check compares what contender c yielded from f with the reference: the record
// count, the byte total and the first and last bytes always, the hash of every
// record's bytes when the run hashed.
func check(f *corpusFile, c contender, res result, hashed bool) error {
	wantBytes, wantHash, wantEnds := f.size, f.hashKeep, f.endsKeep
	if c.chomps {
		wantBytes, wantHash, wantEnds = f.size-f.newlines, f.hashChomp, f.endsChomp
	}
	if res.records != f.records || res.bytes != wantBytes {
		return fmt.Errorf("%s: %d records, %d bytes; want %d records, %d bytes",
			c.name, res.records, res.bytes, f.records, wantBytes)
	}
	if res.ends != wantEnds {
		return fmt.Errorf("%s: first and last bytes sum to %d, want %d", c.name, res.ends, wantEnds)
	}
	if hashed && res.hash != wantHash {
		return fmt.Errorf("%s: record hash sum %#x, want %#x", c.name, res.hash, wantHash)
	}
	return nil
}
