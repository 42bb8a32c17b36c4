// Command longline measures the memory the engine needs for one long record: it writes
// a file holding a single line of the given size (unless it exists), reads it with one
// iterator, and prints the line's size, the buffer's peak capacity and the process's
// peak resident memory, with their ratios to the line. benchmarks/memory.sh runs it.
//
//	go run ./benchmarks/cmd/longline -size 1GiB -iter views FILE
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/dustin/go-humanize"
	"github.com/foreachio/foreach/linereader"
)

func main() {
	size := flag.String("size", "1GiB", "the line's size, newline included")
	iter := flag.String("iter", "views", "views, lines or pieces")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: longline [-size SIZE] [-iter views|lines|pieces] FILE")
		os.Exit(2)
	}
	n, err := humanize.ParseBytes(*size)
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "longline: bad -size:", *size)
		os.Exit(2)
	}
	name := flag.Arg(0)
	if err := ensure(name, int64(n)); err != nil {
		fmt.Fprintln(os.Stderr, "longline:", err)
		os.Exit(1)
	}
	r, err := linereader.Open(name, linereader.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "longline:", err)
		os.Exit(1)
	}
	longest := 0
	switch *iter {
	case "views":
		for rec := range r.Views() {
			longest = max(longest, len(rec))
		}
	case "lines":
		for rec := range r.Lines() {
			longest = max(longest, len(rec))
		}
	case "pieces":
		for rec := range r.Pieces() {
			longest = max(longest, len(rec))
		}
	default:
		fmt.Fprintln(os.Stderr, "longline: -iter is views, lines or pieces")
		os.Exit(2)
	}
	if err := r.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "longline:", err)
		os.Exit(1)
	}
	st := r.Stats()
	peak := "- (not known here)"
	if rss, ok := peakRSS(); ok {
		peak = fmt.Sprintf("%s (%.2f×)", humanize.IBytes(uint64(rss)), float64(rss)/float64(n))
	}
	fmt.Printf("| %s | %s | %s | %d | %s (%.2f×) | %s |\n", *iter, humanize.IBytes(n), humanize.IBytes(uint64(longest)),
		st.Buffer.Grows, humanize.IBytes(uint64(st.Buffer.PeakCap)), float64(st.Buffer.PeakCap)/float64(n), peak)
}

// ensure writes name as one line of n bytes ("x"s and a newline) unless it already has
// that size.
func ensure(name string, n int64) error {
	if st, err := os.Stat(name); err == nil && st.Size() == n {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = 'x'
	}
	for left := n - 1; left > 0; {
		k := min(left, int64(len(chunk)))
		w.Write(chunk[:k])
		left -= k
	}
	w.WriteByte('\n')
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
