package bzblock

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// The block decoder's stages, each timed alone over the blocks of one
// stream (BZBLOCK_BENCH_FILE, or 4 MB of the mixed corpus compressed by
// bzip2), so that a change to one is measured where it is made:
//
//	entropy: the header, the Huffman codes, MTF and the RUNA/RUNB runs,
//	         into ll (Decoder.entropy)
//	links:   the links of the inverse BWT, from ll into tt (Decoder.links)
//	bwt:     the whole inverse BWT from ll, into the pieces: the links and
//	         the walks (Decoder.inverseBWT)
//	copy:    what restoring ll before each block of links and bwt costs
//	output:  the final run-length decoding and the CRC (Block.Read into a
//	         64 KiB buffer, as blockz's workers read)
//
// Every stage reports the bytes it stands for as the block's output, so
// that its MB/s and ns/B add up to the whole decoder's; cpu-ms/op is the
// process's CPU time per op, which a busy machine disturbs less.
//
//	BZBLOCK_BENCH_FILE=F.bz2 go test -run '^$' -bench Stages -count 5 ./internal/bzblock

// stagedBlock is one block of the stream, kept at the start of each stage.
type stagedBlock struct {
	src   []byte // the stream from the block's first byte
	bit   uint   // where its magic starts in src[0]
	level int
	// ll, c, n and orig are the block after entropy decoding; pre is its
	// bytes before the final run-length decoding, out their length after
	// it, crc the block's CRC.
	ll      []byte
	c       [256]uint32
	n, orig int
	pre     []byte
	out     int64
	crc     uint32
}

// stageBlocks decodes the stream's blocks once, keeping each stage's input.
func stageBlocks(b *testing.B) []stagedBlock {
	file := stageFile(b)
	level := int(file[3] - '0')
	var d Decoder
	var blocks []stagedBlock
	for off := int64(32); ; {
		br := newBitReader(file[off/8:], off%8)
		if br.peek(48) != BlockMagic {
			break
		}
		s := stagedBlock{src: file[off/8:], bit: uint(off % 8), level: level}
		n, h, err := entropy(&d, &br, level*100000)
		if err != nil {
			b.Fatal(err)
		}
		s.ll, s.c, s.n, s.orig, s.crc = append([]byte(nil), d.ll[:n]...), d.c, n, h.origPtr, h.crc
		d.inverseBWT(n, h.origPtr)
		if h.randomised {
			derandomise(d.pieces)
		}
		for _, p := range d.pieces {
			s.pre = append(s.pre, p...)
		}
		blk := Block{pieces: [][]byte{s.pre}, size: n, want: h.crc}
		blk.reset()
		s.out = readAll(b, &blk, make([]byte, 64<<10))
		blocks = append(blocks, s)
		off += br.offset() - int64(off%8)
	}
	return blocks
}

// entropy is the block's entropy stage alone, its head and its body.
func entropy(d *Decoder, br *bitReader, blockSize int) (int, header, error) {
	d.part = partial{}
	if err := d.head(br, blockSize); err != nil {
		return 0, header{}, err
	}
	n, err := d.body(br, blockSize)
	return n, d.part.h, err
}

// stageFile is BZBLOCK_BENCH_FILE or 4 MB of the mixed corpus through bzip2.
func stageFile(b *testing.B) []byte {
	if name := os.Getenv("BZBLOCK_BENCH_FILE"); name != "" {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	text, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: 4 << 20, Seed: 8})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := exec.LookPath("bzip2"); err != nil {
		b.Skip("bzip2 is not installed")
	}
	cmd := exec.Command("bzip2", "-c")
	cmd.Stdin = bytes.NewReader(text)
	out, err := cmd.Output()
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// restore copies ll back with plain stores: copy's memmove writes a large
// array around the cache (non-temporal stores), which would leave it in
// memory, where the entropy stage leaves it in the cache.
func restore(dst, src []byte) {
	dst = dst[:len(src)]
	for i, e := range src {
		dst[i] = e
	}
}

// readAll reads blk to its end through buf, failing on a bad CRC.
func readAll(b *testing.B, blk *Block, buf []byte) int64 {
	var total int64
	for {
		n, err := blk.Read(buf)
		total += int64(n)
		if err != nil {
			if err.Error() != "EOF" {
				b.Fatal(err)
			}
			return total
		}
	}
}

func BenchmarkStages(b *testing.B) {
	blocks := stageBlocks(b)
	var outBytes int64
	for _, s := range blocks {
		outBytes += s.out
	}
	var d Decoder
	d.ll, d.tt = make([]byte, 900000+runSlack), make([]uint32, 900000+1)
	stage := func(name string, f func(s *stagedBlock)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(outBytes)
			cpu0 := cpuTime()
			for b.Loop() {
				for i := range blocks {
					f(&blocks[i])
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(outBytes), "cpu-ns/B")
		})
	}
	stage("entropy", func(s *stagedBlock) {
		br := newBitReader(s.src, int64(s.bit))
		if _, _, err := entropy(&d, &br, s.level*100000); err != nil {
			b.Fatal(err)
		}
	})
	stage("copy", func(s *stagedBlock) { restore(d.ll, s.ll) })
	stage("links", func(s *stagedBlock) {
		restore(d.ll, s.ll)
		d.c = s.c
		d.links(s.n)
	})
	stage("bwt", func(s *stagedBlock) {
		restore(d.ll, s.ll)
		d.c = s.c
		d.inverseBWT(s.n, s.orig)
	})
	buf := make([]byte, 64<<10)
	stage("output", func(s *stagedBlock) {
		blk := Block{pieces: [][]byte{s.pre}, size: s.n, want: s.crc}
		blk.reset()
		if readAll(b, &blk, buf) != s.out {
			b.Fatal("short block")
		}
	})
	stage("all", func(s *stagedBlock) {
		blk, err := d.Decode(s.src, s.bit, s.level)
		if err != nil {
			b.Fatal(err)
		}
		if readAll(b, blk, buf) != s.out {
			b.Fatal("short block")
		}
	})
}
