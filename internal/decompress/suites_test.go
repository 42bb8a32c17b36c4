package decompress_test

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/foreachio/foreach/internal/decompress"
	"github.com/foreachio/foreach/internal/testkit/suites"
)

// TestSuites reads every file of the formats' own suites (internal/testkit/suites:
// xz-utils' tests/files, zstd's golden files, Go's and zlib's deflate and gzip vectors,
// bzip2's samples), whole and one byte at a time, and checks the outcome the suite
// states: a good file byte for byte, a bad one an *Error of its format (decode checks
// the format and the offset) after no byte its reference decoder does not yield, an
// unsupported one refused in words that say so. It logs the passes per suite.
func TestSuites(t *testing.T) {
	kind := suites.KindOf(decompress.ErrTrailingData)
	passed, total := map[string]int{}, map[string]int{}
	for _, c := range suites.Cases(t) {
		for _, a := range []struct {
			name string
			wrap func(r io.Reader) io.Reader
		}{{"whole", nil}, {"one-byte", iotest.OneByteReader}} {
			got, err, _ := decode(t, c.Framed(), a.wrap)
			msg := c.Check(got, err, kind)
			total[c.Suite]++
			if _, ok := knownFailures[c.Name]; ok && msg == "" {
				t.Errorf("%s (%s): passes; take it off knownFailures", c.Name, a.name)
			}
			if msg != "" {
				if reason, ok := knownFailures[c.Name]; ok {
					t.Logf("%s (%s, %s): %s; known: %s", c.Name, c.Outcome, a.name, msg, reason)
					continue
				}
				t.Errorf("%s (%s, %s): %s", c.Name, c.Outcome, a.name, msg)
				continue
			}
			passed[c.Suite]++
		}
	}
	var tally []string
	for s := range total {
		tally = append(tally, fmt.Sprintf("%s %d/%d", s, passed[s], total[s]))
	}
	sort.Strings(tally)
	t.Logf("passed: %s", strings.Join(tally, ", "))
}

// knownFailures are the cases not yet read as their suite says, and why.
var knownFailures = map[string]string{
	"zstd/off0.bin.zst": "klauspost/compress decodes offset 0 as 1, as zstd 1.5.5 did",
}
