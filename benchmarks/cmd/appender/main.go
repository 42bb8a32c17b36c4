// Command appender appends records to a file as fast as it can, one write(2) per record,
// as a logger without a buffer does, and prints how many it wrote per second.
// benchmarks/follow-vs-tail.sh runs it beside a follower.
//
//	go run ./benchmarks/cmd/appender -n 1000000 FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	n := flag.Int("n", 1_000_000, "how many records to append")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: appender [-n N] FILE")
		os.Exit(2)
	}
	f, err := os.OpenFile(flag.Arg(0), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "appender:", err)
		os.Exit(1)
	}
	rec := []byte("record 0000000\n")
	start := time.Now()
	for i := range *n {
		for k, v := 13, i; k >= 7; k, v = k-1, v/10 {
			rec[k] = byte('0' + v%10) // the record's number, without a call per record
		}
		if _, err := f.Write(rec); err != nil {
			fmt.Fprintln(os.Stderr, "appender:", err)
			os.Exit(1)
		}
	}
	elapsed := time.Since(start)
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "appender:", err)
		os.Exit(1)
	}
	fmt.Printf("%d %.0f\n", *n, float64(*n)/elapsed.Seconds())
}
