package pgzip

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/inflate"
	"github.com/foreachio/foreach/internal/measure/cputime"
)

// TestModel measures what each part of the parallel decode costs, one part
// at a time in one goroutine (CPU time of the process, the median of five
// runs: robust on a busy machine, where wall times of several goroutines
// are not), per byte of text, and projects from them what more cores would
// give (docs/performance.md). It runs only when asked:
//
//	PGZIP_MODEL=real.txt.gz PGZIP_CHUNK=3MiB go test -run TestModel -v ./internal/pgzip
//
// The parts: a the sequential decode (the consumer decoding its own
// shares); w a worker decoding a chunk from its guess (guessing, markers,
// CRC), its buffers reused as in a long file; take the consumer taking a
// chunk (its markers resolved from the text before it, the CRC of the
// resolved part, the history); copy its copying a chunk's text out to the
// reader (Read's copy, which WriteTo would not need).
func TestModel(t *testing.T) {
	name := os.Getenv("PGZIP_MODEL")
	if name == "" {
		t.Skip("PGZIP_MODEL is not set")
	}
	chunkSize := int64(DefaultChunkSize)
	if s := os.Getenv("PGZIP_CHUNK"); s != "" {
		mult := int64(1)
		if t, ok := strings.CutSuffix(s, "MiB"); ok {
			s, mult = t, 1<<20
		} else if t, ok := strings.CutSuffix(s, "KiB"); ok {
			s, mult = t, 1<<10
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		chunkSize = n * mult
	}
	file, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	text, points, start := decodeWithBlocks(t, file)
	buf := make([]byte, 256<<10)
	a := perByte(len(text), func() {
		r := decompress.NewReader(bytes.NewReader(file))
		for {
			if _, err := r.Read(buf); err != nil {
				break
			}
		}
	})

	// The workers' chunks: every share but the first, decoded twice (the
	// second with the buffers of the first, as in a long file).
	opt := Options{Workers: 2, ChunkSize: chunkSize, MaxChunkText: int(8 * chunkSize)}
	pool := &bufferPool{text: opt.MaxChunkText}
	var chunks []*chunk
	decodeAll := func() {
		for _, c := range chunks {
			pool.put(&c.text)
		}
		chunks = chunks[:0]
		w := newWorker(bytes.NewReader(file), int64(len(file)), pool)
		end := int64(len(file)) * 8
		for lo := start + chunkSize*8; lo < end; lo += chunkSize * 8 {
			c := newChunk(lo, min(end, lo+chunkSize*8))
			w.decode(c)
			chunks = append(chunks, c)
		}
	}
	decodeAll()
	var chunkText int
	var guess time.Duration
	for _, c := range chunks {
		chunkText += len(c.text.data)
	}
	w := perByte(chunkText, func() {
		decodeAll()
	})
	for _, c := range chunks {
		guess += c.times.guess
	}

	// Taking them: each resolved with the true text before it.
	var r inflate.Resolver
	var hist history
	var crc uint32
	take := perByte(chunkText, func() {
		for _, c := range chunks {
			out, ok := points[c.text.start]
			if !ok {
				continue // no guess held, or not a boundary: missed
			}
			head := c.text.data[:len(c.text.symbols)]
			hist.n = copy(hist.buf[:], text[max(0, out-inflate.WindowSize):out])
			r.Resolve(head, c.text.symbols, hist.bytes())
			crc = crc32.Update(crc, crc32.IEEETable, head)
			crc = crcCombine(crc, c.text.crc, int64(len(c.text.data)-len(head)))
			hist.push(c.text.data)
		}
	})
	used, symbols := 0, 0
	for _, c := range chunks {
		if out, ok := points[c.text.start]; ok {
			if !bytes.Equal(c.text.data, text[out:out+int64(len(c.text.data))]) {
				t.Fatalf("the chunk at bit %d does not resolve to the text", c.text.start)
			}
			used++
			symbols += len(c.text.symbols)
		}
	}
	copyOut := perByte(chunkText, func() {
		for _, c := range chunks {
			for d := c.text.data; len(d) > 0; {
				d = d[copy(buf, d):]
			}
		}
	})
	c := take + copyOut
	fmt.Printf("%s: %.1f MiB of text, chunks of %d KiB: %d chunks, %d used, %.1f MiB of text each, %.1f%% of it symbols, guessing %.2f ms a chunk\n",
		name, float64(len(text))/(1<<20), chunkSize>>10, len(chunks), used, float64(chunkText)/float64(len(chunks))/(1<<20),
		100*float64(symbols)/float64(chunkText), guess.Seconds()*1e3/float64(len(chunks))/6)
	fmt.Printf("ns a byte of text: sequential decode a = %.3f, worker w = %.3f (%.2f a), taking c = %.3f (resolving and the rest %.3f, copying out %.3f)\n",
		a, w, w/a, c, take, copyOut)
	fmt.Println("| cores | the consumer's own share | speed-up | bound by |")
	fmt.Println("|---:|---:|---:|---|")
	for _, p := range []int{2, 4, 8, 16, 32} {
		x, up, bound := project(a, w, c, p)
		fmt.Printf("| %d | %.0f%% | %.2f | %s |\n", p, 100*x, up, bound)
	}
}

// project returns, for p cores (p-1 workers and the consumer), the share of
// the text the consumer decodes itself when the work is balanced, the
// speed-up over the sequential decode, and what bounds it: with the
// consumer decoding x of the text (a ns a byte) and taking the rest (c),
// and the workers decoding 1-x (w, p-1 of them), both sides take the same
// time; where that would need x < 0, the consumer only takes, and the
// slower side sets the pace.
func project(a, w, c float64, p int) (x, speedup float64, bound string) {
	wp := w / float64(p-1)
	x = (wp - c) / (a - c + wp)
	if x <= 0 {
		if c > wp {
			return 0, a / c, "the consumer taking chunks"
		}
		return 0, a / wp, "the workers"
	}
	return x, a / (x*a + (1-x)*c), "balanced"
}

// perByte runs f five times and returns the median of its CPU time over n
// bytes, in nanoseconds.
func perByte(n int, f func()) float64 {
	var v []float64
	for range 5 {
		c0, _ := cputime.Now()
		f()
		c1, _ := cputime.Now()
		v = append(v, float64(c1-c0)/float64(n))
	}
	slices.Sort(v)
	return v[2]
}

// decodeWithBlocks decodes the first member of file and returns its text,
// its block boundaries (bit of the file: offset in the text) and the bit
// where its deflate stream starts.
func decodeWithBlocks(t *testing.T, file []byte) ([]byte, map[int64]int64, int64) {
	br := bufio.NewReader(bytes.NewReader(file))
	h, err := inflate.ReadHeader(br)
	if err != nil {
		t.Fatal(err)
	}
	points := map[int64]int64{}
	d := inflate.NewReader(br)
	d.SetBlockFunc(func(b inflate.Block) { points[int64(h)*8+b.Bit] = b.Out })
	text, err := io.ReadAll(d)
	if err != nil {
		t.Fatal(err)
	}
	return text, points, int64(h) * 8
}
