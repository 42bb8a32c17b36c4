package decompress_test

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/decompress"
)

// TestGzipFollows checks the rule zindex walks members by: what follows a
// member is another (its magic number left to read), the end, padding, a
// member cut in its magic number, or trailing data.
func TestGzipFollows(t *testing.T) {
	cases := []struct {
		after    string
		more     bool
		err      error
		rest     string // what is left to read when another member follows
		trailing bool
	}{
		{"", false, nil, "", false},
		{"\x00\x00\x00", false, nil, "", false},
		{"\x1f\x8b\x08\x00rest", true, nil, "\x1f\x8b\x08\x00rest", false},
		{"\x1f\x8b", false, io.ErrUnexpectedEOF, "", false},
		{"garbage", false, decompress.ErrTrailingData, "garbage", true},
		{"\x00\x00x", false, decompress.ErrTrailingData, "x", true},
	}
	for _, c := range cases {
		r := bufio.NewReader(strings.NewReader(c.after))
		more, err := decompress.GzipFollows(r, 100)
		if more != c.more || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%q: %v, %v; want %v, %v", c.after, more, err, c.more, c.err)
			continue
		}
		var de *decompress.Error
		if err != nil && (!errors.As(err, &de) || de.Format != decompress.Gzip || (c.trailing && de.Offset != 100)) {
			t.Errorf("%q: %#v is not a gzip *Error at offset 100", c.after, err)
		}
		if rest, _ := io.ReadAll(r); c.more && string(rest) != c.rest {
			t.Errorf("%q: %q left to read, want the next member, %q", c.after, rest, c.rest)
		}
	}
}
