package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCommandSmallFiles runs the command in-process over 2,000 small files, most
// of a few KB as a source tree's are, into a regular file, to profile what the command
// costs per file (opening, reading, the engine's setup) rather than per byte:
//
//	go test -run '^$' -bench CommandSmallFiles -benchtime 20x -cpuprofile cpu.out ./cmd/foreach
func BenchmarkCommandSmallFiles(b *testing.B) {
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 31))
	var names []string
	var size int64
	for i := range 2000 {
		var text strings.Builder
		for n := rng.ExpFloat64() * 8000; text.Len() < int(n); {
			text.WriteString(strings.Repeat("\t", rng.IntN(4)))
			text.WriteString(strings.Repeat("x", rng.IntN(60)))
			text.WriteByte('\n')
		}
		name := filepath.Join(dir, fmt.Sprintf("%04d.go", i))
		if err := os.WriteFile(name, []byte(text.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
		size += int64(text.Len())
	}
	out, err := os.Create(filepath.Join(b.TempDir(), "out"))
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	for _, flags := range []string{"", "-n", "-c", "-H -n"} {
		b.Run("flags="+flags, func(b *testing.B) {
			args := append(strings.Fields(flags), names...)
			b.SetBytes(size)
			for b.Loop() {
				if err := out.Truncate(0); err != nil {
					b.Fatal(err)
				}
				if _, err := out.Seek(0, 0); err != nil {
					b.Fatal(err)
				}
				if st := run(args, strings.NewReader(""), out, os.Stderr); st != 0 {
					b.Fatalf("exit status %d", st)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(names)), "µs/file")
		})
	}
}
