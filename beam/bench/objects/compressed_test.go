package objects

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"os/exec"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/klauspost/compress/zstd"

	foreachio "github.com/foreachio/foreach/beam"
	"github.com/foreachio/foreach/beam/internal/fakestore"
	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/zindex"
)

// BenchmarkCompressedSections counts the records of the 200 MiB text compressed as BGZF
// (members of 64 KiB of text, as bgzip writes them), as one gzip member with a .zidx
// beside it (the default span, 4 MiB), as zstd frames of 1 MiB of text and as xz -T2 -1
// (blocks of 3 MiB of text), each an object on both fake stores, cut by foreachio.Sections
// into 4 and 16 sections of its text and read one after another as workers would:
// "restr-B" is what the server sent to make the restrictions (the .zidx, the object's
// first and last 64 KiB, the pieces' headers; all of it for zstd, whose scan reads every
// block header), "sent/size" what it sent for the sections over the object's size, with
// the count checked against a sequential read of the text.
//
//	cd beam/bench && go test ./objects -run '^$' -bench Compressed -benchtime 1x
func BenchmarkCompressedSections(b *testing.B) {
	// The lines of text() compress 100 times; these (words of a vocabulary, lines of many
	// lengths) about 4 times, as logs do.
	data, err := corpus.Bytes(corpus.Spec{Shape: corpus.Mixed, Size: objectSize, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	want := int64(bytes.Count(data, []byte("\n")))
	objs := compressedObjects(b, data)
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		s := start(b)
		s.Bucket(b, "b")
		for _, o := range objs {
			uri := s.Put(b, "b", o.name, o.data)
			if o.zidx != nil {
				s.Put(b, "b", o.name+".zidx", o.zidx)
			}
			for _, k := range []int64{4, 16} {
				b.Run(fmt.Sprintf("%s/%s/k=%d", s.Scheme, o.name, k), func(b *testing.B) {
					for b.Loop() {
						countObject(b, s, uri, o, int64(len(data))/k+1, want)
					}
				})
			}
		}
	}
}

type compressedObject struct {
	name string
	data []byte
	zidx []byte
	opt  linereader.Options
}

func compressedObjects(b *testing.B, data []byte) []compressedObject {
	gz := gzipped(data)
	ix, err := zindex.Build(bufio.NewReader(bytes.NewReader(gz)), 0)
	if err != nil {
		b.Fatal(err)
	}
	var zidx bytes.Buffer
	ix.WriteTo(&zidx)
	dec := linereader.Options{Decompress: true}
	objs := []compressedObject{
		{"indexed.log.gz", gz, zidx.Bytes(), linereader.Options{}},
		{"bgzf.log.gz", bgzf(data, 64<<10), nil, linereader.Options{}},
		{"frames.log.zst", zstdFrames(b, data, 1<<20), nil, dec},
	}
	if xz, err := exec.LookPath("xz"); err == nil {
		cmd := exec.Command(xz, "-T2", "-1", "-c")
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		objs = append(objs, compressedObject{"blocks.log.xz", out, nil, dec})
	}
	return objs
}

// countObject cuts the object in sections of size bytes of text, reads them one after
// another, checks the count and reports the bytes sent.
func countObject(b *testing.B, s *fakestore.Server, uri string, o compressedObject, size, want int64) {
	ctx := context.Background()
	before := s.Sent.Load()
	file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: uri, Size: int64(len(o.data))}}
	sec := foreachio.Sections{Options: o.opt, SectionSize: size}
	rests := sec.SplitRestriction(file, sec.CreateInitialRestriction(ctx, file))
	made := s.Sent.Load() - before
	var n int64
	for _, rest := range rests {
		err := sec.Each(ctx, sec.CreateTracker(rest), file, func(int64, []byte) error {
			n++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if n != want {
		b.Fatalf("%d records, want %d", n, want)
	}
	sent := s.Sent.Load() - before - made
	b.ReportMetric(float64(len(rests)), "sections")
	b.ReportMetric(float64(made), "restr-B")
	b.ReportMetric(float64(sent)/float64(len(o.data)), "sent/size")
	b.ReportMetric(float64(len(o.data)), "object-B")
}

func gzipped(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// bgzf compresses data as bgzip does: members of block bytes, each with the BC subfield
// giving its size, and the empty member at the end.
func bgzf(data []byte, block int) []byte {
	var out bytes.Buffer
	member := func(p []byte) {
		var m bytes.Buffer
		w, _ := gzip.NewWriterLevel(&m, 6)
		w.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		w.Header.OS = 255
		w.Write(p)
		w.Close()
		b := m.Bytes()
		binary.LittleEndian.PutUint16(b[16:], uint16(len(b)-1))
		out.Write(b)
	}
	for len(data) > 0 {
		n := min(block, len(data))
		member(data[:n])
		data = data[n:]
	}
	member(nil)
	return out.Bytes()
}

func zstdFrames(b *testing.B, data []byte, block int) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Close()
	var out []byte
	for len(data) > 0 {
		n := min(block, len(data))
		out = enc.EncodeAll(data[:n], out)
		data = data[n:]
	}
	return out
}
