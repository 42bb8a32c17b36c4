package follow

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// born returns when the open file f was created, where the file system records it
// (statx's birth time, and true), else its modification time (and false): the order of
// the files that held a name. A file renamed keeps its birth time, so the chain of
// rotated files sorts by it however the names were shifted.
func born(f *os.File, fi os.FileInfo) (time.Time, bool) {
	var st unix.Statx_t
	var err error
	if c, cerr := f.SyscallConn(); cerr == nil {
		cerr = c.Control(func(fd uintptr) {
			err = unix.Statx(int(fd), "", unix.AT_EMPTY_PATH, unix.STATX_BTIME, &st)
		})
		if cerr != nil {
			err = cerr
		}
	} else {
		err = cerr
	}
	if err == nil && st.Mask&unix.STATX_BTIME != 0 {
		return time.Unix(st.Btime.Sec, int64(st.Btime.Nsec)), true
	}
	return fi.ModTime(), false
}
