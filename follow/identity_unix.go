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

// linked reports whether the file fi has a name left (it has not been deleted).
func linked(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 0
}
