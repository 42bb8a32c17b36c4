package zindex_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/zindex"
)

// A gzip file's text read at an offset, counted in sections and taken from
// its end, through its index.
func Example() {
	var text strings.Builder
	for i := range 100000 {
		fmt.Fprintf(&text, "line %d\n", i)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text.String()))
	zw.Close()

	ix, err := zindex.Build(bytes.NewReader(gz.Bytes()), 64<<10)
	if err != nil {
		panic(err)
	}
	ra := ix.ReaderAt(bytes.NewReader(gz.Bytes()))
	p := make([]byte, 10)
	ra.ReadAt(p, 500000)
	fmt.Printf("%d bytes of text, %d access points; at 500000: %q\n", ix.Size(), ix.Points(), p)

	n, _ := linereader.CountAt(ra, ix.Size(), linereader.Options{}, 2)
	fmt.Println(n, "lines")
	for line := range linereader.NewTail(ra, ix.Size(), 2, linereader.Options{Chomp: true}).Lines() {
		fmt.Println(string(line))
	}
	// Output:
	// 1088890 bytes of text, 13 access points; at 500000: "6464\nline "
	// 100000 lines
	// line 99998
	// line 99999
}
