package escape

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseEscapes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{``, ""},
		{`abc`, "abc"},
		{`\n`, "\n"},
		{`\r\n`, "\r\n"},
		{`\t`, "\t"},
		{`\0`, "\x00"},
		{`\\`, `\`},
		{`\\n`, `\n`},
		{`\x41\x62`, "Ab"},
		{`\xff\xFE`, "\xff\xfe"},
		{`\x000`, "\x000"},
		{`a\0b`, "a\x00b"},
		{"é", "é"},
	} {
		got, err := Parse(tc.in)
		if assert.NoError(t, err, tc.in) {
			assert.Equal(t, []byte(tc.want), got, tc.in)
		}
	}
}

func TestParseEscapesErrors(t *testing.T) {
	for in, msg := range map[string]string{
		`\`:     `trailing backslash (write \\ for a backslash)`,
		`ab\`:   `trailing backslash (write \\ for a backslash)`,
		`\q`:    `unknown escape \q (known: \n \r \t \0 \\ \xHH)`,
		`\N`:    `unknown escape \N (known: \n \r \t \0 \\ \xHH)`,
		`\x`:    `\x needs two hex digits`,
		`\x4`:   `\x needs two hex digits`,
		`\xg0`:  `\x needs two hex digits`,
		`\x0g`:  `\x needs two hex digits`,
		`\1`:    `unknown escape \1 (known: \n \r \t \0 \\ \xHH)`,
		`a\x4 `: `\x needs two hex digits`,
	} {
		_, err := Parse(in)
		if assert.Error(t, err, in) {
			assert.Equal(t, msg, err.Error(), in)
		}
	}
}
