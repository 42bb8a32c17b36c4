//go:build unix

package follow

import (
	"os"
	"syscall"
)

// fileID returns the device and inode of fi, which name a file for as long as it exists
// (an inode is reused only once the file is gone); ok is false where fi has none.
func fileID(fi os.FileInfo) (id devIno, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return devIno{}, false
	}
	return devIno{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
