package follow

import (
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// entryKind is what a directory entry is, as far as the listing says without a stat.
type entryKind uint8

const (
	kindUnknown entryKind = iota // the listing does not say: stat it
	kindFile                     // a regular file
	kindDir                      // a directory
	kindLink                     // a symbolic link: stat it to know what it names
	kindOther                    // a FIFO, a device, a socket
)

// dirEntry is one entry of a directory listing.
type dirEntry struct {
	name string
	ino  uint64 // 0 where the listing gives none (then a stat does)
	kind entryKind
}

// readDir lists dir, sorted by name, with the inode numbers and kinds the platform's
// listing gives without a stat (Linux's getdents64 gives both).
func readDir(dir string) ([]dirEntry, error) {
	entries, err := readEntries(dir)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	return entries, nil
}

// readEntriesPortable is readEntries from os.ReadDir: kinds, no inode numbers.
func readEntriesPortable(dir string) ([]dirEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, 0, len(des))
	for _, de := range des {
		e := dirEntry{name: de.Name()}
		switch t := de.Type(); {
		case t.IsRegular():
			e.kind = kindFile
		case t.IsDir():
			e.kind = kindDir
		case t&os.ModeSymlink != 0:
			e.kind = kindLink
		default:
			e.kind = kindOther
		}
		out = append(out, e)
	}
	return out, nil
}

// prefixed returns the entries of sorted whose names begin with base and go on.
func prefixed(sorted []dirEntry, base string) []dirEntry {
	i, _ := slices.BinarySearchFunc(sorted, base, func(e dirEntry, s string) int { return strings.Compare(e.name, s) })
	j := i
	for j < len(sorted) && strings.HasPrefix(sorted[j].name, base) {
		j++
	}
	if i < j && sorted[i].name == base {
		i++
	}
	return sorted[i:j]
}

// dirCache keeps one listing of each directory that a Many's names are in, so that the
// thousands of names of one directory cost one listing each time it changes, not one
// listing each (every follower lists the files beside its name: after a pause, before it
// moves on to the next file). A listing is used again while the directory's modification
// time is the one it had just before the listing began, and that time was older than the
// listing by more than a tick of the file system's clock: a file created, renamed or
// removed since would have stamped a later time (see discovery.dirUnchanged, the same
// rule for one name).
type dirCache struct {
	mu   sync.Mutex
	dirs map[string]*dirListing
}

// dirListing is the last listing of one directory. Invariant: entries is sorted by name
// and never written once made (callers share it); mod and at are the directory's time
// before it was taken and when, zero when there is none.
type dirListing struct {
	mu      sync.Mutex // one listing of the directory at a time
	entries []dirEntry
	mod, at time.Time
	gen     uint64 // counts the listings taken: the same gen, the same entries
}

func newDirCache() *dirCache { return &dirCache{dirs: map[string]*dirListing{}} }

// list returns the listing of dir, sorted by name: the one kept while it is up to date,
// else a new one.
func (c *dirCache) list(dir string) ([]dirEntry, error) {
	entries, _, err := c.listGen(dir)
	return entries, err
}

// listGen is list with the listing's generation: a caller that has looked through the
// entries of one generation has nothing new to see in them.
func (c *dirCache) listGen(dir string) ([]dirEntry, uint64, error) {
	c.mu.Lock()
	l := c.dirs[dir]
	if l == nil {
		l = &dirListing{}
		c.dirs[dir] = l
	}
	c.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	fi, err := os.Stat(dir)
	if err != nil {
		l.entries, l.mod, l.at = nil, time.Time{}, time.Time{}
		return nil, l.gen, err
	}
	if !l.at.IsZero() && fi.ModTime().Equal(l.mod) && l.mod.Before(l.at.Add(-tick)) {
		return l.entries, l.gen, nil
	}
	began := time.Now()
	entries, err := readDir(dir)
	if err != nil {
		l.entries, l.mod, l.at = nil, time.Time{}, time.Time{}
		return nil, l.gen, err
	}
	l.gen++
	l.entries, l.mod, l.at = entries, fi.ModTime(), began
	return entries, l.gen, nil
}

// forget drops the listing of dir (a directory no longer watched).
func (c *dirCache) forget(dir string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.dirs, dir)
}

// manyEnv is what a Many shares with the sources of its names; nil for Open's source.
type manyEnv struct {
	fds  *fdCount
	dirs *dirCache
	// skip reports whether the file at path beside name is a name followed of its own
	// (matched by a pattern, with a suffix that is not a rotation's), not one of name's
	// rotated files.
	skip func(name, path string) bool
}

func (e *manyEnv) fdCount() *fdCount {
	if e == nil {
		return nil
	}
	return e.fds
}

// list lists dir, through the Many's cache if there is one.
func (e *manyEnv) list(dir string) ([]dirEntry, error) {
	if e == nil || e.dirs == nil {
		return readDir(dir)
	}
	return e.dirs.list(dir)
}

// skips reports whether the file at path beside name is not to be taken for one of its
// rotated files.
func (e *manyEnv) skips(name, path string) bool {
	return e != nil && e.skip != nil && e.skip(name, path)
}
