// Package escape decodes the backslash escapes that the command line tools of the
// project accept for separators (--sep, --ors): \n \r \t \0 \\ and \xHH.
package escape

import (
	"errors"
	"fmt"
)

// Parse decodes \n \r \t \0 \\ and \xHH in s; any other backslash
// sequence is an error, so that a typo does not become a silent separator.
func Parse(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i == len(s) {
			return nil, errors.New(`trailing backslash (write \\ for a backslash)`)
		}
		switch s[i] {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case '0':
			out = append(out, 0)
		case '\\':
			out = append(out, '\\')
		case 'x':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return nil, fmt.Errorf(`\x needs two hex digits`)
			}
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			return nil, fmt.Errorf(`unknown escape %s (known: \n \r \t \0 \\ \xHH)`, escapeName(s[i]))
		}
	}
	return out, nil
}

// escapeName is how an error names the escape of c: \c when c is printable, so that
// the message stays one line whatever the input.
func escapeName(c byte) string {
	if ' ' < c && c < 0x7f {
		return `\` + string(rune(c))
	}
	return fmt.Sprintf(`\ then the byte 0x%02x`, c)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}
