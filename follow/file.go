package follow

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// devIno is a file's device and inode: its identity while it exists.
type devIno struct{ dev, ino uint64 }

// headLen is how many of a file's first bytes stand for its content: a copy of the file
// (copytruncate's, a compressed one) begins with the same bytes.
const headLen = 1024

// file is one file that has had the followed name, open.
type file struct {
	f  *os.File
	id os.FileInfo // as when opened: os.SameFile compares it
	// r is what Read reads: f itself, or for a sealed file the decompressing reader
	// over it, positioned at the offset reading begins at.
	r io.Reader
	// sealed: a compressed rotated file, complete: it never grows and is never
	// truncated, and at its end the next file follows at once.
	sealed bool
	dec    io.Closer // a sealed file's decompressing reader, closed with it; nil for a plain one
	// head holds the file's first bytes as far as they were known (up to headLen): for
	// a checkpoint's identity and to tell a copy of the file from a file of its own.
	head []byte
	born time.Time // orders the chain: see born
	mod  time.Time // its modification time at the last sort of the chain: orders files born together
	// at and tail are, for a file left at a record boundary before its end and queued
	// again, the offset reading goes on from and the bytes read just before it (see
	// reading); 0 and empty for a file not read yet.
	at   int64
	tail tailBytes
}

// errNotRegular is the reason given for a name that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// openFile opens the file at name for following: a regular file, shared so that it can
// be renamed or deleted while it is open. A FIFO or a device is refused before it is
// opened (opening a FIFO would wait for a writer).
func openFile(name string) (*file, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := followable(name, fi); err != nil {
		return nil, err
	}
	f, err := openShared(name)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = followable(name, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	fl := &file{f: f, id: fi, r: f, born: born(f, fi)}
	fl.readHead()
	return fl, nil
}

// followable says why the file fi, found at name, cannot be followed, or nil.
func followable(name string, fi os.FileInfo) error {
	switch {
	case fi.IsDir():
		return &fs.PathError{Op: "follow", Path: name, Err: syscall.EISDIR}
	case !fi.Mode().IsRegular():
		return &fs.PathError{Op: "follow", Path: name, Err: errNotRegular}
	}
	return nil
}

// readHead reads the file's first bytes into head while fewer than headLen are known.
// A plain file only: a sealed file's head is set when it is opened.
func (fl *file) readHead() {
	if fl.sealed || len(fl.head) == headLen {
		return
	}
	b := make([]byte, headLen)
	n, _ := fl.f.ReadAt(b, 0)
	// A file truncated since keeps what was known of it: its head is what it began with.
	if n > len(fl.head) && bytes.HasPrefix(b[:n], fl.head) {
		fl.head = b[:n:n]
	}
}

// sameHead reports whether a and b agree on their common length, which is not 0.
func sameHead(a, b []byte) bool {
	n := min(len(a), len(b))
	return n > 0 && bytes.Equal(a[:n], b[:n])
}

// close closes the file; the file is not used after.
func (fl *file) close() {
	if fl.dec != nil {
		fl.dec.Close()
	}
	fl.f.Close()
}

// compare orders files by birth (see born). Linux stamps file times from a clock that
// ticks every few milliseconds, so a fast rotation makes several files in one tick;
// those are ordered by their last modification (a file of the chain is no longer
// written once the next one is), and then by inode number, which file systems hand out
// in increasing order while none is freed.
func (fl *file) compare(other *file) int {
	if c := fl.born.Compare(other.born); c != 0 {
		return c
	}
	if c := fl.mod.Compare(other.mod); c != 0 {
		return c
	}
	a, _ := fileID(fl.id)
	b, _ := fileID(other.id)
	return cmp.Compare(a.ino, b.ino)
}
