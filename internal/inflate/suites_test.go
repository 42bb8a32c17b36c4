package inflate_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/foreachio/foreach/internal/inflate"
	"github.com/foreachio/foreach/internal/testkit/suites"
)

// TestSuites decodes the raw deflate streams of the formats' suites (Go's
// compress/flate vectors, zlib's infcover.c streams) with the inflater alone, as
// internal/decompress's TestSuites reads them framed in gzip members: a good stream
// gives zlib's bytes, a bad one an error after no byte zlib does not give (a code
// table without an end-of-block code is refused before any output), a stream without
// its end all that zlib gives and then io.ErrUnexpectedEOF.
func TestSuites(t *testing.T) {
	kind := suites.KindOf(nil)
	n := 0
	for _, c := range suites.Cases(t) {
		if c.Suite != "deflate" {
			continue
		}
		got, err := io.ReadAll(inflate.NewReader(bytes.NewReader(c.Input)))
		if msg := c.Check(got, err, kind); msg != "" {
			t.Errorf("%s (%s): %s", c.Name, c.Outcome, msg)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("%d deflate cases, want the suites' 102", n)
	}
}
