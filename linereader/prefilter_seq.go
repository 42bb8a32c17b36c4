package linereader

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// Patterns that are fixed sequences of ASCII characters after ^: each character one
// byte, from a class of ASCII bytes (a literal, \d, [ \t], (?i)x where x folds only to
// ASCII), the sequences one of a few choices (alternation, ?, fixed repetition). A line
// matches such a pattern exactly when it begins with one of the sequences, so the
// prefilter decides every line with a few byte comparisons, the regexp never run.

// byteSet is a set of bytes, one bit each.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) union(t *byteSet) {
	s[0], s[1], s[2], s[3] = s[0]|t[0], s[1]|t[1], s[2]|t[2], s[3]|t[3]
}

// byteSeq is a fixed sequence of byte classes: a text begins with it when its i-th
// byte is in the i-th class.
type byteSeq []byteSet

// Limits of sequences: past them the pattern is left to the first-byte rules and the
// regexp (a class of many choices, such as [a-z]{3}, is one class per byte, not many
// sequences, so few patterns reach them).
const (
	maxSeqs   = 64
	maxSeqLen = 64
)

// afterAnchor returns what follows ^ in a pattern that is ^ and more on every path: the
// rest of a Concat that begins with \A, the empty match for \A alone, and for an
// alternation of such (^\s|^Caused by), the alternation of what follows each ^.
func afterAnchor(re *syntax.Regexp) (*syntax.Regexp, bool) {
	switch {
	case re.Op == syntax.OpCapture:
		return afterAnchor(re.Sub[0])
	case re.Op == syntax.OpBeginText:
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}, true
	case re.Op == syntax.OpAlternate:
		alt := &syntax.Regexp{Op: syntax.OpAlternate}
		for _, sub := range re.Sub {
			rest, ok := afterAnchor(sub)
			if !ok {
				return nil, false
			}
			alt.Sub = append(alt.Sub, rest)
		}
		return alt, true
	case re.Op != syntax.OpConcat || len(re.Sub) == 0 || re.Sub[0].Op != syntax.OpBeginText:
		return nil, false
	}
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[1:]}, true
}

// sequences returns the choices of fixed ASCII sequences that re is exactly, or false
// when it is not such a pattern (or has too many).
func sequences(re *syntax.Regexp) ([]byteSeq, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []byteSeq{{}}, true
	case syntax.OpCapture:
		return sequences(re.Sub[0])
	case syntax.OpLiteral:
		seq := make(byteSeq, 0, len(re.Rune))
		for _, r := range re.Rune {
			c, ok := asciiClass([]rune{r, r}, re.Flags&syntax.FoldCase != 0)
			if !ok {
				return nil, false
			}
			seq = append(seq, c)
		}
		return []byteSeq{seq}, len(seq) <= maxSeqLen
	case syntax.OpCharClass:
		c, ok := asciiClass(re.Rune, false)
		return []byteSeq{{c}}, ok
	case syntax.OpQuest:
		sub, ok := sequences(re.Sub[0])
		return append(sub, byteSeq{}), ok && len(sub) < maxSeqs
	case syntax.OpAlternate:
		var all []byteSeq
		for _, sub := range re.Sub {
			s, ok := sequences(sub)
			if all = append(all, s...); !ok || len(all) > maxSeqs {
				return nil, false
			}
		}
		return all, true
	case syntax.OpConcat:
		return concatSequences(re.Sub)
	}
	return nil, false
}

// concatSequences returns the sequences of subs one after the other: every choice of
// each, in turn.
func concatSequences(subs []*syntax.Regexp) ([]byteSeq, bool) {
	all := []byteSeq{{}}
	for _, sub := range subs {
		next, ok := sequences(sub)
		if !ok || len(all)*len(next) > maxSeqs {
			return nil, false
		}
		var prod []byteSeq
		for _, a := range all {
			for _, b := range next {
				if len(a)+len(b) > maxSeqLen {
					return nil, false
				}
				prod = append(prod, append(append(byteSeq{}, a...), b...))
			}
		}
		all = prod
	}
	return all, true
}

// asciiClass returns the byte class of the rune pairs r (with fold, and the runes they
// fold to), or false when a member is not ASCII: such a character is not one byte.
func asciiClass(r []rune, fold bool) (byteSet, bool) {
	var c byteSet
	for i := 0; i+1 < len(r); i += 2 {
		if r[i+1] >= utf8.RuneSelf {
			return c, false
		}
		for x := r[i]; x <= r[i+1]; x++ {
			c.add(byte(x))
			for f := unicode.SimpleFold(x); fold && f != x; f = unicode.SimpleFold(f) {
				if f >= utf8.RuneSelf {
					return c, false
				}
				c.add(byte(f))
			}
		}
	}
	return c, true
}

// matchSeqs reports whether the text p begins with one of seqs; when p is only a
// beginning of the text (not whole), known is false while its bytes leave it open.
func matchSeqs(seqs []byteSeq, p []byte, whole bool) (match, known bool) {
	open := false
	for _, seq := range seqs {
		n := min(len(seq), len(p))
		i := 0
		for i < n && seq[i].has(p[i]) {
			i++
		}
		switch {
		case i == len(seq):
			return true, true
		case i == len(p) && !whole:
			open = true // it may still begin with this one
		}
	}
	return false, !open
}
