package corpus_test

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/foreachio/foreach/internal/measure/corpus"
)

func Example() {
	b, err := corpus.Bytes(corpus.Spec{Shape: corpus.Tall, Lines: 3, Phrases: 4, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	os.Stdout.Write(b)
	// Output:
	// an orange batch a
	// and silver newline was
	// for to offset forest
}

func ExampleGenerate() {
	// The same Spec gives the same bytes anywhere: crlf with seed 7, two
	// lines of three words.
	var buf bytes.Buffer
	n, err := corpus.Generate(&buf, corpus.Spec{Shape: corpus.CRLF, Lines: 2, Phrases: 3, Seed: 7})
	fmt.Printf("%d bytes, err %v\n%q\n", n, err, buf.String())
	// Output:
	// 40 bytes, err <nil>
	// "text garden paragraph\r\nare buffer read\r\n"
}

func ExampleSpec_Validate() {
	err := corpus.Spec{Shape: "square"}.Validate()
	fmt.Println(err)
	// Output:
	// corpus: unknown shape "square" (want one of tall, wide, verywide, mixed, crlf, no-final-newline, huge-line, binary, stacktrace)
}
