package follow

import (
	"cmp"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The question this file answers: what does a rotated file's name say of its place among
// the files of its name? Files rotated within one tick of the file system's clock have the
// same times, and their births and inode numbers are a guess (issue 44: unique names,
// app.log.1, .2, ..., a rotation every 2 ms on a loaded machine, printed out of order).
// Their names say it where the names are stable: a date (app.log-20261201, .2026-12-01:
// later is newer), or a number that each rotation makes higher (app.log.1, .2, ...: the
// listings show the higher numbers newer, see numbering). Numbered shifting (logrotate's
// default: app.log.1 becomes .2 at each rotation) renames every file at each rotation, so
// its numbers, taken at different listings, say nothing: those files keep the order of
// their times.

// suffixKind is what a suffix's digits are.
type suffixKind uint8

const (
	suffixNone   suffixKind = iota // no digits, or not a rotation's suffix
	suffixNumber                   // one run of fewer than 8 digits: .1, -3, .12.gz
	suffixDate                     // 8 digits or more, or several runs: -20261201, .2026-12-01-13, -1700000000
)

// nameKey is what a rotated file's name says: its suffix's kind and digits, as they are
// in the name (a date's runs joined).
type nameKey struct {
	kind   suffixKind
	digits string
}

// compressions are the extensions of the compressed files a rotation makes.
var compressions = []string{".gz", ".bz2", ".xz", ".zst", ".lz4", ".Z", ".zip"}

// trimCompression drops a compression's extension from the end of s.
func trimCompression(s string) string {
	for _, ext := range compressions {
		if strings.HasSuffix(s, ext) {
			return s[:len(s)-len(ext)]
		}
	}
	return s
}

// rotationSuffix reports whether s, what a file's name adds to a followed name's, is what
// rotation adds: a number or a date after a '.', '-' or '_' (".1", "-20261201",
// ".2026-12-01", "_1700000000"), a compression's extension, or both (".2.gz").
func rotationSuffix(s string) bool {
	s = trimCompression(s)
	if s == "" {
		return true
	}
	if !strings.ContainsRune(".-_", rune(s[0])) {
		return false
	}
	rest := s[1:]
	return strings.ContainsAny(rest, "0123456789") &&
		strings.Trim(rest, "0123456789-_.:T") == ""
}

// keyOf is what the name of path says, for the followed name: its suffix's digits.
func keyOf(name, path string) nameKey {
	base, b := filepath.Base(name), filepath.Base(path)
	if len(b) <= len(base) || !strings.HasPrefix(b, base) || !rotationSuffix(b[len(base):]) {
		return nameKey{}
	}
	suffix := trimCompression(b[len(base):])
	runs := strings.FieldsFunc(suffix, func(r rune) bool { return r < '0' || r > '9' })
	switch {
	case len(runs) == 0:
		return nameKey{}
	case len(runs) == 1 && len(runs[0]) < 8:
		return nameKey{kind: suffixNumber, digits: strings.TrimLeft(runs[0], "0")}
	}
	return nameKey{kind: suffixDate, digits: strings.Join(runs, "")}
}

// numbering is what the listings show of a name's numbered files: whether a higher
// number is a newer file (ascending: each rotation takes the next number) or an older one
// (descending: numbered shifting), or nothing yet.
type numbering int8

const (
	numberingUnknown numbering = iota
	numberingAscending
	numberingDescending
)

// learn updates n from a listing of the files beside the name: the numbered files whose
// times are more than a tick apart say which way the numbers go. A listing that says
// nothing (every numbered file within one tick) leaves n as it was.
func (n *numbering) learn(name string, files []sibling) {
	type point struct {
		num uint64
		mod time.Time
	}
	var pts []point
	for _, sib := range files {
		k := keyOf(name, sib.path)
		if k.kind != suffixNumber {
			continue
		}
		v, err := strconv.ParseUint("0"+k.digits, 10, 64)
		if err == nil {
			pts = append(pts, point{v, sib.fi.ModTime()})
		}
	}
	slices.SortFunc(pts, func(a, b point) int { return cmp.Compare(a.num, b.num) })
	up, down := 0, 0
	for i := 1; i < len(pts); i++ {
		switch d := pts[i].mod.Sub(pts[i-1].mod); {
		case d > tick:
			up++
		case d < -tick:
			down++
		}
	}
	switch {
	case up > down:
		*n = numberingAscending
	case down > up:
		*n = numberingDescending
	}
}

// named is what a file's name says of its place: its key, taken when it was found, and
// the numbering of its name's files as the listings show it (shared by the name's files,
// read and written under the discovery's lock).
type named struct {
	key   nameKey
	order *numbering
}

// compare orders a and b by what their names say: -1 when a's name says it is older,
// +1 when newer; ok is false when the names say nothing (not both dated, nor both
// numbered in a numbering seen to ascend).
func (a named) compare(b named) (c int, ok bool) {
	if a.key.kind != b.key.kind || a.key.kind == suffixNone || a.key.digits == b.key.digits {
		return 0, false
	}
	if a.key.kind == suffixNumber && (a.order == nil || *a.order != numberingAscending) {
		return 0, false
	}
	if len(a.key.digits) != len(b.key.digits) {
		if a.key.kind == suffixDate {
			return 0, false // two formats of date: nothing to compare
		}
		return cmp.Compare(len(a.key.digits), len(b.key.digits)), true
	}
	return strings.Compare(a.key.digits, b.key.digits), true
}

// closeInTime reports whether a and b, two files' modification times, are too close
// for their order to be told by them: within one tick, or within the same second when
// one of them is kept to the second (bzip2's, lz4's).
func closeInTime(a, b time.Time) bool {
	if a.Nanosecond() == 0 || b.Nanosecond() == 0 {
		return a.Truncate(time.Second).Equal(b.Truncate(time.Second))
	}
	d := a.Sub(b)
	return d <= tick && d >= -tick
}

// nameOf notes on fl what its name, path, says for the followed name, with the numbering
// its name's files share.
func (fl *file) nameOf(name, path string, order *numbering) {
	fl.named = named{key: keyOf(name, path), order: order}
}
