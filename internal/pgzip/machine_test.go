package pgzip_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/pgzip"
)

// The .gz files of the machine that are long enough to split in chunks of
// 16 KiB: a few hundred, written by tools no one here wrote (manuals,
// documentation, test data of the Go distribution and of modules).
// TestMachineFiles reads a sample of them in the suite; with
// PGZIP_SWEEP=all (benchmarks/pgzip-sweep.sh) all of them, each also
// against gzip -dc.
var machineRoots = []string{"/usr/share", "/usr/lib", "/usr/local", "/opt", "/root/go/pkg/mod", runtime.GOROOT()}

const machineMin = 64 << 10

func machineFiles() []string {
	seen := map[string]bool{}
	var files []string
	for _, root := range machineRoots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: not ours to judge
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".gz") && !seen[p] {
				if fi, err := d.Info(); err == nil && fi.Size() >= machineMin {
					seen[p] = true
					files = append(files, p)
				}
			}
			return nil
		})
	}
	slices.Sort(files)
	return files
}

func TestMachineFiles(t *testing.T) {
	files := machineFiles()
	if len(files) == 0 {
		t.Skip("no .gz file of 64 KiB or more on this machine")
	}
	all := os.Getenv("PGZIP_SWEEP") == "all"
	if !all {
		// A sample: every twentieth file, at most 8 (4 under the race
		// detector).
		n := 8
		if underRace {
			n = 4
		}
		var sample []string
		for i := 0; i < len(files) && len(sample) < n; i += 20 {
			sample = append(sample, files[i])
		}
		files = sample
	}
	var total int64
	for _, name := range files {
		file, err := os.ReadFile(name)
		if err != nil {
			t.Logf("%s: %v (skipped)", name, err)
			continue
		}
		if !all && len(file) > 1<<20 {
			continue
		}
		total += int64(len(file))
		st := same(t, name, file, pgzip.Options{Workers: 2, ChunkSize: 16 << 10}, pgzip.Options{Workers: 3, ChunkSize: 64 << 10})
		if all {
			t.Logf("%s: %d bytes, %d chunks, %d used", name, len(file), st.Chunks, st.Held)
			if want, ok := gzipDC(name); ok {
				if got := sequential(t, file); !bytes.HasPrefix(got.text, want) && !bytes.HasPrefix(want, got.text) {
					t.Errorf("%s: gzip -dc gives other bytes", name)
				}
			}
		}
	}
	t.Logf("%d files, %d bytes", len(files), total)
}

// gzipDC returns what gzip -dc writes for the file (up to an error), and
// whether gzip is on the machine.
func gzipDC(name string) ([]byte, bool) {
	if _, err := exec.LookPath("gzip"); err != nil {
		return nil, false
	}
	out, _ := exec.Command("gzip", "-dc", name).Output()
	return out, true
}
