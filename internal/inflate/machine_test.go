package inflate_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/foreachio/foreach/internal/inflate"
)

// The .gz files of the machine: thousands, written by tools no one here
// wrote (the man pages, Debian's changelogs, test data of the Go
// distribution and of modules). TestMachineFiles decodes a sample of those
// under sampleRoots in the suite; with INFLATE_SWEEP=all
// (benchmarks/inflate-sweep.sh), all of those under sweepRoots.
var (
	sampleRoots = []string{"/usr/share/man", "/usr/share/doc", filepath.Join(runtime.GOROOT(), "src")}
	sweepRoots  = []string{"/usr/share", "/usr/lib", "/usr/local", "/opt", filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod"), runtime.GOROOT()}
)

// machineFile is a .gz file of the machine.
type machineFile struct {
	name string
	size int64
}

// machineFiles lists the .gz files under roots, sorted, each once.
func machineFiles(roots []string) []machineFile {
	seen := map[string]bool{}
	var files []machineFile
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: not ours to judge
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".gz") && !seen[p] {
				if fi, err := d.Info(); err == nil {
					seen[p] = true
					files = append(files, machineFile{p, fi.Size()})
				}
			}
			return nil
		})
	}
	slices.SortFunc(files, func(a, b machineFile) int { return strings.Compare(a.name, b.name) })
	return files
}

// gunzip decodes the members of a gzip file one after another, as gzip(1)
// reads them: after a member, another when its magic number follows, else
// the end (zero padding or trailing data, which gzip warns about). It
// returns the bytes decoded and the first error.
func gunzip(data []byte) ([]byte, error) {
	src := bufio.NewReaderSize(bytes.NewReader(data), 64<<10)
	var out bytes.Buffer
	var m inflate.Member
	for first := true; ; first = false {
		if head, _ := src.Peek(3); !first && !bytes.Equal(head, []byte{0x1f, 0x8b, 8}) {
			return out.Bytes(), nil
		}
		if _, err := inflate.ReadHeader(src); err != nil {
			return out.Bytes(), err
		}
		m.Reset(src)
		if _, err := io.Copy(&out, &m); err != nil {
			return out.Bytes(), err
		}
	}
}

func TestMachineFiles(t *testing.T) {
	sweep := os.Getenv("INFLATE_SWEEP") == "all"
	roots := sampleRoots
	if sweep {
		roots = sweepRoots
	}
	names := machineFiles(roots)
	if len(names) == 0 {
		t.Skip("no .gz file on this machine")
	}
	sample := names
	if !sweep {
		sample = sampleFiles(names)
	}
	zcat, _ := exec.LookPath("gzip")
	var files, members, gzipErrs int
	var decoded int64
	for _, f := range sample {
		name := f.name
		if f.size > 256<<20 {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			continue // not gzip (a few files are named .gz and are not)
		}
		files++
		members += bytes.Count(data, []byte{0x1f, 0x8b, 8}) // an upper bound, for the log
		got, err := gunzip(data)
		// compress/gzip reads the same members and fails on the bytes
		// after them unless they are nothing: its bytes up to then.
		zr, zerr := gzip.NewReader(bytes.NewReader(data))
		var want []byte
		if zerr == nil {
			want, zerr = io.ReadAll(zr)
		}
		if zerr != nil {
			gzipErrs++
		}
		if !bytes.Equal(got, want) || (err == nil) != (zerr == nil || !errorInMember(zerr)) {
			t.Errorf("%s: %d bytes (%v), compress/gzip %d bytes (%v), the first difference at %d", name, len(got), err, len(want), zerr, firstDiff(got, want))
			continue
		}
		decoded += int64(len(got))
		if zcat == "" {
			continue
		}
		cmd := exec.Command(zcat, "-dc", name)
		out, zcatErr := cmd.Output()
		if !bytes.Equal(got, out) {
			t.Errorf("%s: %d bytes (%v), gzip -dc %d (%v), the first difference at %d", name, len(got), err, len(out), zcatErr, firstDiff(got, out))
		}
	}
	t.Logf("%d files of %d, %d members at most, %d MB decoded, %d on which compress/gzip fails (bytes after the last member)",
		files, len(names), members, decoded>>20, gzipErrs)
}

// errorInMember reports whether compress/gzip's err is damage inside a
// member rather than bytes after the last one that are not a member.
func errorInMember(err error) bool {
	return err != gzip.ErrHeader
}

// sampleFiles returns about 60 of files, every k-th, and the 5 largest of
// at most 1 MiB (mostly the small man pages, then large files that have
// long matches, many blocks, stored blocks).
func sampleFiles(files []machineFile) []machineFile {
	k := max(1, len(files)/60)
	var sample []machineFile
	for i := 0; i < len(files); i += k {
		sample = append(sample, files[i])
	}
	bySize := slices.Clone(files)
	slices.SortFunc(bySize, func(a, b machineFile) int { return int(b.size - a.size) })
	for i, large := 0, 0; i < len(bySize) && large < 5; i++ {
		if bySize[i].size <= 1<<20 {
			sample = append(sample, bySize[i])
			large++
		}
	}
	return sample
}
