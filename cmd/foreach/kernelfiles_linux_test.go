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

// Issue 37: --last and --reverse on kernel files whose size says nothing of their
// content printed nothing with status 0 (/proc's, of size 0) or failed with "unexpected
// EOF" (/sys's, whose size is a page): they are read forward, as tail and tac read
// them. The files are ones whose content does not change between two reads.
func TestKernelFilesAsTailAndTac(t *testing.T) {
	for _, name := range []string{"/proc/version", "/proc/filesystems", "/sys/devices/system/cpu/online", "/sys/kernel/mm/transparent_hugepage/enabled"} {
		if _, err := os.Stat(name); err != nil {
			continue
		}
		for _, tc := range []struct {
			tool []string
			args []string
		}{
			{[]string{"tail", "-n", "2"}, []string{"--last", "2"}},
			{[]string{"tail", "-n", "1"}, []string{"--last", "1", "-n"}},
			{[]string{"tac"}, []string{"--reverse"}},
			{[]string{"tac"}, []string{"--reverse", "--last", "100"}},
		} {
			want, err := exec.Command(tc.tool[0], append(tc.tool[1:], name)...).Output()
			require.NoError(t, err, "%q %s", tc.tool, name)
			require.NotEmpty(t, want, "%q %s", tc.tool, name)
			if tc.args[len(tc.args)-1] == "-n" {
				want = []byte("     1\t" + string(want))
			}
			out, errs, status := runCmd(t, "", append(tc.args, name)...)
			assert.Equal(t, 0, status, errs)
			assert.Equal(t, string(want), out, "foreach %q %s", tc.args, name)
		}
	}
}
