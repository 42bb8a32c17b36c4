package decompress_test

import (
	"bytes"
	"compress/gzip"
	"errors"
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

// Bytes after the end of the compressed data are reported once everything
// before them has been read: a reader of such files as zcat reads them takes
// the error for a warning. Zero padding after the data is no error.
func ExampleErrTrailingData() {
	var file bytes.Buffer
	zw := gzip.NewWriter(&file)
	zw.Write([]byte("the only line\n"))
	zw.Close()
	end := file.Len()
	file.WriteString("garbage")

	r := decompress.NewReader(&file)
	defer r.Close()
	_, err := io.Copy(os.Stdout, r)
	var de *decompress.Error
	if errors.Is(err, decompress.ErrTrailingData) && errors.As(err, &de) {
		// err reads "gzip: decompression OK, trailing data at compressed
		// byte N ignored", N the offset where the gzip data ends.
		fmt.Println("warning: trailing data after the", de.Format, "data:", de.Offset == int64(end))
	}
	// Output:
	// the only line
	// warning: trailing data after the gzip data: true
}
