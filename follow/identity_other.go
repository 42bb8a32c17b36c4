//go:build !unix

package follow

import "os"

// fileID reports that this platform gives no device and inode through os.FileInfo:
// files are known by their content alone (and by os.SameFile while they are open).
func fileID(os.FileInfo) (devIno, bool) { return devIno{}, false }

// linked reports that a file has a name left: this platform's os.FileInfo does not say
// otherwise (a Many closes the file once it is idle, and forgets the name then).
func linked(os.FileInfo) bool { return true }
