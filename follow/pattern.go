package follow

import (
	"fmt"
	"path/filepath"
	"strings"
)

// The question this file answers: which paths does a pattern of OpenMany match, and under
// which directories can a match be? A pattern is filepath.Match's syntax, element by
// element, with "**" as a whole element for any number of directories (none included):
// "logs/*.log", "/var/log/**/*.log", "svc-[0-9]/app.log". Its leading elements without a
// wildcard are its root, the directory its matches are under; a pattern without any
// wildcard is a plain name, which matches itself.

// pattern is one pattern, compiled. Invariant: elems is not empty; a literal pattern has
// one element, the name's last.
type pattern struct {
	text    string   // as given
	prefix  string   // text up to and including the separator before elems ("" for none): names begin with it, as typed
	root    string   // the directory elems are matched under: prefix, cleaned ("." for none)
	elems   []string // the elements after root: filepath.Match patterns, or "**"
	literal bool     // no wildcard: the pattern names one file, text
}

// hasMeta reports whether an element holds a wildcard of filepath.Match (or its escape,
// where there is one).
func hasMeta(elem string) bool {
	magic := `*?[`
	if filepath.Separator != '\\' {
		magic = `*?[\`
	}
	return strings.ContainsAny(elem, magic)
}

// isSep reports whether c separates the elements of a path here.
func isSep(c byte) bool { return c == '/' || c == filepath.Separator }

// compilePattern compiles text, refusing what filepath.Match would refuse in any of its
// elements (an unclosed '['), and an empty pattern.
func compilePattern(text string) (pattern, error) {
	if text == "" {
		return pattern{}, fmt.Errorf("follow: empty pattern")
	}
	vol := filepath.VolumeName(text)
	// The elements, with where each begins in text.
	var elems []string
	var starts []int
	for i := len(vol); i < len(text); {
		for i < len(text) && isSep(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSep(text[j]) {
			j++
		}
		// "**/**" is "**": consecutive ones would only multiply the ways to match.
		if j > i && !(text[i:j] == "**" && len(elems) > 0 && elems[len(elems)-1] == "**") {
			elems, starts = append(elems, text[i:j]), append(starts, i)
		}
		i = j
	}
	if len(elems) == 0 {
		return pattern{}, fmt.Errorf("follow: pattern %q names no file", text)
	}
	for _, e := range elems {
		if _, err := filepath.Match(e, ""); err != nil {
			return pattern{}, fmt.Errorf("follow: pattern %q: %w", text, err)
		}
	}
	// The root: the leading elements without a wildcard, but the last element.
	k := 0
	for k < len(elems)-1 && !hasMeta(elems[k]) && elems[k] != "**" {
		k++
	}
	p := pattern{text: text, prefix: text[:starts[k]], elems: elems[k:]}
	p.literal = k == len(elems)-1 && !hasMeta(elems[k]) && elems[k] != "**"
	p.root = filepath.Clean(p.prefix)
	if p.prefix == "" {
		p.root = "."
	}
	return p, nil
}

// nameOf is the name, as followed, of the file at the elements rel under p's root: p's
// prefix as typed, then rel. A literal pattern's name is its text.
func (p *pattern) nameOf(rel []string) string {
	if p.literal {
		return p.text
	}
	return p.prefix + strings.Join(rel, string(filepath.Separator))
}

// matches reports whether rel, the elements of a path under p's root, is a match.
func (p *pattern) matches(rel []string) bool { return matchElems(p.elems, rel) }

// descends reports whether the directory at rel under p's root may hold a match, at any
// depth: a directory to list, and to watch.
func (p *pattern) descends(rel []string) bool { return descendElems(p.elems, rel) }

// matchElems matches names, element by element, against pats; "**" matches any number
// of elements, none included.
func matchElems(pats, names []string) bool {
	if len(pats) == 0 {
		return len(names) == 0
	}
	if pats[0] == "**" {
		for i := 0; i <= len(names); i++ {
			if matchElems(pats[1:], names[i:]) {
				return true
			}
		}
		return false
	}
	if len(names) == 0 {
		return false
	}
	if ok, _ := filepath.Match(pats[0], names[0]); !ok {
		return false
	}
	return matchElems(pats[1:], names[1:])
}

// descendElems reports whether pats can match dirs and then something more: whether
// the directory dirs may hold a match.
func descendElems(pats, dirs []string) bool {
	if len(dirs) == 0 {
		return len(pats) > 0
	}
	if len(pats) == 0 {
		return false
	}
	if pats[0] == "**" {
		return descendElems(pats[1:], dirs) || descendElems(pats, dirs[1:])
	}
	if ok, _ := filepath.Match(pats[0], dirs[0]); !ok {
		return false
	}
	return descendElems(pats[1:], dirs[1:])
}

// under returns the elements of dir under root, and whether dir is root or under it.
// Both are cleaned paths, as the Many keeps them.
func under(root, dir string) ([]string, bool) {
	if dir == root {
		return nil, true
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, false
	}
	if rel == "." {
		return nil, true
	}
	return strings.Split(rel, string(filepath.Separator)), true
}

// excluder is ManyOptions.Exclude, compiled: a pattern with a separator is matched against
// the whole name as followed (cleaned), one without against its last element ("*.gz"
// excludes every compressed file, wherever it is).
type excluder [][]string

func compileExclude(pats []string) (excluder, error) {
	var out excluder
	for _, text := range pats {
		if _, err := compilePattern(text); err != nil {
			return nil, err
		}
		elems := splitClean(text)
		if len(elems) == 1 {
			elems = append([]string{"**"}, elems...)
		}
		out = append(out, elems)
	}
	return out, nil
}

// excludes reports whether the name, as followed, is excluded.
func (x excluder) excludes(name string) bool {
	if len(x) == 0 {
		return false
	}
	elems := splitClean(name)
	for _, pats := range x {
		if matchElems(pats, elems) {
			return true
		}
	}
	return false
}

// splitClean splits a path, cleaned, into its elements (a leading separator, or a
// volume, is kept on the first: "/var" and "var" differ).
func splitClean(path string) []string {
	path = filepath.Clean(path)
	vol := filepath.VolumeName(path)
	rest := path[len(vol):]
	lead := ""
	if rest != "" && isSep(rest[0]) {
		lead, rest = string(filepath.Separator), rest[1:]
	}
	if rest == "" || rest == "." {
		return []string{vol + lead}
	}
	elems := strings.FieldsFunc(rest, func(r rune) bool { return r < 0x80 && isSep(byte(r)) })
	if vol+lead != "" {
		elems = append([]string{vol + lead}, elems...)
	}
	return elems
}
