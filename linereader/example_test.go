package linereader_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/foreachio/foreach/linereader"
)

// exampleFile writes content to a new file in a new temporary directory and returns its
// name and a function that removes both.
func exampleFile(content string) (name string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "linereader-example")
	if err != nil {
		return "", nil, err
	}
	name = filepath.Join(dir, "input.txt")
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return name, func() { os.RemoveAll(dir) }, nil
}

// exampleRecords returns n lines "record 0\n" ... "record n-1\n".
func exampleRecords(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "record %d\n", i)
	}
	return b.String()
}

// The default: lines ending in "\n", copied out, terminator kept.
func ExampleReader_Lines() {
	r := linereader.New(strings.NewReader("alpha\nbeta\ngamma"), linereader.Options{})
	var kept [][]byte
	for line := range r.Lines() {
		kept = append(kept, line) // each line is the caller's to keep
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", kept)
	// Output: ["alpha\n" "beta\n" "gamma"]
}

// A file is read the same way: one reused buffer, each record copied out once, so the
// last record is still intact after the loop.
func ExampleReader_Lines_file() {
	name, cleanup, err := exampleFile(exampleRecords(100_000))
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()

	r, err := linereader.Open(name, linereader.Options{Chomp: true})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	var last []byte
	for line := range r.Lines() {
		last = line // owned: safe to keep after the loop
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(last), r.LineNo())
	// Output: record 99999 100000
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
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(gets)
	// Output: 2
}

// Pull-style iteration with line numbers, offsets and Chomp.
func ExampleReader_Next() {
	r := linereader.New(strings.NewReader("one\r\ntwo\nthree"), linereader.Options{Chomp: true})
	for r.Next() {
		fmt.Printf("%d @%d %q\n", r.LineNo(), r.Offset(), r.Text())
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 1 @0 "one"
	// 2 @5 "two"
	// 3 @9 "three"
}

// Batches: runs of records sharing one fresh block per batch, which the caller owns.
func ExampleReader_Batches() {
	r := linereader.New(strings.NewReader("a\nb\nc\n"), linereader.Options{Chomp: true})
	for batch := range r.Batches() {
		fmt.Printf("%d records: %q\n", len(batch), batch)
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
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
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %d records, line %d\n", out.String(), r.Stats().Records, r.LineNo())
	// Output: "a\nbb\nccc\ndddd" 4 records, line 4
}

// Reset reuses one Reader, and its buffer, for input after input: the buffer grown for
// the first inputs serves the next ones, and line numbers start again from 0.
func ExampleReader_Reset() {
	inputs := []string{"a\nb\n", "one line, no newline", "", "x\ny\nz\n"}
	r := linereader.New(nil, linereader.Options{Chomp: true}) // the source comes with Reset
	for i, in := range inputs {
		r.Reset(strings.NewReader(in))
		var recs []string
		for rec := range r.Views() {
			recs = append(recs, string(rec)) // string copies the borrowed record
		}
		if err := r.Err(); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("input %d: %d lines %q\n", i, r.LineNo(), recs)
	}
	// Output:
	// input 0: 2 lines ["a" "b"]
	// input 1: 1 lines ["one line, no newline"]
	// input 2: 0 lines []
	// input 3: 3 lines ["x" "y" "z"]
}

// Foreach is Ruby's IO.foreach: it opens the file, calls fn with each line (owned by fn)
// and closes the file. An error returned by fn stops it and is returned as is.
func ExampleForeach() {
	name, cleanup, err := exampleFile("# settings\nname=demo\nsize=3\n__END__\nignored=1\n")
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()

	errEnd := errors.New("end marker")
	err = linereader.Foreach(name, linereader.Options{Chomp: true}, func(line []byte) error {
		switch {
		case string(line) == "__END__":
			return errEnd
		case strings.HasPrefix(string(line), "#"):
			return nil
		}
		fmt.Printf("%s\n", line)
		return nil
	})
	if err != nil && !errors.Is(err, errEnd) {
		log.Fatal(err)
	}
	// Output:
	// name=demo
	// size=3
}

// CountAt counts the records of a file already open, so that the count is of that file
// even if its name is replaced meanwhile. Large files are counted in parallel sections.
func ExampleCountAt() {
	name, cleanup, err := exampleFile(exampleRecords(1000) + "last, unterminated")
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()

	f, err := os.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		log.Fatal(err)
	}
	n, err := linereader.CountAt(f, st.Size(), linereader.Options{}, 0) // 0: one worker per CPU
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "records")
	// Output: 1001 records
}

// Partition cuts a size into contiguous spans balanced within one byte, the longer first.
func ExamplePartition() {
	fmt.Println(linereader.Partition(10, 3))
	fmt.Println(linereader.Partition(2, 4)) // fewer bytes than spans: one span per byte
	fmt.Println(linereader.Partition(0, 4)) // an empty input: one empty span
	// Output:
	// [{0 4} {4 7} {7 10}]
	// [{0 1} {1 2}]
	// [{0 0}]
}

// NewSection with Partition reads one file on several goroutines: each section yields
// the records that start in its span, so together they are exactly the file's records,
// each once. Here each goroutine sums the numbers of its records.
func ExampleNewSection() {
	name, cleanup, err := exampleFile(exampleRecords(1000))
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()

	f, err := os.Open(name) // an *os.File is an io.ReaderAt: concurrent ReadAt calls are safe
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		log.Fatal(err)
	}
	opt := linereader.Options{Chomp: true}
	spans := linereader.Partition(st.Size(), 4)
	type result struct {
		records, sum int64
		err          error
	}
	results := make([]result, len(spans))
	var wg sync.WaitGroup
	for i, span := range spans {
		wg.Go(func() {
			r := linereader.NewSection(f, span.Start, span.End, opt)
			res := &results[i]
			for rec := range r.Views() {
				var k int64
				if _, err := fmt.Sscanf(string(rec), "record %d", &k); err != nil {
					res.err = fmt.Errorf("record at offset %d: %w", r.Offset(), err)
					return
				}
				res.records++
				res.sum += k
			}
			res.err = r.Err()
		})
	}
	wg.Wait()
	var records, sum int64
	for i, res := range results {
		if res.err != nil {
			log.Fatalf("span %d: %v", i, res.err)
		}
		fmt.Printf("span %d %v: %d records\n", i, spans[i], res.records)
		records += res.records
		sum += res.sum
	}
	fmt.Println(records, "records, sum", sum)
	// Output:
	// span 0 {0 2723}: 258 records
	// span 1 {2723 5446}: 248 records
	// span 2 {5446 8168}: 247 records
	// span 3 {8168 10890}: 247 records
	// 1000 records, sum 499500
}

// Validate says, before anything is read, which options are at fault and why. Open,
// Count and CountAt return its error; New and NewSection report it through Err.
func ExampleOptions_Validate() {
	for _, opt := range []linereader.Options{
		{Sep: []byte("\r\n"), Chomp: true},
		{Paragraph: true, Whole: true},
		{Limit: -1, MaxRecord: -1},
	} {
		if err := opt.Validate(); err != nil {
			fmt.Println(errors.Is(err, linereader.ErrInvalidOptions), err)
			continue
		}
		fmt.Println("valid")
	}
	// Output:
	// valid
	// true linereader: invalid options: Paragraph and Whole conflict
	// true linereader: invalid options: Limit -1 is negative; MaxRecord -1 is negative
}

// Paragraph mode, Ruby's separator "": blank-line runs end a record.
func ExampleOptions_paragraph() {
	in := "\n\nfirst para\nline two\n\n\n\nsecond para\n"
	r := linereader.New(strings.NewReader(in), linereader.Options{Paragraph: true, Chomp: true})
	for r.Next() {
		fmt.Printf("%q\n", r.Text())
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
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
	if err := r.Err(); err != nil {
		log.Fatal(err)
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
	var tooLong *linereader.TooLongError
	if err := r.Err(); errors.As(err, &tooLong) {
		fmt.Printf("record %d at offset %d: longer than %d bytes\n", tooLong.LineNo, tooLong.Offset, tooLong.Max)
	} else if err != nil {
		log.Fatal(err)
	}
	// Output:
	// "ok\n"
	// record 2 at offset 3: longer than 16 bytes
}

// Pieces passes records of any length on in bounded memory: a record longer than the
// buffer comes in pieces, and Partial says that more of the same record follows.
func ExampleReader_Pieces() {
	in := strings.Repeat("x", 10) + "\nshort\n"
	r := linereader.New(strings.NewReader(in), linereader.Options{BufferSize: 4, Chomp: true})
	for p := range r.Pieces() {
		fmt.Printf("%q partial=%v line=%d\n", p, r.Partial(), r.LineNo())
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// "xxx" partial=true line=0
	// "xxxx" partial=true line=0
	// "xxx" partial=false line=1
	// "shor" partial=true line=1
	// "t" partial=false line=2
}

// Release gives back a buffer that grew for one long record, without losing what is
// buffered: the reader goes on with the same records.
func ExampleReader_Release() {
	in := strings.Repeat("z", 1<<20) + "\nafter\n"
	r := linereader.New(strings.NewReader(in), linereader.Options{BufferSize: 4096, Chomp: true})
	r.Next()
	fmt.Println(len(r.Bytes()), r.Stats().Buffer.PeakCap >= 1<<20)
	r.Release()
	for r.Next() {
		fmt.Println(r.Text())
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 1048576 true
	// after
}
