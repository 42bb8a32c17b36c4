package corpus_test

import (
	"io"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// BenchmarkGenerate measures the generator alone (io.Discard), 8 MiB per
// shape: SetBytes makes the result a throughput.
func BenchmarkGenerate(b *testing.B) {
	for _, sh := range corpus.Shapes() {
		b.Run(string(sh), func(b *testing.B) {
			s := corpus.Spec{Shape: sh, Size: 8 << 20}
			b.SetBytes(s.Size)
			for b.Loop() {
				if _, err := corpus.Generate(io.Discard, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
