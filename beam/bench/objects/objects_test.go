// Package objects measures what reading an object in sections costs on the fake stores:
// bytes sent by the server against the object's size, and wall time, for a 200 MB object
// cut in 1, 4 and 16 sections, and for its gzip read whole.
//
//	cd beam/bench && go test ./objects -run '^$' -bench . -benchtime 1x
package objects

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/foreachio/foreach/beam/internal/fakestore"
	"github.com/foreachio/foreach/beam/objstore"
	"github.com/foreachio/foreach/linereader"
)

const objectSize = 200 << 20

// text is objectSize bytes of lines of 0 to 400 bytes.
func text() []byte {
	rng := rand.New(rand.NewPCG(5, 6))
	var b bytes.Buffer
	b.Grow(objectSize + 512)
	for b.Len() < objectSize {
		fmt.Fprintf(&b, "%s\n", strings.Repeat("abcdefghij", rng.IntN(41)))
	}
	return b.Bytes()
}

func BenchmarkSections(b *testing.B) {
	data := text()
	var want int64
	for _, c := range data {
		if c == '\n' {
			want++
		}
	}
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		s := start(b)
		s.Bucket(b, "b")
		uri := s.Put(b, "b", "big.log", data)
		for _, k := range []int{1, 4, 16} {
			b.Run(fmt.Sprintf("%s/k=%d", s.Scheme, k), func(b *testing.B) {
				for b.Loop() {
					before := s.Sent.Load()
					obj, err := objstore.Open(context.Background(), uri)
					if err != nil {
						b.Fatal(err)
					}
					var n int64
					for _, sp := range linereader.Partition(obj.Size, k) {
						ra := obj.ReaderAt(context.Background(), sp.End)
						r := linereader.NewSection(ra, sp.Start, sp.End, linereader.Options{})
						for r.Next() {
							n++
						}
						if err := r.Err(); err != nil {
							b.Fatal(err)
						}
						ra.Close()
					}
					if n != want {
						b.Fatalf("%d records, want %d", n, want)
					}
					sent := s.Sent.Load() - before
					b.ReportMetric(float64(sent)/float64(len(data)), "sent/size")
					b.ReportMetric(float64(sent-int64(len(data)))/float64(k), "extra-B/section")
				}
			})
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		gzURI := s.Put(b, "b", "big.log.gz", gz.Bytes())
		b.Run(s.Scheme+"/gzip-whole", func(b *testing.B) {
			for b.Loop() {
				before := s.Sent.Load()
				obj, err := objstore.Open(context.Background(), gzURI)
				if err != nil {
					b.Fatal(err)
				}
				rc, err := obj.NewStream(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				zr, err := gzip.NewReader(rc)
				if err != nil {
					b.Fatal(err)
				}
				r := linereader.New(zr, linereader.Options{})
				var n int64
				for r.Next() {
					n++
				}
				rc.Close()
				if err := r.Err(); err != nil || n != want {
					b.Fatalf("%d records, %v; want %d", n, err, want)
				}
				b.ReportMetric(float64(s.Sent.Load()-before)/float64(gz.Len()), "sent/size")
			}
		})
	}
}
