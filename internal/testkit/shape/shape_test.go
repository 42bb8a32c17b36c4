package shape

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepositoryShape walks every module of the repository (the core, beam, tools) and
// reports each non-test struct over MaxFields fields and function over MaxLines lines.
func TestRepositoryShape(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root is not three directories up: %v", err)
	}
	var faults []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parseFile(path)
		if err != nil {
			return err
		}
		faults = append(faults, f...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range faults {
		t.Error(f)
	}
}

// parseFile returns the faults of one file.
func parseFile(path string) ([]string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var faults []string
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body == nil {
				break
			}
			if l := fset.Position(x.End()).Line - fset.Position(x.Pos()).Line + 1; l > MaxLines {
				faults = append(faults, fmt.Sprintf("%s: func %s has %d lines (at most %d)", fset.Position(x.Pos()), x.Name.Name, l, MaxLines))
			}
		case *ast.TypeSpec:
			if st, ok := x.Type.(*ast.StructType); ok {
				if n := fields(st); n > MaxFields {
					faults = append(faults, fmt.Sprintf("%s: struct %s has %d fields (at most %d)", fset.Position(x.Pos()), x.Name.Name, n, MaxFields))
				}
			}
		}
		return true
	})
	return faults, nil
}

// fields counts a struct's fields: each name of a list, and an embedded field as one.
func fields(st *ast.StructType) int {
	n := 0
	for _, f := range st.Fields.List {
		n += max(len(f.Names), 1)
	}
	return n
}

// The test finds what it looks for: a struct of 16 fields and a function of 61 lines.
func TestFaultsAreFound(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package p\n\ntype big struct {\n")
	for i := range MaxFields + 1 {
		fmt.Fprintf(&b, "\tf%d int\n", i)
	}
	b.WriteString("}\n\ntype ok struct{ a, b int; c struct{ d int } }\n\nfunc long() {\n")
	for range MaxLines - 1 { // with its first and last lines: MaxLines+1
		b.WriteString("\t_ = 0\n")
	}
	b.WriteString("}\n")
	path := filepath.Join(dir, "p.go")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	faults, err := parseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(faults) != 2 || !strings.Contains(faults[0], "struct big has 16 fields") || !strings.Contains(faults[1], "func long has 61 lines") {
		t.Errorf("faults = %q, want big's 16 fields and long's 61 lines", faults)
	}
}
