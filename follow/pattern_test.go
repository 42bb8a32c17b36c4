package follow

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPatternCompile(t *testing.T) {
	sep := string(filepath.Separator)
	for _, tc := range []struct {
		text, prefix, root string
		elems              []string
		literal            bool
	}{
		{"*.log", "", ".", []string{"*.log"}, false},
		{"app.log", "", ".", []string{"app.log"}, true},
		{"./app.log", "./", ".", []string{"app.log"}, true},
		{"logs/*.log", "logs/", "logs", []string{"*.log"}, false},
		{"./logs//*.log", "./logs//", "logs", []string{"*.log"}, false},
		{"/var/log/**/*.log", "/var/log/", sep + "var" + sep + "log", []string{"**", "*.log"}, false},
		{"svc-[0-9]/app.log", "", ".", []string{"svc-[0-9]", "app.log"}, false},
		{"a/**", "a/", "a", []string{"**"}, false},
	} {
		p, err := compilePattern(tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if p.prefix != tc.prefix || p.root != tc.root || p.literal != tc.literal || !equalStrings(p.elems, tc.elems) {
			t.Errorf("%q: prefix %q root %q elems %q literal %v; want %q %q %q %v", tc.text, p.prefix, p.root, p.elems, p.literal, tc.prefix, tc.root, tc.elems, tc.literal)
		}
	}
	for _, bad := range []string{"", "/", "logs/[.log"} {
		if _, err := compilePattern(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPatternMatch(t *testing.T) {
	for _, tc := range []struct {
		elems   []string
		path    []string
		match   bool
		descend bool
	}{
		{[]string{"*.log"}, []string{"a.log"}, true, false},
		{[]string{"*.log"}, []string{"sub"}, false, false},
		{[]string{"*.log"}, []string{"sub", "a.log"}, false, false},
		{[]string{"**", "*.log"}, []string{"a.log"}, true, true}, // a directory called a.log may hold matches
		{[]string{"**", "*.log"}, []string{"x", "y", "a.log"}, true, true},
		{[]string{"**", "*.log"}, []string{"x"}, false, true},
		{[]string{"**", "*.log"}, []string{"x", "y"}, false, true},
		{[]string{"svc-*", "app.log"}, []string{"svc-1"}, false, true},
		{[]string{"svc-*", "app.log"}, []string{"db"}, false, false},
		{[]string{"svc-*", "app.log"}, []string{"svc-1", "app.log"}, true, false},
		{[]string{"**"}, []string{"x", "a"}, true, true},
		{[]string{"a", "**", "b", "*.log"}, []string{"a", "b", "c.log"}, true, true},
		{[]string{"a", "**", "b", "*.log"}, []string{"a", "q", "b", "c.log"}, true, true},
		{[]string{"a", "b", "*.log"}, []string{"a", "b", "c.log"}, true, false},
		{[]string{"a", "**", "b", "*.log"}, []string{"a", "q"}, false, true},
	} {
		if got := matchElems(tc.elems, tc.path); got != tc.match {
			t.Errorf("match %q %q = %v", tc.elems, tc.path, got)
		}
		if got := descendElems(tc.elems, tc.path); got != tc.descend {
			t.Errorf("descend %q %q = %v", tc.elems, tc.path, got)
		}
	}
}

func TestExclude(t *testing.T) {
	x, err := compileExclude([]string{"*.gz", "/var/log/old/*"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"a.log.gz": true, "logs/a.log.gz": true, "/var/log/old/a.log": true,
		"/var/log/a.log": false, "a.log": false, "/var/log/old/x/a.log": false,
	} {
		if got := x.excludes(filepath.FromSlash(name)); got != want {
			t.Errorf("excludes(%q) = %v", name, got)
		}
	}
}

// What a rotated file's name says: rotation's suffixes, and the order of dates and of
// numbers seen to ascend.
func TestNameOrder(t *testing.T) {
	for s, want := range map[string]bool{
		".1": true, ".12.gz": true, "-20261201": true, ".2026-12-01": true, "_1700000000": true,
		".gz": true, "": true, ".old": false, ".err": false, "1": false, ".1a": false, "-x1": false,
	} {
		if got := rotationSuffix(s); got != want {
			t.Errorf("rotationSuffix(%q) = %v", s, got)
		}
	}
	asc := numberingAscending
	desc := numberingDescending
	key := func(path string, n *numbering) named { return named{key: keyOf("app.log", path), order: n} }
	for _, tc := range []struct {
		a, b string
		n    *numbering
		c    int
		ok   bool
	}{
		{"app.log-20261201", "app.log-20261202.gz", nil, -1, true},
		{"app.log.2026-12-02", "app.log.2026-12-01", nil, 1, true},
		{"app.log-20261201", "app.log-2026120113", nil, 0, false}, // two formats
		{"app.log.2", "app.log.10", &asc, -1, true},
		{"app.log.2", "app.log.10", &desc, 0, false}, // shifting: numbers say nothing across listings
		{"app.log.2", "app.log.10", nil, 0, false},
		{"app.log.1", "app.log-20261201", &asc, 0, false},
		{"app.log", "app.log.1", &asc, 0, false},
	} {
		c, ok := key(tc.a, tc.n).compare(key(tc.b, tc.n))
		if c != tc.c || ok != tc.ok {
			t.Errorf("compare(%s, %s) = %d, %v; want %d, %v", tc.a, tc.b, c, ok, tc.c, tc.ok)
		}
	}
}

// Issue 44: rotated every 2 ms with unique names on a loaded machine, files whose times
// tie come in the order of their numbers, once the listings show the numbers ascend.
func TestNumberingLearn(t *testing.T) {
	t0 := time.Now()
	files := func(mods ...time.Duration) []sibling {
		var out []sibling
		for i, d := range mods {
			out = append(out, sibling{path: filepath.Join("d", "app.log."+string(rune('1'+i))), fi: fakeInfo{mod: t0.Add(d)}})
		}
		return out
	}
	var n numbering
	n.learn("d/app.log", files(0, 0, 0))
	if n != numberingUnknown {
		t.Fatalf("times that tie say nothing; got %d", n)
	}
	n.learn("d/app.log", files(0, 0, 30*time.Millisecond, 60*time.Millisecond))
	if n != numberingAscending {
		t.Fatalf("unique names: got %d", n)
	}
	n.learn("d/app.log", files(60*time.Millisecond, 30*time.Millisecond, 0))
	if n != numberingDescending {
		t.Fatalf("numbered shifting: got %d", n)
	}
	n.learn("d/app.log", files(0, 0))
	if n != numberingDescending {
		t.Fatalf("a listing that says nothing changed it to %d", n)
	}
}

// fakeInfo is an os.FileInfo with a modification time.
type fakeInfo struct {
	os.FileInfo
	mod time.Time
}

func (f fakeInfo) ModTime() time.Time { return f.mod }
