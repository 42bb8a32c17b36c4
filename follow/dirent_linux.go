package follow

import (
	"encoding/binary"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readNames returns the names in dir with their inode numbers, read with getdents64 and
// no stat: a listing of a directory of thousands of rotated files costs a few reads.
func readNames(dir string) (map[string]uint64, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names := map[string]uint64{}
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Getdents(int(f.Fd()), buf)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		parseDirents(buf[:n], names)
	}
}

// parseDirents adds the entries of b, linux_dirent64 records, to names.
func parseDirents(b []byte, names map[string]uint64) {
	var d unix.Dirent
	nameAt := int(unsafe.Offsetof(d.Name))
	for len(b) >= nameAt {
		ino := binary.NativeEndian.Uint64(b[unsafe.Offsetof(d.Ino):])
		reclen := int(binary.NativeEndian.Uint16(b[unsafe.Offsetof(d.Reclen):]))
		if reclen < nameAt || reclen > len(b) {
			return
		}
		name := b[nameAt:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		names[string(name)] = ino
		b = b[reclen:]
	}
}
