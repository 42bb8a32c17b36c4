package escape

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// FuzzParse: Parse does not panic; an error is one line; what it decodes, written
// again as \xHH escapes, decodes to the same bytes; and any bytes with their
// backslashes doubled decode to themselves.
func FuzzParse(f *testing.F) {
	for _, s := range []string{``, `\n`, `\r\n`, `\x41\x6`, `\x4`, `\`, `a\\`, `\q`, "\\\n", `\xZZ`, "é\\0", `\\\x00`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, err := Parse(strings.ReplaceAll(s, `\`, `\\`)); err != nil || string(got) != s {
			t.Fatalf("Parse of %q with its backslashes doubled = %q, %v", s, got, err)
		}
		b, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("Parse(%q): %q: not one line", s, err)
			}
			return
		}
		var hex strings.Builder
		for _, c := range b {
			fmt.Fprintf(&hex, `\x%02X`, c)
		}
		if again, err := Parse(hex.String()); err != nil || !bytes.Equal(again, b) {
			t.Fatalf("Parse(%q) = %q, and its \\xHH form %q gives %q, %v", s, b, hex.String(), again, err)
		}
	})
}
