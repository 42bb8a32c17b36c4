package decompress_test

import (
	"bufio"
	"bytes"
	stdbzip2 "compress/bzip2"
	stdgzip "compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	ulikunitz "github.com/ulikunitz/xz"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/measure/contend"
	"github.com/foreachio/foreach/internal/measure/corpus"
)

// The benchmarks decode real text (the Go distribution's .go files
// concatenated to 128 MiB, contend.MakeFile's "real") and the 64 MiB tall
// and mixed corpora, compressed by each format's own tool at its default
// level. The files are made on first use, in $DECOMPRESS_BENCH_DIR when it is
// set (benchmarks/compress.sh sets it, so that the script and the benchmarks
// share them and they are kept between runs), else in a temporary directory
// removed at the end.
//
//	go test -run '^$' -bench . -benchtime 3x ./internal/decompress
//
// Throughput (MB/s) is of decompressed bytes. cpu-ns/op is the CPU time
// (user and system) of the process per operation, which shows what a
// decoder's own goroutines cost besides the wall time.

// benchShapes are the corpora, and the size of each.
var benchShapes = []struct {
	shape string
	size  int64
}{
	{contend.Real, 128 << 20},
	{string(corpus.Tall), 64 << 20},
	{string(corpus.Mixed), 64 << 20},
}

// benchTools are the commands that make the compressed files, each tool at
// its default level (xz: one thread, as xz 5.4 has it by default).
var benchTools = []struct {
	ext, command string
}{
	{"gz", "gzip -c"},
	{"zst", "zstd -c -q"},
	{"bz2", "bzip2 -c"},
	{"xz", "xz -c -T1"},
	{"lz4", "lz4 -c -q"},
}

var (
	benchDirOnce sync.Once
	benchDir     string
	benchDirErr  error
	benchDirTemp bool
	benchMu      sync.Mutex
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDirTemp {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchInput returns the plain corpus of shape and its compressed form
// made by the tool for ext, making and keeping the files when they are
// missing.
func benchInput(b *testing.B, shape string, size int64, ext string) (plain, compressed []byte) {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	benchDirOnce.Do(func() {
		benchDir = os.Getenv("DECOMPRESS_BENCH_DIR")
		if benchDir == "" {
			benchDir, benchDirErr = os.MkdirTemp("", "decompress-bench")
			benchDirTemp = true
			return
		}
		benchDirErr = os.MkdirAll(benchDir, 0o755)
	})
	if benchDirErr != nil {
		b.Fatal(benchDirErr)
	}
	name := filepath.Join(benchDir, shape+".txt")
	if _, err := os.Stat(name); err != nil {
		f, err := contend.MakeFile(benchDir, shape, size)
		if err != nil {
			b.Fatal(err)
		}
		name = f.Path
	}
	plain, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	if ext == "" {
		return plain, plain
	}
	cname := name + "." + ext
	if _, err := os.Stat(cname); err != nil {
		var command string
		for _, t := range benchTools {
			if t.ext == ext {
				command = t.command
			}
		}
		args := strings.Fields(command)
		if _, err := exec.LookPath(args[0]); err != nil {
			b.Skipf("%s is not installed", args[0])
		}
		cmd := exec.Command(args[0], args[1:]...)
		in, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		defer in.Close()
		tmp := cname + ".tmp"
		out, err := os.Create(tmp)
		if err != nil {
			b.Fatal(err)
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, os.Stderr
		err = cmd.Run()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			b.Fatalf("%s: %v", command, err)
		}
		if err := os.Rename(tmp, cname); err != nil {
			b.Fatal(err)
		}
	}
	compressed, err = os.ReadFile(cname)
	if err != nil {
		b.Fatal(err)
	}
	return plain, compressed
}

// decoders are the contenders: this package's Reader for every format, and
// beside it the libraries used directly (to see the Reader's own cost), the
// standard library's gzip, and github.com/ulikunitz/xz used directly (the
// decoder behind this package's xz, see xz.go).
var decoders = []struct {
	name, ext string
	open      func(io.Reader) (io.Reader, func(), error)
}{
	{"plain/decompress", "", openDecompress},
	{"gzip/decompress", "gz", openDecompress},
	{"gzip/klauspost", "gz", func(r io.Reader) (io.Reader, func(), error) {
		zr, err := gzip.NewReader(r)
		return zr, func() {}, err
	}},
	{"gzip/stdlib", "gz", func(r io.Reader) (io.Reader, func(), error) {
		zr, err := stdgzip.NewReader(r)
		return zr, func() {}, err
	}},
	{"zstd/decompress", "zst", openDecompress},
	{"zstd/klauspost-sync", "zst", func(r io.Reader) (io.Reader, func(), error) {
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		return zr, func() { zr.Close() }, err
	}},
	{"zstd/klauspost-default", "zst", func(r io.Reader) (io.Reader, func(), error) {
		zr, err := zstd.NewReader(r) // concurrency min(4, GOMAXPROCS): goroutines decode ahead
		return zr, func() { zr.Close() }, err
	}},
	{"bzip2/decompress", "bz2", openDecompress},
	{"bzip2/stdlib", "bz2", func(r io.Reader) (io.Reader, func(), error) {
		return stdbzip2.NewReader(bufio.NewReaderSize(r, 64<<10)), func() {}, nil
	}},
	{"xz/decompress", "xz", openDecompress},
	{"xz/ulikunitz", "xz", func(r io.Reader) (io.Reader, func(), error) {
		zr, err := ulikunitz.NewReader(bufio.NewReaderSize(r, 64<<10))
		return zr, func() {}, err
	}},
	{"lz4/decompress", "lz4", openDecompress},
	{"lz4/pierrec", "lz4", func(r io.Reader) (io.Reader, func(), error) {
		return lz4.NewReader(r), func() {}, nil
	}},
}

func openDecompress(r io.Reader) (io.Reader, func(), error) {
	d := decompress.NewReader(r)
	return d, func() { d.Close() }, nil
}

// drainBench reads r to its end through a 64 KiB buffer, as the engine
// does (not io.Copy, which would let each decoder's WriteTo take over).
func drainBench(r io.Reader, buf []byte, check []byte) (int64, error) {
	var n int64
	for {
		k, err := r.Read(buf)
		if check != nil && !bytes.Equal(buf[:k], check[n:n+int64(k)]) {
			return n, fmt.Errorf("decoded bytes differ from the original at %d", n)
		}
		n += int64(k)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, sh := range benchShapes {
		for _, d := range decoders {
			b.Run(sh.shape+"/"+d.name, func(b *testing.B) {
				plain, compressed := benchInput(b, sh.shape, sh.size, d.ext)
				if os.Getenv("DECOMPRESS_BENCH_MAKE") != "" {
					b.Skip("DECOMPRESS_BENCH_MAKE: the files are made, nothing is timed")
				}
				buf := make([]byte, 64<<10)
				// The benchmark checks its output once before it counts.
				r, closer, err := d.open(bytes.NewReader(compressed))
				if err != nil {
					b.Fatal(err)
				}
				if n, err := drainBench(r, buf, plain); err != nil || n != int64(len(plain)) {
					b.Fatalf("decoded %d of %d bytes: %v", n, len(plain), err)
				}
				closer()
				b.SetBytes(int64(len(plain)))
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuTime()
				for range b.N {
					r, closer, err := d.open(bytes.NewReader(compressed))
					if err != nil {
						b.Fatal(err)
					}
					if _, err := drainBench(r, buf, nil); err != nil {
						b.Fatal(err)
					}
					closer()
				}
				b.StopTimer()
				if cpu := cpuTime() - cpu0; cpu > 0 {
					b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
				}
				b.ReportMetric(float64(len(compressed))/float64(len(plain)), "ratio")
			})
		}
	}
}
