// Command seqloop is the sequential baseline of beam/bench.sh: one goroutine reads each
// file with a linereader loop and does the work foreach-beam does (count the records of
// each file and every word), or, with -records, only counts records.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/foreachio/foreach/linereader"
)

func main() {
	recordsOnly := flag.Bool("records", false, "only count records")
	flag.Parse()
	counts := map[string]int64{}
	var records, words int64
	for _, name := range flag.Args() {
		r, err := linereader.Open(name, linereader.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "seqloop:", err)
			os.Exit(1)
		}
		for rec := range r.Views() {
			records++
			if *recordsOnly {
				continue
			}
			for w := range bytes.FieldsSeq(rec) {
				counts[string(w)]++
				words++
			}
		}
		if err := r.Err(); err != nil {
			fmt.Fprintln(os.Stderr, "seqloop:", err)
			os.Exit(1)
		}
		r.Close()
	}
	fmt.Printf("%d files, %d records, %d words, %d distinct\n", flag.NArg(), records, words, len(counts))
}
