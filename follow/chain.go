package follow

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/foreachio/foreach/internal/decompress"
)

// chain is the files that had the followed name after the one being read, and what is
// known of the files around the name. Invariants (under source.mu):
//   - next holds the files that had the name after the current one, oldest first (by
//     born), each read from its start once the file before it is read to its end; none
//     is the current file, and all but the last are no longer at the name;
//   - seen is what the name named at the last look (nil: nothing);
//   - known holds the files beside the name that are not to be read (there before the
//     follower began, read already, or copies of files read), by identity, with their
//     first bytes: a file with a known identity but other first bytes is another file
//     that was given a freed inode.
type chain struct {
	name  string
	next  []*file
	seen  os.FileInfo
	known map[devIno]knownFile
	// skipped holds the names beside the name that a listing passed over (queued,
	// known), with their inode numbers then (see siblings).
	skipped map[string]uint64
	// rewound holds the first bytes of what the files read held before they were
	// truncated in place: what a copytruncate copy begins with.
	rewound [][]byte
}

// newChain returns the chain of name, knowing every file beside it as it is now.
func newChain(name string) chain {
	ch := chain{name: name, known: map[devIno]knownFile{}}
	for _, sib := range siblings(name, nil) {
		if fl, err := openFile(sib.path); err == nil {
			ch.know(fl)
			fl.close()
		}
	}
	return ch
}

// sibling is a file beside the followed name whose name begins with the name's own:
// where rotation puts the files that had the name.
type sibling struct {
	path string
	fi   os.FileInfo
}

// siblings lists the regular files beside name whose names begin with name's own and
// go on (app.log.1, app.log-20261201, app.log.2.gz), not name itself. Where the
// listing gives inode numbers (Linux), a name that had the same inode in the last
// listing and was passed over then (skip) is passed over again without a stat: a fast
// rotation keeps thousands of files beside the name, and each listing would stat them
// all. The caller notes in skip the names it passes over.
func siblings(name string, skip map[string]uint64) []sibling {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	inos, err := readNames(dir)
	if err != nil {
		return siblingsByStat(dir, base)
	}
	var out []sibling
	for n, ino := range inos {
		if len(n) <= len(base) || !strings.HasPrefix(n, base) {
			continue
		}
		if skip != nil && skip[n] == ino && ino != 0 {
			continue
		}
		fi, err := os.Lstat(filepath.Join(dir, n))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, sibling{filepath.Join(dir, n), fi})
	}
	return out
}

// siblingsByStat is siblings where the listing gives no inode numbers.
func siblingsByStat(dir, base string) []sibling {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []sibling
	for _, e := range entries {
		n := e.Name()
		if len(n) <= len(base) || !strings.HasPrefix(n, base) {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, sibling{filepath.Join(dir, n), fi})
	}
	return out
}

// look stats the name and notes what it names now: a file not known yet is opened and
// queued after the files known, with every file that had the name in between (see
// missed); a missing name is waited for; a directory, or a file that cannot be opened,
// is an error. It reports whether the name changed since the last look (another file,
// or the same one with another size or time).
func (ch *chain) look(cur *file) (bool, error) {
	fi, err := os.Stat(ch.name)
	if errors.Is(err, fs.ErrNotExist) {
		changed := ch.seen != nil
		ch.seen = nil
		return changed, nil
	}
	if err != nil {
		return true, err
	}
	last := ch.seen
	changed := last == nil || !os.SameFile(fi, last) || fi.Size() != last.Size() || !fi.ModTime().Equal(last.ModTime())
	ch.seen = fi
	if ch.queued(cur, fi) {
		return changed, nil
	}
	if err := followable(ch.name, fi); err != nil {
		return true, err
	}
	fl, err := openFile(ch.name)
	if errors.Is(err, fs.ErrNotExist) {
		return changed, nil // gone again: the next look sees what is there then
	}
	if err != nil {
		return true, err
	}
	if ch.queued(cur, fl.id) {
		fl.close() // the name changed back between the stat and the open
		return changed, nil
	}
	ch.adopt(cur, fl)
	return changed, nil
}

// queued reports whether fi is cur or a file queued after it.
func (ch *chain) queued(cur *file, fi os.FileInfo) bool {
	if cur != nil && os.SameFile(fi, cur.id) {
		return true
	}
	return slices.ContainsFunc(ch.next, func(n *file) bool { return os.SameFile(fi, n.id) })
}

// adopt queues fl, the new file at the name, with the files that had the name since
// the last one queued (see refresh).
func (ch *chain) adopt(cur, fl *file) {
	ch.next = append(ch.next, fl) // queued: missed does not find it again once renamed
	ch.refresh(cur)
}

// scans bounds the listings of the directory in one refresh: a listing taken while
// the files are renamed (shifted) can miss one, so a refresh lists again until a
// listing finds no file renamed under it.
const scans = 4

// refresh queues the files that had the name since the last one queued (missed), and
// sorts the queue oldest first. Queued files that are still empty but the newest are
// dropped: they were rotated away before anything was written to them, and the writer's
// file is a later one. Read calls it again before it moves on to the next file, so
// that a file a listing missed while files were renamed is not passed over.
func (ch *chain) refresh(cur *file) {
	for range scans {
		found, moved := ch.missed(cur)
		ch.next = append(ch.next, found...)
		if !moved {
			break
		}
	}
	ch.sort()
}

// sort sorts the queue oldest first and drops the queued files that are still empty but
// the newest (see refresh).
func (ch *chain) sort() {
	files := ch.next
	// A resumed chain's compressed files come first, in the order the resume found
	// them; the files after them sort by birth.
	first := 0
	for i, n := range files {
		if n.sealed {
			first = i + 1
		}
	}
	for _, n := range files[first:] {
		if fi, err := n.f.Stat(); err == nil {
			n.mod = fi.ModTime()
		}
	}
	slices.SortStableFunc(files[first:], (*file).compare)
	kept := files[:0]
	for i, n := range files {
		if st, err := n.f.Stat(); err == nil && st.Size() == 0 && i < len(files)-1 {
			n.close()
			continue
		}
		kept = append(kept, n)
	}
	ch.next = kept
}

// missed opens the files beside the name that had the name since the follower last
// looked, however quickly the rotations came: the regular files whose names begin with
// the name's, that are neither cur, nor queued, nor known (see chain), nor compressed,
// nor a copy of a file read or queued (their first bytes are another's). moved reports
// that a file was renamed while the directory was listed, so that another listing may
// find one that this one missed.
func (ch *chain) missed(cur *file) (found []*file, moved bool) {
	if ch.skipped == nil {
		ch.skipped = map[string]uint64{}
	}
	for _, sib := range siblings(ch.name, ch.skipped) {
		if ch.queued(cur, sib.fi) || ch.isKnown(sib.fi, nil) {
			ch.skip(sib)
			continue
		}
		fl, err := openFile(sib.path)
		if err != nil {
			moved = moved || errors.Is(err, fs.ErrNotExist)
			continue // gone, or unreadable: not a file of the chain that can be read
		}
		if !os.SameFile(fl.id, sib.fi) {
			moved = true // renamed since the listing: the next listing finds it
		}
		if len(fl.head) == 0 || ch.queued(cur, fl.id) || ch.isKnown(fl.id, fl.head) {
			fl.close() // empty: see consider
			continue
		}
		if decompress.Detect(fl.head) != decompress.None || ch.copyOf(cur, fl, found) {
			ch.know(fl)
			fl.close()
			continue
		}
		found = append(found, fl)
	}
	return found, moved
}

// consider queues the file at path beside the name, if it is one that missed would find:
// a rotated file that arrived there, seen on its notification.
func (ch *chain) consider(cur *file, path string) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || ch.queued(cur, fi) || ch.isKnown(fi, nil) {
		return
	}
	fl, err := openFile(path)
	if err != nil {
		return
	}
	// An empty file cannot be told from a copy being made (copytruncate's, which
	// creates the file and then writes it): it is looked at again on its next event or
	// listing.
	if len(fl.head) == 0 || ch.queued(cur, fl.id) || ch.isKnown(fl.id, fl.head) || decompress.Detect(fl.head) != decompress.None || ch.copyOf(cur, fl, nil) {
		fl.close()
		return
	}
	ch.next = append(ch.next, fl)
	ch.sort()
}

// skip notes that the listing passed over sib.
func (ch *chain) skip(sib sibling) {
	if id, ok := fileID(sib.fi); ok {
		ch.skipped[filepath.Base(sib.path)] = id.ino
	}
}

// knownFile is what chain.known keeps of a file: its first bytes, and its size and
// modification time then.
type knownFile struct {
	head []byte
	size int64
	mod  time.Time
}

// isKnown reports whether fi is a known file: one with its identity and, given head,
// the same first bytes (another is a file given a freed inode); without head, the same
// size and modification time, which a file read to its end keeps, and a file given its
// freed inode does not (when they differ, the caller opens the file and asks again with
// its head).
func (ch *chain) isKnown(fi os.FileInfo, head []byte) bool {
	id, ok := fileID(fi)
	if !ok {
		return false
	}
	k, ok := ch.known[id]
	switch {
	case !ok:
		return false
	case head == nil:
		return k.size == fi.Size() && k.mod.Equal(fi.ModTime())
	}
	return len(k.head) == 0 || sameHead(k.head, head)
}

// know notes fl as a file not to read.
func (ch *chain) know(fl *file) {
	if id, ok := fileID(fl.id); ok {
		k := knownFile{head: fl.head, size: -1}
		if fi, err := fl.f.Stat(); err == nil {
			k.size, k.mod = fi.Size(), fi.ModTime()
		}
		ch.known[id] = k
	}
}

// copyOf reports whether fl begins as a file read, queued or found does, or as a file
// read did before it was truncated in place.
func (ch *chain) copyOf(cur, fl *file, found []*file) bool {
	if cur != nil && sameHead(cur.head, fl.head) {
		return true
	}
	for _, k := range ch.known {
		if sameHead(k.head, fl.head) {
			return true
		}
	}
	if slices.ContainsFunc(ch.rewound, func(h []byte) bool { return sameHead(h, fl.head) }) {
		return true
	}
	same := func(n *file) bool { return sameHead(n.head, fl.head) }
	return slices.ContainsFunc(ch.next, same) || slices.ContainsFunc(found, same)
}

// pending reports what the queue holds to read before waiting at cur's end: newer, a
// file with data that had the name after cur (the writer has moved on past cur); older, a
// file with bytes not read yet that had the name before cur (one a listing found late, or
// one left before its end). While the name names cur, every queued file is older: a file
// that had the name after cur is queued only by the look that saw it there, which notes
// that the name no longer names cur.
func (ch *chain) pending(cur *file) (newer, older bool) {
	if len(ch.next) == 0 {
		return false, false
	}
	atName := !ch.detached(cur)
	if !atName {
		if fi, err := cur.f.Stat(); err == nil {
			cur.mod = fi.ModTime() // compare orders files born in one tick by it
		}
	}
	for _, n := range ch.next {
		fi, err := n.f.Stat()
		if err != nil || fi.Size() == 0 {
			continue
		}
		n.mod = fi.ModTime()
		switch {
		case !atName && n.compare(cur) > 0:
			newer = true
		case fi.Size() > n.at:
			older = true
		}
	}
	return newer, older
}

// requeue puts cur, left at a record boundary before its end, back in the queue with
// where it was left, and moves the oldest file with bytes not read yet to the front, to
// be read first.
func (ch *chain) requeue(cur *file, pos int64, tail tailBytes) {
	cur.at, cur.tail = pos, tail
	ch.next = append(ch.next, cur)
	ch.sort()
	for i, n := range ch.next {
		if fi, err := n.f.Stat(); n != cur && err == nil && fi.Size() > n.at {
			ch.next = slices.Insert(slices.Delete(ch.next, i, i+1), 0, n)
			return
		}
	}
}

// done notes that fl has been read to its end and closes it.
func (ch *chain) done(fl *file) {
	if !fl.sealed {
		fl.readHead()
		ch.know(fl)
	}
	fl.close()
}

// pop takes the next file of the chain; there is one when Read set rotated.
func (ch *chain) pop() *file {
	fl := ch.next[0]
	ch.next = ch.next[1:]
	return fl
}

// detached reports whether the name does not name cur.
func (ch *chain) detached(cur *file) bool {
	return ch.seen == nil || cur == nil || !os.SameFile(ch.seen, cur.id)
}

// close closes the files queued.
func (ch *chain) close() {
	for _, n := range ch.next {
		n.close()
	}
	ch.next = nil
}
