package linereader_test

import (
	"fmt"
	"log"
	"os"

	"github.com/foreachio/foreach/linereader"
)

// The last 3 lines of a file, as tail -n 3 prints them: only the end of the file is read.
func ExampleNewTail() {
	name, cleanup, err := exampleFile(exampleRecords(1000))
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()
	f, err := os.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		log.Fatal(err)
	}
	r := linereader.NewTail(f, info.Size(), 3, linereader.Options{Chomp: true})
	for line := range r.Views() {
		fmt.Printf("%s (offset %d)\n", line, r.Offset())
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// record 997 (offset 10857)
	// record 998 (offset 10868)
	// record 999 (offset 10879)
}

// The newest entries of a log first, as tac prints them; an unterminated last line is
// yielded first, as it is.
func ExampleNewBackward() {
	name, cleanup, err := exampleFile("09:00 start\n09:05 warm\n09:10 ready\n09:15 half writ")
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()
	f, err := os.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		log.Fatal(err)
	}
	r := linereader.NewBackward(f, info.Size(), linereader.Options{})
	for line := range r.Views() {
		fmt.Printf("%d: %q\n", r.LineNo(), line)
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 1: "09:15 half writ"
	// 2: "09:10 ready\n"
	// 3: "09:05 warm\n"
	// 4: "09:00 start\n"
}
