package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

// BenchmarkCommand runs the command in-process over generated files with the flag sets
// people use most, to profile the command as a whole:
//
//	go test -run '^$' -bench Command -benchtime 20x -cpuprofile cpu.out ./cmd/foreach
//
// The command is built without a default.pgo: profile-guided optimisation from this
// profile gave no difference beyond the spread of the runs when it was tried.
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
