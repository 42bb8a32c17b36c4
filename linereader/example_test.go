package linereader_test

import (
	"fmt"
	"strings"

	"github.com/foreachio/foreach/linereader"
)

// The default: lines ending in "\n", copied out, terminator kept.
func ExampleReader_Lines() {
	r := linereader.New(strings.NewReader("alpha\nbeta\ngamma"), linereader.Options{})
	var kept [][]byte
	for line := range r.Lines() {
		kept = append(kept, line) // each line is the caller's to keep
	}
	if err := r.Err(); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Printf("%q\n", kept)
	// Output: ["alpha\n" "beta\n" "gamma"]
}

// Views lends each record without copying: look at it inside the loop body only.
func ExampleReader_Views() {
	r := linereader.New(strings.NewReader("GET /a\nPOST /b\nGET /c\n"), linereader.Options{})
	gets := 0
	for rec := range r.Views() {
		if strings.HasPrefix(string(rec), "GET ") {
			gets++
		}
	}
	fmt.Println(gets, r.Err())
	// Output: 2 <nil>
}

// Pull-style iteration with line numbers, offsets and Chomp.
func ExampleReader_Next() {
	r := linereader.New(strings.NewReader("one\r\ntwo\nthree"), linereader.Options{Chomp: true})
	for r.Next() {
		fmt.Printf("%d @%d %q\n", r.LineNo(), r.Offset(), r.Text())
	}
	fmt.Println(r.Err())
	// Output:
	// 1 @0 "one"
	// 2 @5 "two"
	// 3 @9 "three"
	// <nil>
}

// Paragraph mode, Ruby's separator "": blank-line runs end a record.
func ExampleOptions_paragraph() {
	in := "\n\nfirst para\nline two\n\n\n\nsecond para\n"
	r := linereader.New(strings.NewReader(in), linereader.Options{Paragraph: true, Chomp: true})
	for r.Next() {
		fmt.Printf("%q\n", r.Text())
	}
	// Output:
	// "first para\nline two"
	// "second para\n"
}

// A multi-byte separator and a limit: a separator split by the limit's cut is not found.
func ExampleOptions_limit() {
	r := linereader.New(strings.NewReader("xxabyyab"), linereader.Options{Sep: []byte("ab"), Limit: 3})
	for r.Next() {
		fmt.Printf("%q line %d\n", r.Text(), r.LineNo())
	}
	// Output:
	// "xxa" line 0
	// "byy" line 0
	// "ab" line 1
}

// MaxRecord bounds memory on hostile input: the long record is reported, not buffered.
func ExampleTooLongError() {
	r := linereader.New(strings.NewReader("ok\n"+strings.Repeat("x", 100)+"\n"), linereader.Options{MaxRecord: 16})
	for r.Next() {
		fmt.Printf("%q\n", r.Text())
	}
	fmt.Println(r.Err())
	// Output:
	// "ok\n"
	// linereader: record 2 at offset 3 is longer than the maximum of 16 bytes
}

// Batches: runs of records sharing one fresh block per batch.
func ExampleReader_Batches() {
	r := linereader.New(strings.NewReader("a\nb\nc\n"), linereader.Options{Chomp: true})
	for batch := range r.Batches() {
		fmt.Printf("%d records: %q\n", len(batch), batch)
	}
	// Output: 3 records: ["a" "b" "c"]
}

// Runs passes records through a run at a time: here, copying a log while counting lines.
func ExampleReader_Runs() {
	r := linereader.New(strings.NewReader("a\nbb\nccc\ndddd"), linereader.Options{})
	var out strings.Builder
	for run := range r.Runs() {
		out.Write(run) // one or more whole records, exactly as in the input
	}
	fmt.Printf("%q %d records, line %d, %v\n", out.String(), r.Stats().Records, r.LineNo(), r.Err())
	// Output: "a\nbb\nccc\ndddd" 4 records, line 4, <nil>
}
