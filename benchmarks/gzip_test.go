package benchmarks

import (
	"bufio"
	"compress/gzip"
	"errors"
	"os"
	"testing"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/testdata/gen/corpus"
)

// gzipContenders read a gzip file whole: the engine with Options.Decompress (its
// decoder is github.com/klauspost/compress/gzip), against what a Go program does with
// the standard library alone, bufio.Scanner over compress/gzip with each token copied.
var gzipContenders = []contender{
	{name: "LinesDecompress", chomps: true, grows: true, run: engineLinesDecompress},
	{name: "ScannerCopyStdGzip", chomps: true, run: scannerCopyStdGzip},
}

// BenchmarkGzip reads the tall and mixed corpora compressed by compress/gzip at its
// default level (gzip's own default, 6). MB/s counts decompressed bytes. Every run is
// checked against the uncompressed corpus's reference, as in BenchmarkRead.
func BenchmarkGzip(b *testing.B) {
	size := benchSize(b)
	for _, shape := range []corpus.Shape{corpus.Tall, corpus.Mixed} {
		f := corpusOf(b, shape, size)
		gz := gzipOf(b, f)
		b.Run("shape="+string(shape), func(b *testing.B) {
			for _, c := range gzipContenders {
				b.Run("impl="+c.name, func(b *testing.B) { benchFile(b, gz, c, false) })
			}
		})
	}
}

// gzipOf returns f compressed, beside it: the same reference, another path.
func gzipOf(tb testing.TB, f *corpusFile) *corpusFile {
	tb.Helper()
	gz := *f
	gz.path = f.path + ".gz"
	if _, err := os.Stat(gz.path); err == nil {
		return &gz
	}
	data, err := os.ReadFile(f.path)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := os.Create(gz.path)
	if err != nil {
		tb.Fatal(err)
	}
	w := gzip.NewWriter(out)
	if _, err := w.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := errors.Join(w.Close(), out.Close()); err != nil {
		tb.Fatal(err)
	}
	return &gz
}

func engineLinesDecompress(name string, _ int64, hash bool) (res result, err error) {
	opt := engineOptions
	opt.Decompress = true
	r, err := linereader.Open(name, opt)
	if err != nil {
		return res, err
	}
	for rec := range r.Lines() {
		res.touch(rec, hash)
	}
	if st := r.Stats(); st.Format != "gzip" {
		return res, errors.New("LinesDecompress: the input was not read as gzip")
	}
	res.grows = int64(r.Stats().Buffer.Grows)
	return res, errors.Join(r.Err(), r.Close())
}

func scannerCopyStdGzip(name string, _ int64, hash bool) (res result, err error) {
	f, err := os.Open(name)
	if err != nil {
		return res, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, readBuffer))
	if err != nil {
		return res, err
	}
	s := bufio.NewScanner(zr)
	s.Buffer(make([]byte, readBuffer), 1<<30)
	for s.Scan() {
		rec := append([]byte(nil), s.Bytes()...)
		res.touch(rec, hash)
	}
	return res, errors.Join(s.Err(), zr.Close())
}

// TestGzipContenders runs the gzip contenders once, plain and hashing, on small
// compressed corpora, so that the benchmark code keeps working in a plain go test run.
func TestGzipContenders(t *testing.T) {
	for _, shape := range []corpus.Shape{corpus.Tall, corpus.Mixed} {
		gz := gzipOf(t, corpusOf(t, shape, smallSize))
		for _, c := range gzipContenders {
			for _, hash := range []bool{false, true} {
				res, err := c.run(gz.path, gz.size, hash)
				if err != nil {
					t.Fatalf("%s %s: %v", shape, c.name, err)
				}
				if err := check(gz, c, res, hash); err != nil {
					t.Errorf("%s hash=%v: %v", shape, hash, err)
				}
			}
		}
	}
}
