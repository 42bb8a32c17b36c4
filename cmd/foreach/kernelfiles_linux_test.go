package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Files of the kernel whose size says nothing of their content (0 for /proc's, a page
// for /sys's) are copied and counted as cat and wc -l see them.
func TestKernelFilesAsCatAndWc(t *testing.T) {
	for _, name := range []string{"/proc/version", "/proc/cpuinfo", "/sys/devices/system/cpu/online", "/sys/kernel/mm/transparent_hugepage/enabled"} {
		if _, err := os.Stat(name); err != nil {
			continue
		}
		cat, err := exec.Command("cat", name).Output()
		require.NoError(t, err, name)
		out, errs, status := runCmd(t, "", name)
		assert.Equal(t, 0, status, errs)
		assert.Equal(t, string(cat), out, name)
		f, err := os.Create(filepath.Join(t.TempDir(), "out")) // the kernel's copy
		require.NoError(t, err)
		errs, status = runFiles(t, strings.NewReader(""), f, name)
		assert.Equal(t, 0, status, errs)
		got, err := os.ReadFile(f.Name())
		require.NoError(t, err)
		assert.Equal(t, string(cat), string(got), "%s into a file", name)
		f.Close()

		wc, err := exec.Command("wc", "-l", name).Output()
		require.NoError(t, err, name)
		for _, j := range []string{"-j1", "-j2"} {
			out, errs, status = runCmd(t, "", "-c", j, name)
			assert.Equal(t, 0, status, errs)
			assert.Equal(t, strings.Fields(string(wc))[0]+" "+name+"\n", out, "%s %s", name, j)
		}
	}
}
