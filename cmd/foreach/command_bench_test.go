package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foreachio/foreach/testdata/gen/corpus"
)

// BenchmarkCommand runs the command in-process over generated files with the flag sets
// people use most, to profile the command as a whole:
//
//	go test -run '^$' -bench Command -benchtime 20x -cpuprofile cpu.out ./cmd/foreach
//
// That profile was tried as a default.pgo (profile-guided optimisation) and gave nothing
// measurable (hyperfine, 128 MiB tall file, 15 runs: -n 112 vs 115 ms, -H 90 vs 84 ms,
// plain copy 28.3 vs 28.8 ms, all within the spread), so the command is built without one.
func BenchmarkCommand(b *testing.B) {
	dir := b.TempDir()
	files := map[corpus.Shape]string{}
	for _, shape := range []corpus.Shape{corpus.Tall, corpus.Mixed} {
		files[shape] = filepath.Join(dir, string(shape)+".txt")
		if _, err := corpus.WriteFile(files[shape], corpus.Spec{Shape: shape, Size: 16 << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	for _, flags := range []string{"", "-n", "-c -j1", "-C --ors \\n", "-H", "--stats", "-s ab"} {
		for shape, name := range files {
			b.Run("shape="+string(shape)+"/flags="+flags, func(b *testing.B) {
				args := append(strings.Fields(flags), name)
				b.SetBytes(16 << 20)
				for b.Loop() {
					if st := run(args, strings.NewReader(""), io.Discard, io.Discard); st != 0 {
						b.Fatalf("exit status %d", st)
					}
				}
			})
		}
	}
}
