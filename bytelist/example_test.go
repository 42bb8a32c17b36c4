package bytelist_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/foreachio/foreach/bytelist"
)

// One list serves every iteration: Reset keeps the backing array, so only the first record,
// and then records longer than any before, make it grow.
func Example() {
	var line bytelist.ByteList // the zero value is ready to use
	for _, word := range []string{"alpha", "beta", "gamma", "delta"} {
		line.Reset()
		line.Write([]byte(word))
		line.WriteByte('\n')
		os.Stdout.Write(line.Bytes()) // borrowed: valid until the next change
	}
	s := line.Stats()
	fmt.Printf("grows %d, resets %d, capacity %d\n", s.Grows, s.Resets, line.Cap())
	// Output:
	// alpha
	// beta
	// gamma
	// delta
	// grows 1, resets 4, capacity 64
}

// Bytes borrows and Clone copies out: keep a Clone, not a view, beyond the next change.
func ExampleByteList_Clone() {
	var b bytelist.ByteList
	b.Write([]byte("first"))
	view, kept := b.Bytes(), b.Clone()
	b.Reset()
	b.Write([]byte("SECOND"))
	fmt.Printf("view %q, clone %q\n", view, kept)
	// Output:
	// view "SECON", clone "first"
}

// Fill reads once into the spare capacity and Discard drops what has been consumed: the
// core of a line reader. The bytes of a read are used before its error is looked at, as
// io.Reader's contract asks.
func ExampleByteList_Fill() {
	src := strings.NewReader("one\ntwo\nthree")
	b := bytelist.New(8)
	for {
		_, err := b.Fill(src, 4)
		for {
			i := bytes.IndexByte(b.Bytes(), '\n')
			if i < 0 {
				break
			}
			fmt.Printf("%q\n", b.Bytes()[:i+1])
			b.Discard(i + 1)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	if b.Len() > 0 {
		fmt.Printf("%q (no final newline)\n", b.Bytes())
	}
	// Output:
	// "one\n"
	// "two\n"
	// "three" (no final newline)
}

// ReadFrom reads a whole input into the list; io.EOF is the end, not an error. It keeps
// room for a full read ahead of the data (so it grows twice here, on a first read of 12
// bytes); Reset then reuses the same backing array, and the second input needs no growth.
func ExampleByteList_ReadFrom() {
	var b bytelist.ByteList
	for _, in := range []string{"first input\n", "second\n"} {
		b.Reset()
		n, err := b.ReadFrom(strings.NewReader(in))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d bytes: %q, grows so far %d\n", n, b.String(), b.Stats().Grows)
	}
	// Output:
	// 12 bytes: "first input\n", grows so far 2
	// 7 bytes: "second\n", grows so far 2
}

// After one very long record, Release gives the memory back instead of keeping the peak
// capacity for the rest of the loop.
func ExampleByteList_Release() {
	b := bytelist.New(64)
	b.Write(make([]byte, 1<<20)) // one huge record
	b.Reset()
	b.Release(64)
	s := b.Stats()
	fmt.Printf("capacity %d, peak %d, grows %d\n", b.Cap(), s.PeakCap, s.Grows)
	// Output:
	// capacity 64, peak 1048576, grows 1
}

// WriteString appends a string without converting it to a []byte first, so a ByteList
// works with fmt.Fprint and io.WriteString like a bytes.Buffer.
func ExampleByteList_WriteString() {
	b := bytelist.New(0)
	b.WriteString("id,name\n")
	for i, name := range []string{"ada", "grace"} {
		fmt.Fprintf(b, "%d,%s\n", i+1, name)
	}
	fmt.Print(b.String())
	// Output:
	// id,name
	// 1,ada
	// 2,grace
}
