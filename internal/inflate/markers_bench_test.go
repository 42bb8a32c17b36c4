package inflate_test

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/foreachio/foreach/internal/inflate"
)

// BenchmarkMarkers decodes 8 MiB of Go sources (gzip -6's level) from its
// second block, with a Decoder and with a MarkerDecoder, the window
// unknown, then resolving its markers; and finds the first block header with
// NextHeader from every 64 KiB of the stream.
//
//	go test -run '^$' -bench Markers ./internal/inflate
func BenchmarkMarkers(b *testing.B) {
	data := goSources(b, 8<<20)
	stream := deflate(b, data, 6, 0)
	points := blockPoints(b, stream, data)
	p := points[1]
	b.Run("Decoder", func(b *testing.B) {
		b.SetBytes(int64(len(data)) - p.Out)
		d := inflate.NewReader(bytes.NewReader(nil))
		buf := make([]byte, 64<<10)
		for b.Loop() {
			d.ResetAt(bufio.NewReaderSize(bytes.NewReader(stream[p.Bit/8:]), 64<<10), uint(p.Bit%8), p.window)
			for {
				if _, err := d.Read(buf); err != nil {
					break
				}
			}
		}
	})
	var m inflate.MarkerDecoder
	buf := make([]byte, 0, inflate.BufferRoom(len(data)))
	var syms []uint16
	b.Run("MarkerDecoder", func(b *testing.B) {
		b.SetBytes(int64(len(data)) - p.Out)
		for b.Loop() {
			m.Reset(bufio.NewReaderSize(bytes.NewReader(stream[p.Bit/8:]), 64<<10), uint(p.Bit%8), buf, syms)
			for m.Block() == nil {
			}
			_, syms = m.Text(m.Len())
		}
	})
	b.Run("Resolve", func(b *testing.B) {
		var r inflate.Resolver
		text, syms := m.Text(m.Len())
		b.SetBytes(int64(len(syms)))
		for b.Loop() {
			r.Resolve(text, syms, p.window)
		}
	})
	b.Run("NextHeader", func(b *testing.B) {
		var scanned int64
		for b.Loop() {
			for from := int64(0); from < int64(len(stream))*8; from += 512 << 10 {
				got := inflate.NextHeader(stream, from, int64(len(stream))*8)
				if got < 0 {
					got = int64(len(stream)) * 8
				}
				scanned += (got - from + 7) / 8
			}
		}
		b.ReportMetric(float64(scanned)/b.Elapsed().Seconds()/1e6, "MB/s")
	})
}
