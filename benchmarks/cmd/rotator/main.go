// Command rotator appends numbered records to a file, one write(2) each, and rotates it
// every -every records, as a busy logger under a fast log rotation: the file renamed away
// (to a unique name, FILE.1, FILE.2, …, or with -shift to FILE.1 after every FILE.k has
// become FILE.k+1, the oldest past -keep deleted, as logrotate does), a new file created
// at the name, the writer moving to it. With -interval, one rotation every interval
// (sleeping between); without, as fast as it can. It prints the records written, the
// rotations and the mean interval between rotations.
// benchmarks/rotation-vs-tail.sh runs it beside foreach -f and tail -F.
//
//	go run ./benchmarks/cmd/rotator -n 200000 -every 200 -interval 2ms FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	n := flag.Int("n", 200_000, "records to write")
	every := flag.Int("every", 200, "records per file")
	interval := flag.Duration("interval", 0, "time between rotations (0: as fast as possible)")
	shift := flag.Bool("shift", false, "numbered shifting (FILE.1 → FILE.2 …) instead of unique names")
	keep := flag.Int("keep", 50, "with -shift: rotated files kept (the oldest is deleted)")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 || *every < 1 {
		fmt.Fprintln(os.Stderr, "usage: rotator [-n N] [-every K] [-interval D] [-shift [-keep K]] FILE")
		os.Exit(2)
	}
	name := flag.Arg(0)
	rotations, elapsed, err := write(name, *n, *every, *interval, *shift, *keep)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rotator:", err)
		os.Exit(1)
	}
	mean := time.Duration(0)
	if rotations > 0 {
		mean = elapsed / time.Duration(rotations)
	}
	fmt.Printf("records %d rotations %d mean-interval %v\n", *n, rotations, mean)
}

// write writes the records and rotates; it returns the rotations made and the time taken.
func write(name string, n, every int, interval time.Duration, shift bool, keep int) (int, time.Duration, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	rotations := 0
	rec := make([]byte, 0, 32)
	for i := range n {
		if i > 0 && i%every == 0 {
			if interval > 0 {
				time.Sleep(time.Until(start.Add(time.Duration(rotations+1) * interval)))
			}
			rotations++
			if err := rotate(name, rotations, shift, keep); err != nil {
				return rotations, 0, err
			}
			g, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				return rotations, 0, err
			}
			f.Close()
			f = g
		}
		rec = append(strconv.AppendInt(append(rec[:0], "seq="...), int64(i), 10), '\n')
		if _, err := f.Write(rec); err != nil {
			return rotations, 0, err
		}
	}
	return rotations, time.Since(start), f.Close()
}

// rotate renames name away for the k-th rotation.
func rotate(name string, k int, shift bool, keep int) error {
	if !shift {
		return os.Rename(name, name+"."+strconv.Itoa(k))
	}
	os.Remove(name + "." + strconv.Itoa(keep)) // the oldest, if there are keep already
	for j := min(k, keep) - 1; j >= 1; j-- {
		if err := os.Rename(name+"."+strconv.Itoa(j), name+"."+strconv.Itoa(j+1)); err != nil {
			return err
		}
	}
	return os.Rename(name, name+".1")
}
