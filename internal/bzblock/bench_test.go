package bzblock_test

import (
	"bytes"
	"compress/bzip2"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/foreachio/foreach/internal/bzblock"
	"github.com/foreachio/foreach/internal/measure/corpus"
)

// benchFile is the stream the benchmarks decode: BZBLOCK_BENCH_FILE (one
// bzip2 stream; its first 8 MB are taken) or 4 MB of the mixed corpus
// compressed by bzip2.
func benchFile(b *testing.B) []byte {
	if name := os.Getenv("BZBLOCK_BENCH_FILE"); name != "" {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	return compressTool(b, text(b, corpus.Mixed, 4<<20, 8))
}

// decodeChain decodes the blocks of a one-stream file one after another,
// each starting where the last ended, into w.
func decodeChain(b testing.TB, d *bzblock.Decoder, file []byte, w io.Writer) int64 {
	level := int(file[3] - '0')
	off := int64(32)
	var total int64
	for bits48(file, off) == bzblock.BlockMagic {
		blk, err := d.Decode(file[off/8:], uint(off%8), level)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(w, blk)
		if err != nil {
			b.Fatal(err)
		}
		total += n
		off += blk.End()
	}
	return total
}

// BenchmarkDecode compares the Decoder with the standard library's reader
// on the same stream, side by side (-count alternates them).
func BenchmarkDecode(b *testing.B) {
	file := benchFile(b)
	want, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(file)))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("bzblock", func(b *testing.B) {
		var d bzblock.Decoder
		b.SetBytes(int64(len(want)))
		cpu0 := bzblock.CPUTime()
		for b.Loop() {
			if n := decodeChain(b, &d, file, io.Discard); n != int64(len(want)) {
				b.Fatalf("%d bytes, want %d", n, len(want))
			}
		}
		b.ReportMetric(float64(bzblock.CPUTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	})
	b.Run("compress-bzip2", func(b *testing.B) {
		b.SetBytes(int64(len(want)))
		cpu0 := bzblock.CPUTime()
		for b.Loop() {
			n, err := io.Copy(io.Discard, bzip2.NewReader(bytes.NewReader(file)))
			if err != nil || n != int64(len(want)) {
				b.Fatalf("%d bytes, %v", n, err)
			}
		}
		b.ReportMetric(float64(bzblock.CPUTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	})
}

// BenchmarkDecodePair times the Decoder and the standard library's reader
// one after the other in every iteration, in the other order every other
// time, and reports the median of their per-iteration ratios of CPU time
// (the standard library's over the Decoder's: above 1, the Decoder is
// faster), which a busy machine disturbs less than either time alone.
func BenchmarkDecodePair(b *testing.B) {
	file := benchFile(b)
	want, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(file)))
	if err != nil {
		b.Fatal(err)
	}
	var d bzblock.Decoder
	ours := func() {
		if n := decodeChain(b, &d, file, io.Discard); n != int64(len(want)) {
			b.Fatalf("%d bytes, want %d", n, len(want))
		}
	}
	std := func() {
		if n, err := io.Copy(io.Discard, bzip2.NewReader(bytes.NewReader(file))); err != nil || n != int64(len(want)) {
			b.Fatalf("%d bytes, %v", n, err)
		}
	}
	timed := func(f func()) int64 {
		c := bzblock.CPUTime()
		f()
		return bzblock.CPUTime() - c
	}
	var ratios []float64
	var oursTotal int64
	i := 0
	for b.Loop() {
		var o, s int64
		if i%2 == 0 {
			o, s = timed(ours), timed(std)
		} else {
			s, o = timed(std), timed(ours)
		}
		i++
		oursTotal += o
		ratios = append(ratios, float64(s)/float64(o))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "std/ours")
	b.ReportMetric(float64(oursTotal)/1e6/float64(b.N), "ours-cpu-ms/op")
}
