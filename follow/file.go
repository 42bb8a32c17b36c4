package follow

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
)

// devIno is a file's device and inode: its identity while it exists.
type devIno struct{ dev, ino uint64 }

// headLen is how many of a file's first bytes stand for its content: a copy of the file
// (copytruncate's, a compressed one) begins with the same bytes.
const headLen = 1024

// file is one file that has had the followed name, open. Whoever holds it (the
// discovery while it is queued, the reading once popped) is the only one to use it.
type file struct {
	f  *os.File
	h  *handles    // the follower's open files, which Close closes
	id os.FileInfo // as when opened: os.SameFile compares it
	// r is what is read: f itself, or for a sealed file the decompressing reader over
	// it, positioned at the offset reading begins at.
	r io.Reader
	// sealed: a compressed rotated file, complete: it never grows and is never
	// truncated, and at its end the next file follows at once.
	sealed bool
	dec    io.Closer // a sealed file's decompressing reader, closed with it; nil for a plain one
	// head holds the file's first bytes as far as they are known (up to headLen): for a
	// checkpoint's identity and to tell a copy of the file from a file of its own. A
	// longer head replaces the slice; the bytes of one are never written again, so the
	// discovery may keep one the reading published.
	head []byte
	born time.Time // when it was made (see born): one of the keys of compare
	// birth: born is the file system's own birth time, not the modification time
	// standing in for it.
	birth bool
	// mod and empty are its modification time, and whether it was empty, when it was
	// last stat'ed (restat): compare's first keys.
	mod   time.Time
	empty bool
	// at and tail are, for a file left at a record boundary before its end and queued
	// again, the offset reading goes on from and the bytes read just before it (see
	// reading); 0 and empty for a file to read from its start.
	at   int64
	tail tailBytes
	// named is what its name says of its place among the files of the name (order.go),
	// taken when it was found beside the name; nothing for the file at the name.
	named named
}

// errNotRegular is the reason given for a name that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// openFile opens the file at name for following: a regular file, shared so that it can
// be renamed or deleted while it is open, noted in h so that Close closes it. A FIFO or
// a device is refused before it is opened (opening a FIFO would wait for a writer).
func openFile(h *handles, name string) (*file, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := followable(name, fi); err != nil {
		return nil, err
	}
	f, err := openShared(name)
	if err != nil {
		if h.fds != nil && exhausted(err) {
			h.fds.pressed.Store(true)
		}
		return nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = followable(name, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	fl := &file{f: f, h: h, id: fi, r: f, mod: fi.ModTime(), empty: fi.Size() == 0}
	fl.born, fl.birth = born(f, fi)
	if !h.add(fl) {
		return nil, errClosed
	}
	fl.readHead()
	return fl, nil
}

// seal makes fl, a compressed file, one read decompressed from its start, with the
// first bytes of its content as its head. complete reports that the head was read
// whole: headLen bytes, or a stream that ended cleanly before (a stream cut short may
// still be being written). It reports ok false, fl closed, when it cannot.
func (fl *file) seal() (complete, ok bool) {
	dr := decompress.NewReader(io.NewSectionReader(fl.f, 0, 1<<62))
	head := make([]byte, headLen)
	n, err := io.ReadFull(dr, head)
	dr.Close()
	complete = err == nil || err == io.EOF || err == io.ErrUnexpectedEOF
	if _, err := fl.f.Seek(0, io.SeekStart); err != nil {
		fl.close()
		return false, false
	}
	dr = decompress.NewReader(fl.f)
	fl.sealed, fl.r, fl.dec, fl.head = true, dr, dr, head[:n:n]
	return complete, true
}

// compressed reports whether fl's bytes are in one of the formats decompress reads.
func (fl *file) compressed() bool {
	return !fl.sealed && decompress.Detect(fl.head) != decompress.None
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
// A plain file only: a sealed file's head is set when it is sealed.
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

// size is the file's size now (for a sealed file, of its compressed bytes), -1 when it
// cannot be had.
func (fl *file) size() int64 {
	fi, err := fl.f.Stat()
	if err != nil {
		return -1
	}
	return fi.Size()
}

// restat notes the file's modification time and emptiness now, compare's first keys.
func (fl *file) restat() {
	if fi, err := fl.f.Stat(); err == nil {
		fl.mod, fl.empty = fi.ModTime(), fi.Size() == 0
	}
}

// close closes the file; the file is not used after.
func (fl *file) close() {
	if fl.dec != nil {
		fl.dec.Close()
		fl.dec = nil
	}
	if fl.h.remove(fl) {
		fl.f.Close()
	}
}

// compare orders the files that had the name, oldest first: by their last modification
// (a file of a rotation is written no more once the writer writes the next one, and
// compressors keep the time of the file they compress, as logrotate's compress does);
// within one tick of the file system's clock (a few milliseconds on Linux), by birth
// where it is known (statx), then by inode number, which file systems hand out in
// increasing order while none is freed. Birth alone would put a compressed file, made
// when it was compressed, after the files rotated after it, and copytruncate's file at
// the name, made when the log began, before every copy of it. An empty file comes after
// every file with data: its time is when it was made, and the writer may still write to
// it later, after what it wrote to the file before it (it has not reopened the name).
// Within a second that a time kept to the second cannot split (bzip2's, lz4's), a
// compressed file comes first (delaycompress compresses the older one).
func (fl *file) compare(other *file) int {
	if fl.empty != other.empty {
		if fl.empty {
			return 1
		}
		return -1
	}
	if c := fl.since(other); c != 0 {
		return c
	}
	if fl.sealed != other.sealed {
		if fl.sealed {
			return -1
		}
		return 1
	}
	return fl.order(other)
}

// since orders fl and other by when they were last modified, then made, then by inode
// number (compare without its rules for empty and compressed files): whether fl was
// rotated after other (an empty one included: made after it, it had the name after it).
// Where the times are too close to tell (within a tick), what the names say comes first:
// dates, and numbers that rotation makes higher (see order.go).
// When one of the times is a whole second (bzip2 and lz4 keep a compressed file's time
// to the second only), they are compared to the second, and a tie is 0: they cannot be
// told apart.
func (fl *file) since(other *file) int {
	a, b := fl.mod, other.mod
	if closeInTime(a, b) {
		if c, ok := fl.named.compare(other.named); ok {
			return c // what the names say, where the times cannot tell
		}
	}
	if a.Nanosecond() == 0 || b.Nanosecond() == 0 {
		return a.Truncate(time.Second).Compare(b.Truncate(time.Second))
	}
	if c := a.Compare(b); c != 0 {
		return c
	}
	return fl.order(other)
}

// order orders fl and other by birth, then inode number.
func (fl *file) order(other *file) int {
	if c := fl.born.Compare(other.born); c != 0 {
		return c
	}
	x, _ := fileID(fl.id)
	y, _ := fileID(other.id)
	return cmp.Compare(x.ino, y.ino)
}

// errClosed is what opening a file gives once the follower is closed.
var errClosed = errors.New("follow: closed")

// handles are the files a follower holds open, so that Close, from any goroutine,
// closes them all at once without waiting for a read in progress (which then fails, and
// the source reports ErrStop). Invariants: once closed is set, open is empty and add
// refuses; fds, when set, counts every file in open (and those of the Many's other
// sources).
type handles struct {
	mu     sync.Mutex
	open   map[*file]struct{}
	closed bool
	fds    *fdCount // a Many's count of the files its sources hold; nil for Open's
}

func newHandles(count *fdCount) *handles {
	return &handles{open: map[*file]struct{}{}, fds: count}
}

// add notes fl as open; on a closed follower it closes fl's file and reports false.
func (h *handles) add(fl *file) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		fl.f.Close()
		return false
	}
	h.open[fl] = struct{}{}
	h.fds.add(1)
	return true
}

// remove forgets fl, reporting whether it was open (so that its file is closed once).
func (h *handles) remove(fl *file) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.open[fl]
	if ok {
		delete(h.open, fl)
		h.fds.add(-1)
	}
	return ok
}

// closeAll closes every file open and refuses any more.
func (h *handles) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for fl := range h.open {
		fl.f.Close()
	}
	h.fds.add(-int64(len(h.open)))
	clear(h.open)
}

// fdCount counts the files a Many's sources hold open, which MaxOpen bounds; pressed
// notes that an open failed for want of descriptors (the process's limit, ulimit -n,
// reached), so that the Many closes idle files.
type fdCount struct {
	n       atomic.Int64
	pressed atomic.Bool
}

// add adds d to the count (nothing for Open's handles, which have none).
func (c *fdCount) add(d int64) {
	if c != nil {
		c.n.Add(d)
	}
}

// exhausted reports whether err says the process, or the system, has no descriptor
// left to open a file with.
func exhausted(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// count is how many files are open.
func (h *handles) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.open)
}
