package decompress_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"

	"github.com/foreachio/foreach/internal/decompress"
)

// xzInputs are the inputs the xz decoder is checked on: real text, bytes that do not
// compress (LZMA2's uncompressed chunks), runs (matches that overlap what they copy),
// text and noise mixed, one byte, and nothing.
func xzInputs(t *testing.T) map[string][]byte {
	rng := rand.New(rand.NewPCG(40, 1))
	noise := make([]byte, 200<<10)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	size := 1 << 20
	if testing.Short() || raceEnabled {
		size = 256 << 10
	}
	text := goSources(t, size)
	var mixed []byte
	for i := 0; i < 8; i++ {
		mixed = append(mixed, text[i*size/20:i*size/20+size/35]...)
		mixed = append(mixed, noise[i*20000:i*20000+20000]...)
	}
	return map[string][]byte{
		"text":  text,
		"noise": noise,
		"runs":  append(bytes.Repeat([]byte{'a'}, 100<<10), bytes.Repeat([]byte("ab\n"), 50<<10)...),
		"mixed": mixed,
		"byte":  {'x'},
		"empty": nil,
	}
}

// TestXzDecoderAgainstTool decodes what xz makes of each input with options that
// change the stream's structure (levels and their dictionary sizes, lc/lp/pb, match
// finders, a 4 KiB dictionary that the data wraps many times, several blocks, every
// check) and compares with the input, reading it whole, one byte at a time from its
// source, and into a 1-byte buffer.
func TestXzDecoderAgainstTool(t *testing.T) {
	commands := []string{
		"xz -c -0", "xz -c -1", "xz -c -6", "xz -c -9e",
		"xz -c --lzma2=preset=6,lc=0,lp=4,pb=0", "xz -c --lzma2=preset=6,lc=4,lp=0,pb=4",
		"xz -c --lzma2=preset=1,lc=1,lp=3,pb=2", "xz -c --lzma2=dict=4KiB",
		"xz -c --lzma2=dict=64KiB,mf=hc3,mode=fast,nice=5", "xz -c --lzma2=dict=1MiB,mf=bt2,nice=273,depth=0",
		"xz -c -T2 --block-size=100KiB", "xz -c --block-list=10KiB,1,200KiB,0",
		"xz -c -0 --check=none", "xz -c -0 --check=crc32", "xz -c -0 --check=sha256",
	}
	inputs := xzInputs(t)
	for _, command := range commands {
		for name, input := range inputs {
			c := compress(t, command, input)
			got, err, _ := decode(t, c, nil)
			if err != nil || !bytes.Equal(got, input) {
				t.Fatalf("%s, %s: %d of %d bytes, %v", command, name, len(got), len(input), err)
			}
			if len(input) > 300<<10 || (testing.Short() || raceEnabled) && len(input) > 2<<10 {
				continue // the slow ways on the small inputs only
			}
			got, err, _ = decode(t, c, iotest.OneByteReader)
			if err != nil || !bytes.Equal(got, input) {
				t.Fatalf("%s, %s, one byte at a time: %d of %d bytes, %v", command, name, len(got), len(input), err)
			}
			r := decompress.NewReader(bytes.NewReader(c))
			got, err = io.ReadAll(iotest.OneByteReader(r))
			if err != nil || !bytes.Equal(got, input) {
				t.Fatalf("%s, %s, into one byte: %d of %d bytes, %v", command, name, len(got), len(input), err)
			}
		}
	}
}

// TestXzDecoderConcatenated: streams of several inputs, joined, read as one.
func TestXzDecoderConcatenated(t *testing.T) {
	inputs := xzInputs(t)
	var joined, want []byte
	for _, name := range []string{"text", "empty", "noise", "byte", "runs"} {
		joined = append(joined, compress(t, "xz -c -1", inputs[name])...)
		want = append(want, inputs[name]...)
	}
	got, err, _ := decode(t, joined, nil)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%d of %d bytes, %v", len(got), len(want), err)
	}
}

// FuzzXzDecoder: streams of another encoder (github.com/ulikunitz/xz's writer) of the
// fuzzer's bytes, with the dictionary, block size, properties and check it chooses,
// decode to those bytes; then cut short, to a prefix of them and an error.
func FuzzXzDecoder(f *testing.F) {
	f.Add([]byte("hello, hello, hello\n"), uint8(0), uint16(0), uint8(3), uint8(0))
	f.Add(bytes.Repeat([]byte("abcab"), 3000), uint8(1), uint16(1), uint8(0x2c), uint8(50))
	f.Add([]byte{}, uint8(2), uint16(7), uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, check uint8, block uint16, props uint8, cut uint8) {
		lc, lp := int(props%9), int(props/9%5)
		if lc+lp > 4 {
			lp = 4 - lc
			if lp < 0 {
				lc, lp = 4, 0
			}
		}
		cfg := xz.WriterConfig{
			DictCap:    4096 << (props % 5),
			BlockSize:  int64(block)%5000 + 1000,
			CheckSum:   []byte{xz.None, xz.CRC32, xz.CRC64, xz.SHA256}[check%4],
			NoCheckSum: check%4 == 0,
			Properties: &lzma.Properties{LC: lc, LP: lp, PB: int(props / 45 % 5)},
		}
		var c bytes.Buffer
		w, err := cfg.NewWriter(&c)
		if err != nil {
			t.Skip(err)
		}
		w.Write(data)
		if err := w.Close(); err != nil {
			t.Skip(err)
		}
		got, err, _ := decode(t, c.Bytes(), nil)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%d of %d bytes, %v", len(got), len(data), err)
		}
		k := c.Len() * int(cut) / 256
		got, err, _ = decode(t, c.Bytes()[:k], nil)
		if k >= 10 && (err == nil || !bytes.HasPrefix(data, got)) {
			t.Fatalf("cut at %d of %d: %d bytes, %v", k, c.Len(), len(got), err)
		}
	})
}
