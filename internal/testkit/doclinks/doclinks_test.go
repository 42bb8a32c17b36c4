package doclinks

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pending are references known to be wrong, with who fixes them; each is an exact
// (file, name) pair, so that nothing else slips through. The test fails when an entry is no
// longer needed: delete it then, so that the list only ever shrinks.
var pending = map[[2]string]string{}

// repoRoot is the directory holding the module's go.mod, two levels up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the repository root %s: %v", root, err)
	}
	return root
}

var (
	// mdName is a Markdown file name as prose mentions it: "docs/semantics.md", "README.md".
	mdName = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)
	// mdLink is an inline Markdown link or image: [text](target) or [text](target "title").
	mdLink = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	// fence opens or closes a fenced code block.
	fence = regexp.MustCompile("^\\s*(```|~~~)")
)

// markdownFiles are README.md and docs/*.md, relative to root.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// goComments returns the text of every comment of every Go file under root, by file
// (relative, slash-separated).
func goComments(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		var b strings.Builder
		for _, cg := range f.Comments {
			b.WriteString(cg.Text())
			b.WriteByte('\n')
		}
		rel, _ := filepath.Rel(root, path)
		out[filepath.ToSlash(rel)] = b.String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exists reports whether name, relative to dir or to root, is a file or directory of
// the repository.
func exists(root, dir, name string) bool {
	for _, base := range []string{dir, root} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if rel, err := filepath.Rel(root, p); err != nil || strings.HasPrefix(rel, "..") {
			continue // outside the repository
		}
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// anchors returns the GitHub-style anchors of a Markdown file's headings: lower case,
// punctuation other than "-" and "_" dropped, spaces turned into "-".
func anchors(text string) []string {
	var out []string
	inFence := false
	for line := range strings.Lines(text) {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// mentions lists the *.md names in text, outside URLs.
func mentions(text string) []string {
	var out []string
	for _, loc := range mdName.FindAllStringIndex(text, -1) {
		start := strings.LastIndexAny(text[:loc[0]], " \t\n(<`\"'") + 1
		if strings.Contains(text[start:loc[1]], "://") {
			continue // part of a URL: not a file of this repository
		}
		out = append(out, text[loc[0]:loc[1]])
	}
	return out
}

func TestDocumentsPointedToExist(t *testing.T) {
	root := repoRoot(t)
	texts := goComments(t, root)
	mds := markdownFiles(t, root)
	for _, md := range mds {
		b, err := os.ReadFile(filepath.Join(root, md))
		if err != nil {
			t.Fatal(err)
		}
		texts[md] = string(b)
	}
	used := map[[2]string]bool{}
	for _, file := range slices.Sorted(mapsKeys(texts)) {
		dir := filepath.Join(root, filepath.Dir(filepath.FromSlash(file)))
		for _, name := range mentions(texts[file]) {
			if exists(root, dir, name) {
				continue
			}
			if _, ok := pending[[2]string{file, name}]; ok {
				used[[2]string{file, name}] = true
				continue
			}
			t.Errorf("%s mentions %s, which is not a file of the repository", file, name)
		}
	}
	for key, fix := range pending {
		if !used[key] {
			t.Errorf("%s no longer mentions a missing %s (fixed: now %s?): delete its entry from pending", key[0], key[1], fix)
		}
	}
}

func TestMarkdownLinksResolve(t *testing.T) {
	root := repoRoot(t)
	for _, md := range markdownFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, md))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(md)))
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := filepath.Join(root, filepath.FromSlash(md)) // a bare #fragment is in this file
			if path != "" {
				file = filepath.Join(dir, filepath.FromSlash(path))
				if rel, err := filepath.Rel(root, file); err != nil || strings.HasPrefix(rel, "..") {
					t.Errorf("%s links to %s, outside the repository", md, target)
					continue
				}
				if _, err := os.Stat(file); err != nil {
					if _, ok := pending[[2]string{md, path}]; !ok {
						t.Errorf("%s links to %s, which does not exist", md, target)
					}
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(anchors(string(body)), frag) {
				t.Errorf("%s links to %s, but no heading of %s has the anchor #%s", md, target, filepath.Base(file), frag)
			}
		}
	}
}

// The checks themselves: a missing file, a missing heading and a mention inside a URL.
func TestHelpers(t *testing.T) {
	// The names are built, so that this file itself mentions no missing document.
	if got := mentions("see docs/semantics.md and https://example.com/x/CLI" + ".md, or `README.md`."); !slices.Equal(got, []string{"docs/semantics.md", "README.md"}) {
		t.Errorf("mentions: %q", got)
	}
	got := anchors("# How records are cut\n```\n# not a heading\n```\n### Whole with Chomp removes nothing (`whole-chomp`)\n")
	if want := []string{"how-records-are-cut", "whole-with-chomp-removes-nothing-whole-chomp"}; !slices.Equal(got, want) {
		t.Errorf("anchors: %q, want %q", got, want)
	}
	root := repoRoot(t)
	if !exists(root, filepath.Join(root, "docs"), "semantics.md") || !exists(root, root, "docs/semantics.md") {
		t.Error("docs/semantics.md not found from docs/ or from the root")
	}
	if exists(root, root, "SEMANTICS"+".md") || exists(root, root, "../shared/API.md") {
		t.Error("a missing file, or one outside the repository, was found")
	}
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
