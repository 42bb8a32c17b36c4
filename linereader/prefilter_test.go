package linereader

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// prefilterPatterns: anchored and not, literal prefixes complete or not, classes the
// first byte decides and ones it does not, folded case, non-ASCII, POSIX ^, (?m)^,
// assertions, alternations, patterns that match everything or nothing.
var prefilterPatterns = []string{
	`^\s`, `^\S`, `^[ \t]`, `^[^a-z]`, `^.`, `^(?s:.)`, `^foo`, `^foo$`, `^fo+`, `^(func|type|var|const|import) `,
	`^\d{4}-\d\d`, `(?i)^k`, `(?i)^foo`, `^é`, `^[é-ü]x`, `^[\x{80}-\x{10FFFF}]`, `^\x{FFFD}`, `^$`, `^`, ``, `.*`,
	`x^`, `foo`, `foo|bar`, `^a|^b`, `^a|b`, `(^a)`, `^(a)b`, `\bfoo`, `^\bx`, `(?m)^T`, `^\z`, `^a*`, `^a*b`,
	`^[\n]`, `^\n`, `[^\x00-\x{10FFFF}]`, `^[^\x00-\x{10FFFF}]`, `^\pL`, `^\PL`,
	`^\d{4}-\d\d`, `^(?i)fo`, `^(?i:k)x`, `^(INFO|WARN) `, `^a?b`, `^(foo)?(bar)?$`, `^[0-9]{2}:`, `^(a|b)(c|d)x`,
	`^\s|^Caused by|^java\.`, `^a|^bc`, `(^a|^b)c`,
}

// A prefilter's answer is the regexp's: on whole texts, and, where it decides from a
// beginning, on every text that begins so.
func TestPrefilterAgreesWithRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 7))
	alphabet := []string{"f", "o", "foo", "func ", "type ", "a", "b", "k", "K", "\u212a", "x", "T", " ", "\t", "\n",
		"1", "2024-", "-", "é", "ü", "\xc3", "\xff", "\xef\xbf\xbd", ""}
	text := func() []byte {
		var b []byte
		for range rng.IntN(6) {
			b = append(b, alphabet[rng.IntN(len(alphabet))]...)
		}
		return b
	}
	for _, src := range prefilterPatterns {
		for _, compile := range []func(string) (*regexp.Regexp, error){regexp.Compile, regexp.CompilePOSIX} {
			re, err := compile(src)
			if err != nil {
				continue // not POSIX syntax
			}
			for _, noNL := range []bool{false, true} {
				f := newPrefilter(re, noNL)
				for range 3000 {
					p := text()
					if noNL {
						p = dropNL(p)
					}
					if m, known := f.match(re, p, true); !known || m != re.Match(p) {
						t.Fatalf("%q noNL %v: match(%q, whole) = %v, %v; the regexp says %v", re, noNL, p, m, known, re.Match(p))
					}
					for k := 0; k <= len(p); k++ {
						m, known := f.match(re, p[:k], false)
						if known && m != re.Match(p) {
							t.Fatalf("%q noNL %v: the beginning %q of %q decided %v; the regexp says %v", re, noNL, p[:k], p, m, re.Match(p))
						}
					}
				}
			}
		}
	}
}

func dropNL(p []byte) []byte {
	out := p[:0]
	for _, c := range p {
		if c != '\n' {
			out = append(out, c)
		}
	}
	return out
}

// The patterns the docs give as examples are decided without the regexp where their
// first bytes allow it.
func TestPrefilterDecides(t *testing.T) {
	cases := []struct {
		pattern string
		text    string
		whole   bool
		match   bool
	}{
		{`^\s`, "\tat foo", false, true},
		{`^\s`, "2024 x", false, false},
		{`^[ \t]`, " x", false, true},
		{`^\S`, "\xffx", false, true},
		{`^(func|type|var|const|import) `, "\tx := 1", true, false},
		{`^(func|type|var|const|import) `, "}", true, false},
		{`^\d{4}-`, "  at", false, false},
		{`^foo`, "fob", false, false},
		{`^\d{4}-\d\d-\d\d `, "2026-05-01 00:00", false, true},
		{`^\d{4}-\d\d-\d\d `, "2026-05-0x", false, false},
		{`^(func|type|var|const|import) `, "func main() {", true, true},
		{`^(func|type|var|const|import) `, "type", true, false},
		{`^(?i)warn`, "WaRn x", false, true},
		{`^foo`, "foobar", false, true},
		{`^foo`, "fo", true, false},
		{`Exception`, "no such thing here", true, false},
		{`Exception`, "java.lang.Exception: x", true, true},
	}
	for _, c := range cases {
		re := regexp.MustCompile(c.pattern)
		f := newPrefilter(re, true)
		var nilRe *regexp.Regexp // a call of the regexp would panic: the prefilter alone decides
		m, known := f.match(nilRe, []byte(c.text), c.whole)
		if !known || m != c.match {
			t.Errorf("%q on %q: %v, %v; want %v decided", c.pattern, c.text, m, known, c.match)
		}
	}
}
