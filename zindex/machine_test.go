package zindex_test

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/foreachio/foreach/zindex"
)

// TestMachineFiles indexes the .gz files of the machine (written by tools
// no one here wrote) with a small span, so that most have several access
// points, and reads each through its index at random offsets and whole,
// against gzip -dc's bytes. The suite takes a sample (the man pages, the
// docs, GOROOT); ZINDEX_SWEEP=all (benchmarks/zindex-sweep.sh) takes every
// file under /usr/share, /usr/lib, /usr/local, /opt, the module cache and
// GOROOT.
func TestMachineFiles(t *testing.T) {
	zcat, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip is not installed")
	}
	sweep := os.Getenv("ZINDEX_SWEEP") == "all"
	roots := []string{"/usr/share/man", "/usr/share/doc", filepath.Join(runtime.GOROOT(), "src")}
	if sweep {
		roots = []string{"/usr/share", "/usr/lib", "/usr/local", "/opt", filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod"), runtime.GOROOT()}
	}
	names := gzFiles(roots)
	if !sweep {
		names = sample(names, 40)
	}
	if len(names) == 0 {
		t.Skip("no .gz file on this machine")
	}
	var files, points int
	var bytesRead int64
	rng := rand.New(rand.NewPCG(1, 1))
	for _, name := range names {
		gz, err := os.ReadFile(name)
		if err != nil || len(gz) > 256<<20 {
			continue
		}
		ix, err := zindex.Build(bytes.NewReader(gz), 16<<10)
		if errors.Is(err, zindex.ErrFormat) {
			continue // named .gz, not gzip
		}
		want, zerr := exec.Command(zcat, "-dc", name).Output()
		var exit *exec.ExitError
		refused := errors.As(zerr, &exit) && exit.ExitCode() == 1 // 2 is a warning: trailing data
		if (err != nil) != refused {
			t.Errorf("%s: Build: %v; gzip -dc: %v", name, err, zerr)
			continue
		}
		if err != nil {
			continue // damaged, or not supported (gzip's "encrypted" flag): refused by both
		}
		files++
		points += ix.Points()
		if ix.Size() != int64(len(want)) {
			t.Errorf("%s: Size %d, gzip -dc gives %d bytes", name, ix.Size(), len(want))
			continue
		}
		ra := ix.ReaderAt(bytes.NewReader(gz))
		for range 5 {
			checkReadAt(t, name, ra, want, rng.Int64N(int64(len(want))+1), rng.IntN(40<<10))
		}
		checkReadAt(t, name, ra, want, 0, len(want)+1)
		bytesRead += int64(len(want))
	}
	t.Logf("%d files, %d access points, %d MB read whole", files, points, bytesRead>>20)
}

// gzFiles lists the regular files named *.gz under roots, sorted, each once.
func gzFiles(roots []string) []string {
	seen := map[string]bool{}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".gz") {
				seen[p] = true
			}
			return nil
		})
	}
	names := make([]string, 0, len(seen))
	for p := range seen {
		names = append(names, p)
	}
	slices.Sort(names)
	return names
}

// sample returns about n of names, every k-th, and the 3 largest of at most
// 1 MiB.
func sample(names []string, n int) []string {
	k := max(1, len(names)/n)
	var out []string
	for i := 0; i < len(names); i += k {
		out = append(out, names[i])
	}
	type sized struct {
		name string
		size int64
	}
	var all []sized
	for _, name := range names {
		if fi, err := os.Stat(name); err == nil && fi.Size() <= 1<<20 {
			all = append(all, sized{name, fi.Size()})
		}
	}
	slices.SortFunc(all, func(a, b sized) int { return int(b.size - a.size) })
	for _, s := range all[:min(3, len(all))] {
		out = append(out, s.name)
	}
	return out
}
