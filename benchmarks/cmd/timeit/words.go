package main

import (
	"errors"
	"strings"
)

// splitWords splits a command line into words as a POSIX shell does, and as hyperfine -N
// does, so that both run the same argv: white space separates words; inside '...'
// everything is literal; inside "..." a backslash escapes only \ " $ and `; elsewhere a
// backslash makes the next character literal. Nothing is expanded.
func splitWords(s string) ([]string, error) {
	var (
		words []string
		w     strings.Builder
		in    bool // a word has begun (an empty '' is a word)
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
			continue
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated '")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			n, err := doubleQuoted(s[i+1:], &w)
			if err != nil {
				return nil, err
			}
			i += n + 1
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New("a backslash at the end")
			}
			i++
			w.WriteByte(s[i])
		default:
			w.WriteByte(c)
		}
		in = true
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// doubleQuoted writes the text of a "..." whose opening quote precedes s to w, and
// returns the index of its closing quote in s.
func doubleQuoted(s string, w *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i, nil
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0:
			i++
			w.WriteByte(s[i])
		default:
			w.WriteByte(c)
		}
	}
	return 0, errors.New(`unterminated "`)
}

// joinWords quotes words so that splitWords (and a shell) gives them back.
func joinWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.IndexFunc(w, func(r rune) bool { return strings.ContainsRune(" \t\n'\"\\$`|&;<>()*?[]#~", r) }) < 0 {
			q[i] = w
		} else {
			q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
