package decompress_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/foreachio/foreach/internal/decompress"
)

func Example() {
	// Two gzip members, as cat a.gz b.gz makes them.
	var file bytes.Buffer
	for _, s := range []string{"first line\n", "second line\n"} {
		zw := gzip.NewWriter(&file)
		zw.Write([]byte(s))
		zw.Close()
	}

	r := decompress.NewReader(&file)
	defer r.Close()
	if _, err := io.Copy(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	fmt.Println(r.Format())
	// Output:
	// first line
	// second line
	// gzip
}

func ExampleError() {
	var file bytes.Buffer
	zw := gzip.NewWriter(&file)
	zw.Write(bytes.Repeat([]byte("a line of text\n"), 1000))
	zw.Close()
	cut := file.Bytes()[:file.Len()-10] // the file cut short

	r := decompress.NewReader(bytes.NewReader(cut))
	defer r.Close()
	n, err := io.Copy(io.Discard, r)
	fmt.Println(n, "bytes, then:", err)
	// Output:
	// 15000 bytes, then: gzip: unexpected end of data at compressed byte 77
}
