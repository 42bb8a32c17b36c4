package follow

import (
	"encoding/binary"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readEntries returns the entries of dir with their inode numbers and kinds, read with
// getdents64 and no stat: a listing of a directory of thousands of files costs a few
// reads.
func readEntries(dir string) ([]dirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []dirEntry
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Getdents(int(f.Fd()), buf)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return out, nil
		}
		out = parseDirents(buf[:n], out)
	}
}

// parseDirents appends the entries of b, linux_dirent64 records, to out ("." and ".."
// left out).
func parseDirents(b []byte, out []dirEntry) []dirEntry {
	var d unix.Dirent
	nameAt := int(unsafe.Offsetof(d.Name))
	for len(b) >= nameAt {
		ino := binary.NativeEndian.Uint64(b[unsafe.Offsetof(d.Ino):])
		reclen := int(binary.NativeEndian.Uint16(b[unsafe.Offsetof(d.Reclen):]))
		if reclen < nameAt || reclen > len(b) {
			return out
		}
		typ := b[unsafe.Offsetof(d.Type)]
		name := b[nameAt:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if s := string(name); s != "." && s != ".." {
			out = append(out, dirEntry{name: s, ino: ino, kind: direntKind(typ)})
		}
		b = b[reclen:]
	}
	return out
}

// direntKind is the kind a d_type says.
func direntKind(typ byte) entryKind {
	switch typ {
	case unix.DT_REG:
		return kindFile
	case unix.DT_DIR:
		return kindDir
	case unix.DT_LNK:
		return kindLink
	case unix.DT_UNKNOWN:
		return kindUnknown
	}
	return kindOther
}
