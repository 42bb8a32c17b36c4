package linereader

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// prefilter decides, from a line's first bytes and without running the regexp, what a
// Multiline pattern says of the line, where those bytes settle it. It is worked out once
// from the pattern's syntax tree (regexp/syntax) and its literal prefix (LiteralPrefix):
//
//   - a pattern anchored at the text's start (^foo, ^(func|type) , ^\d{4}-, ^\s) can
//     match only a line whose first byte is one its first character can begin with
//     (first); a line with another first byte, or an empty line when the pattern cannot
//     match the empty string, does not match;
//   - when the whole pattern is ^ and one character of a class that the first byte
//     decides (^\s, ^[ \t], ^\S: ASCII members, and the runes past ASCII all in the class
//     or all out of it), the first byte settles a match too (exact);
//   - when the whole pattern is ^ and a choice of fixed sequences of ASCII characters
//     (^\d{4}-\d\d-\d\d , ^(func|type|var|const|import) , ^\[(INFO|WARN)\]: seqs), a
//     line matches exactly when it begins with one of them, compared byte by byte;
//   - ^ and a literal (lit): the line must begin with it, and then matches when the
//     literal is the whole pattern (complete);
//   - an unanchored pattern with a literal prefix (contains): a line without it does
//     not match; one with it matches when the literal is the whole pattern.
//
// Every rule holds for the text a pattern sees, and so for the regexp's own answer,
// including an invalid UTF-8 byte, which the regexp reads as U+FFFD: a class that holds
// U+FFFD counts every byte from 0x80 among its first bytes.
//
// Anchoring: in Go's default (Perl) syntax ^ matches at the text's start only; a pattern
// compiled with CompilePOSIX, or with (?m), has a ^ that also matches after a "\n"
// inside the text. Both are the same on a text without "\n", which every line is when
// "\n" is the separator (noNL); with another separator the anchored rules are used only
// on a text known whole and without "\n".
type prefilter struct {
	anchored bool      // every match begins at the text's start
	nullable bool      // with anchored: the pattern may match an empty text (no first-byte rule then)
	exact    bool      // with anchored: a first byte in first is a match
	noNL     bool      // a line's text never holds "\n" (the separator is "\n")
	first    [256]bool // with anchored: the bytes a match's first byte can be
	lit      []byte    // with anchored: a literal every match begins with, or nil
	complete bool      // lit (or contains) is the whole pattern
	contains []byte    // unanchored: a literal every match holds (regexp's LiteralPrefix), or nil
	seqs     []byteSeq // with anchored: the pattern is exactly these choices after ^ (nil: it is not)
}

// newPrefilter works out re's prefilter; noNL says a line's text never holds "\n".
func newPrefilter(re *regexp.Regexp, noNL bool) prefilter {
	p := prefilter{noNL: noNL}
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return p // not a Perl-syntax pattern (cannot happen for a compiled one): the regexp decides
	}
	tree = tree.Simplify()
	if !anchoredAt(tree) {
		if lit, complete := re.LiteralPrefix(); lit != "" {
			p.contains, p.complete = []byte(lit), complete
		}
		return p
	}
	p.anchored = true
	p.nullable = leading(tree, &p.first)
	p.exact = !p.nullable && decidedByFirstByte(tree)
	if lit, complete := anchoredLiteral(tree); len(lit) > 0 {
		p.lit, p.complete = lit, complete
	}
	if rest, ok := afterAnchor(tree); ok {
		p.seqs, _ = sequences(rest)
	}
	return p
}

// match reports whether re matches the line text p, deciding from its first bytes when
// it can. whole says p is the whole text; otherwise known reports whether p decides.
func (f *prefilter) match(re *regexp.Regexp, p []byte, whole bool) (match, known bool) {
	if f.anchored && (f.noNL || whole && bytes.IndexByte(p, '\n') < 0) {
		if m, ok := f.anchoredMatch(p, whole); ok {
			return m, true
		}
	} else if f.contains != nil && whole {
		if !bytes.Contains(p, f.contains) {
			return false, true
		}
		if f.complete {
			return true, true
		}
	}
	if !whole {
		return false, false
	}
	return re.Match(p), true
}

// anchoredMatch is match's decision by first bytes for an anchored pattern: ok reports
// whether the bytes at hand settle it.
func (f *prefilter) anchoredMatch(p []byte, whole bool) (match, ok bool) {
	if !f.nullable && len(p) > 0 && !f.first[p[0]] {
		return false, true // the one test most lines fail
	}
	if f.seqs != nil {
		return matchSeqs(f.seqs, p, whole)
	}
	if f.lit != nil {
		switch {
		case len(p) >= len(f.lit):
			if !bytes.Equal(p[:len(f.lit)], f.lit) {
				return false, true
			}
			if f.complete {
				return true, true
			}
		case whole:
			return false, true // shorter than what every match begins with
		default:
			return false, false
		}
	}
	if f.nullable {
		return false, false
	}
	if len(p) == 0 {
		return false, whole // an empty text cannot match
	}
	if !f.first[p[0]] {
		return false, true
	}
	return f.exact, f.exact
}

// anchoredAt reports whether every match of re begins at the text's start: re begins
// with \A (^ in the default syntax) on every path.
func anchoredAt(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginText:
		return true
	case syntax.OpCapture:
		return anchoredAt(re.Sub[0])
	case syntax.OpConcat:
		return len(re.Sub) > 0 && anchoredAt(re.Sub[0])
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !anchoredAt(sub) {
				return false
			}
		}
		return true
	}
	return false
}

// leading adds to set every byte that the first byte of a non-empty match of re can
// be, and reports whether re can match the empty string. It errs on the safe side: an
// assertion (^, $, \b) counts as matching the empty string, and an operator it does not
// know adds every byte.
func leading(re *syntax.Regexp, set *[256]bool) (nullable bool) {
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return true
		}
		addRune(set, re.Rune[0], re.Flags&syntax.FoldCase != 0)
		return false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			addRange(set, re.Rune[i], re.Rune[i+1])
		}
		return false
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		for b := range set {
			set[b] = set[b] || b != '\n' || re.Op == syntax.OpAnyChar
		}
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return leading(re.Sub[0], set)
	case syntax.OpStar, syntax.OpQuest:
		leading(re.Sub[0], set)
		return true
	case syntax.OpRepeat:
		return leading(re.Sub[0], set) || re.Min == 0
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !leading(sub, set) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		any := false
		for _, sub := range re.Sub {
			any = leading(sub, set) || any
		}
		return any
	}
	for b := range set {
		set[b] = true
	}
	return true
}

// addRune adds the first byte of r's UTF-8 encoding to set, and with fold those of the
// runes it folds to.
func addRune(set *[256]bool, r rune, fold bool) {
	addRange(set, r, r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			addRange(set, f, f)
		}
	}
}

// addRange adds the first bytes of the UTF-8 encodings of lo..hi to set: first bytes
// grow with the rune, so those from lo's to hi's. A range that holds U+FFFD, which the
// regexp reads for an invalid byte, adds every byte from 0x80.
func addRange(set *[256]bool, lo, hi rune) {
	if lo <= utf8.RuneError && utf8.RuneError <= hi {
		for b := 0x80; b < 256; b++ {
			set[b] = true
		}
	}
	for b := firstByte(lo); b <= firstByte(hi); b++ {
		set[b] = true
	}
}

// firstByte is the first byte of r's UTF-8 encoding (of U+FFFD for a rune that has none).
func firstByte(r rune) int {
	var buf [utf8.UTFMax]byte
	utf8.EncodeRune(buf[:], r)
	return int(buf[0])
}

// decidedByFirstByte reports whether re, anchored, is ^ and one character whose class
// the first byte decides: a text begins with a member exactly when its first byte is
// one of the class's first bytes (its ASCII members, and, for a byte from 0x80, the
// class holds every rune from 0x80, U+FFFD included, or none).
func decidedByFirstByte(re *syntax.Regexp) bool {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpConcat || len(re.Sub) != 2 || re.Sub[0].Op != syntax.OpBeginText {
		return false
	}
	ch := re.Sub[1]
	for ch.Op == syntax.OpCapture {
		ch = ch.Sub[0]
	}
	switch ch.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpLiteral:
		return len(ch.Rune) == 1 && ch.Rune[0] < utf8.RuneSelf && ch.Flags&syntax.FoldCase == 0
	case syntax.OpCharClass:
		return classDecidedByFirstByte(ch.Rune)
	}
	return false
}

// classDecidedByFirstByte reports whether the class of the rune pairs r holds every rune
// from 0x80 on or none of them.
func classDecidedByFirstByte(r []rune) bool {
	for i := 0; i+1 < len(r); i += 2 {
		lo, hi := r[i], r[i+1]
		if hi < utf8.RuneSelf {
			continue
		}
		// The pairs are sorted and apart: the one that reaches past ASCII must cover
		// every rune from 0x80.
		return lo <= utf8.RuneSelf && hi >= unicode.MaxRune
	}
	return true
}

// anchoredLiteral returns the literal an anchored re begins with (case-sensitive runes
// right after ^), and whether it is the whole pattern.
func anchoredLiteral(re *syntax.Regexp) ([]byte, bool) {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpBeginText {
		return nil, false
	}
	lit := re.Sub[1]
	if lit.Op != syntax.OpLiteral || lit.Flags&syntax.FoldCase != 0 {
		return nil, false
	}
	for _, r := range lit.Rune {
		if r == utf8.RuneError {
			return nil, false // the regexp reads an invalid byte as U+FFFD: not a byte to compare
		}
	}
	return []byte(string(lit.Rune)), len(re.Sub) == 2
}
