package linereader_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
	"github.com/foreachio/foreach/linereader"
)

// BenchmarkMultiline reads the stacktrace corpus (8 MiB, from memory) with Views, as
// lines and as records of many lines with a Start and a Continue pattern.
func BenchmarkMultiline(b *testing.B) {
	in, err := corpus.Bytes(corpus.Spec{Shape: corpus.StackTrace, Size: 8 << 20, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    *linereader.Multiline
	}{
		{"lines", nil},
		{"start", &linereader.Multiline{Start: regexp.MustCompile(`^\d{4}-\d\d-\d\d `)}},
		{"continue", &linereader.Multiline{Continue: regexp.MustCompile(`^\s|^Caused by|^java\.`)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			r := linereader.New(bytes.NewReader(in), linereader.Options{Multiline: c.m})
			for b.Loop() {
				r.Reset(bytes.NewReader(in))
				for range r.Views() {
				}
			}
		})
	}
}
