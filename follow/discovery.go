package follow

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// discovery finds the files that had the followed name: it looks at the name, lists the
// files beside it, tells a file of its own from a copy of one read (identity.go), and
// orders them (file.compare). It hands the reading an ordered queue of opened files,
// and the reading tells it what it reads (publish). The watcher's goroutine and the
// reading's both call it; mu guards all of its state and is never held while the
// reading reads its file (the reading holds no lock at all).
type discovery struct {
	name string
	h    *handles
	env  *manyEnv // a Many's listings and names (see manyEnv); nil for Open's
	mu   sync.Mutex
	// queue holds the files to read after the reading's, each open, oldest first
	// (compare), the file at the name last; each is read from its at once the file
	// before it is read to its end. None is the reading's file.
	queue []*file
	seen  os.FileInfo // what the name named at the last look; nil: nothing
	rd    published   // the reading's file and what it has read of it
	// known holds the files beside the name that are not to be read (there before the
	// follower began, read to their end, copies), by identity; a file missing from
	// the listings long enough is forgotten (prune), so memory follows what is beside
	// the name, not the life of the follower.
	known map[devIno]knownFile
	// rewound holds what was read of the generations of files truncated in place (the
	// last maxRewound): what their copies hold.
	rewound []content
	// undecided counts the files the last listing could not judge yet: while there are
	// some, every look lists again.
	undecided int
	// clean is the last listing that found no file renamed under it: the directory's
	// modification time just before it began, and when it began. While the directory's
	// time is still that one, and was older than the listing by more than a tick, no
	// file has come or gone since, and a refresh need not list again (see refresh).
	clean struct{ dirMod, at time.Time }
	err   error // the first failure found (a directory at the name), reported once the files open are read
	// detached: the name does not name the reading's file; read without mu by the
	// watcher on every event.
	detached atomic.Bool
	// numbering is which way the numbers of the files beside the name go, as the
	// listings show it (order.go); the files found beside the name point to it.
	numbering numbering
}

// published is what the reading has told the discovery of its file: its identity (nil
// when there is none), what it has read of it, and the file, for its bytes as they are
// now (nil for a compressed one). The discovery only reads it at offsets (ReadAt).
type published struct {
	id   os.FileInfo
	born time.Time
	read content
	f    *os.File
}

// maxRewound bounds discovery.rewound.
const maxRewound = 8

// newDiscovery returns the discovery of name, knowing every file beside it as it is now.
// It fails only when the process has no descriptor left to open one of them with: a file
// not known would later be taken for one rotated since, and read.
func newDiscovery(name string, h *handles, env *manyEnv) (*discovery, error) {
	d := &discovery{name: name, h: h, env: env, known: map[devIno]knownFile{}}
	sibs := d.siblings().files
	d.numbering.learn(name, sibs)
	for _, sib := range sibs {
		fl, err := d.open(sib.path)
		if err != nil {
			if exhausted(err) {
				return nil, err
			}
			continue
		}
		d.know(fl)
		fl.close()
	}
	return d, nil
}

// open opens the file at path beside the name, noting what its name says of its place
// (order.go).
func (d *discovery) open(path string) (*file, error) {
	fl, err := openFile(d.h, path)
	if err == nil {
		fl.nameOf(d.name, path, &d.numbering)
	}
	return fl, err
}

// publish notes what the reading reads: its file and what it has read of it.
func (d *discovery) publish(fl *file, read content) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.hand(fl, read)
}

// look stats the name and notes what it names now: a file not queued yet is opened and
// queued, with every file that had the name in between (refresh); a missing name is
// waited for; a directory, or a file that cannot be opened, is an error. It reports
// whether the name changed since the last look (another file, or the same one with
// another size or time), or a file was queued. While files wait to be judged, it lists
// the directory again.
func (d *discovery) look() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.setDetached()
	queued := len(d.queue)
	changed, err := d.lookName()
	if err != nil && d.err == nil {
		d.err = err
	}
	if d.undecided > 0 {
		d.refreshLocked()
	}
	return changed || len(d.queue) > queued
}

// lookAll is look with a listing in any case: what the reading asks for after a pause,
// when files may have been rotated and the name given to another (before it reads on,
// the name's file must be known: while the name names the file being read, every file
// queued is older).
func (d *discovery) lookAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.setDetached()
	if _, err := d.lookName(); err != nil && d.err == nil {
		d.err = err
	}
	d.refreshLocked()
}

// lookName is look's look at the name.
func (d *discovery) lookName() (bool, error) {
	fi, err := os.Stat(d.name)
	if errors.Is(err, fs.ErrNotExist) {
		changed := d.seen != nil
		d.seen = nil
		return changed, nil
	}
	if err != nil {
		return true, err
	}
	last := d.seen
	changed := last == nil || !os.SameFile(fi, last) || fi.Size() != last.Size() || !fi.ModTime().Equal(last.ModTime())
	d.seen = fi
	if d.queued(fi) {
		return changed, nil
	}
	if err := followable(d.name, fi); err != nil {
		return true, err
	}
	fl, err := openFile(d.h, d.name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errClosed) {
		return changed, nil // gone again: the next look sees what is there then
	}
	if err != nil {
		return true, err
	}
	if d.queued(fl.id) {
		fl.close() // the name changed back between the stat and the open
		return changed, nil
	}
	d.queue = append(d.queue, fl) // queued first: a listing does not find it again once renamed
	d.refreshLocked()
	return changed, nil
}

// queued reports whether fi is the reading's file or a file queued.
func (d *discovery) queued(fi os.FileInfo) bool {
	if d.rd.id != nil && os.SameFile(fi, d.rd.id) {
		return true
	}
	return slices.ContainsFunc(d.queue, func(q *file) bool { return os.SameFile(fi, q.id) })
}

// idSet is the identities of the reading's file and the queued ones, taken once for a
// listing: asking queued of each file beside the name scanned the queue for each, and a
// follower behind by hundreds of rotated files spent its time there (unique names,
// a rotation every 2 ms: stalls of seconds). ok is false where the platform gives no
// identities; has then asks queued.
type idSet struct {
	ids map[devIno]bool
	ok  bool
}

// queuedIDs returns the idSet of the reading's file and the queue as they are now.
func (d *discovery) queuedIDs() idSet {
	s := idSet{ids: make(map[devIno]bool, len(d.queue)+1), ok: true}
	for _, fi := range append([]os.FileInfo{d.rd.id}, d.queueIDs()...) {
		if fi == nil {
			continue
		}
		if id, ok := fileID(fi); ok {
			s.ids[id] = true
		} else {
			s.ok = false
		}
	}
	return s
}

// queueIDs returns the identities of the queued files.
func (d *discovery) queueIDs() []os.FileInfo {
	out := make([]os.FileInfo, len(d.queue))
	for i, q := range d.queue {
		out[i] = q.id
	}
	return out
}

// has reports whether fi is in s: queued(fi), in a map.
func (s idSet) has(d *discovery, fi os.FileInfo) bool {
	id, ok := fileID(fi)
	if !s.ok || !ok {
		return d.queued(fi)
	}
	return s.ids[id]
}

// add notes fi, just queued.
func (s idSet) add(fi os.FileInfo) {
	if id, ok := fileID(fi); ok {
		s.ids[id] = true
	}
}

// scans bounds the listings of the directory in one refresh: a listing taken while
// the files are renamed (shifted) can miss one, so a refresh lists again until a
// listing finds no file renamed under it.
const scans = 4

// refresh queues the files that had the name since the last one queued, however quickly
// the rotations came: the files beside the name that are neither the reading's, nor
// queued, nor known, nor copies of a file read. The reading calls it before it moves on
// to the next file, so that a file a listing missed while files were renamed is not
// passed over.
//
// A follower behind by hundreds of rotated files moves on hundreds of times, and each
// listing stats every file beside the name: it lists again only when the directory may
// have changed since the last clean listing (unique names, a rotation every 2 ms, 1,000
// files: it had stalled for seconds, listing).
func (d *discovery) refresh() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.undecided == 0 && d.dirUnchanged() {
		d.sort()
		return
	}
	d.refreshLocked()
}

func (d *discovery) refreshLocked() {
	for range scans {
		began, mod := time.Now(), d.dirMod()
		if !d.list() {
			d.clean.dirMod, d.clean.at = mod, began
			break
		}
		d.clean.dirMod, d.clean.at = time.Time{}, time.Time{}
	}
	d.sort()
}

// dirMod returns the modification time of the directory of the name (the zero time
// when it cannot be had).
func (d *discovery) dirMod() time.Time {
	fi, err := os.Stat(filepath.Dir(d.name))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// dirUnchanged reports whether no file can have come or gone beside the name since the
// last clean listing: the directory's time is the one it had then, and that time was
// older than the listing by more than a tick of the file system's clock (a change at
// or after the listing's start would have stamped a later time).
func (d *discovery) dirUnchanged() bool {
	c := d.clean
	if c.dirMod.IsZero() || !c.dirMod.Before(c.at.Add(-tick)) {
		return false
	}
	return d.dirMod().Equal(c.dirMod)
}

// list lists the files beside the name once, queueing those of their own and knowing
// the copies, and forgets the known files that have been missing for a while. It
// reports whether a file was renamed while the directory was listed.
func (d *discovery) list() (moved bool) {
	l := d.siblings()
	d.undecided = 0
	d.numbering.learn(d.name, l.files)
	inQueue := d.queuedIDs()
	for _, sib := range l.files {
		if inQueue.has(d, sib.fi) || d.isKnown(sib.fi, nil) {
			continue
		}
		fl, err := d.open(sib.path)
		if err != nil {
			moved = moved || errors.Is(err, fs.ErrNotExist)
			continue // gone, or unreadable: not a file of the rotation that can be read
		}
		if !os.SameFile(fl.id, sib.fi) {
			moved = true // renamed since the listing: the next listing finds it
		}
		if d.take(fl) {
			inQueue.add(fl.id)
		}
	}
	d.prune(l.present)
	return moved
}

// take queues fl, a file beside the name not queued or known by identity, if it is one
// of its own, knows it if it is a copy, and closes it if it cannot be told yet (empty,
// or undecided: see judge).
func (d *discovery) take(fl *file) (queued bool) {
	if len(fl.head) == 0 || d.queued(fl.id) {
		fl.close() // empty: looked at again at the next listing
		return false
	}
	if d.isKnown(fl.id, fl.f) {
		fl.close()
		return false
	}
	v := d.judge(fl)
	switch v {
	case verdictOwn:
		d.queue = append(d.queue, fl)
		return true
	case verdictCopy:
		d.know(fl)
		fl.close()
		return false
	}
	d.undecided++
	fl.close()
	return false
}

// judge says what fl is, compared with what has been read and what is queued.
func (d *discovery) judge(fl *file) verdict {
	fi, err := fl.f.Stat()
	if err != nil {
		return verdictUndecided
	}
	read := d.contents()
	if fl.compressed() {
		complete, ok := fl.seal()
		if !ok {
			return verdictUndecided
		}
		return judgeSealed(fl, complete, fi.ModTime(), read)
	}
	return judge(fl, fi.Size(), fi.ModTime(), read)
}

// contents is what has been read, or is queued to be read: the reading's file as read,
// the generations rewound, the files known, and the files queued as they are now.
func (d *discovery) contents() []content {
	out := make([]content, 0, 1+len(d.rewound)+len(d.known)+len(d.queue))
	if d.rd.id != nil {
		read := d.rd.read
		read.live, read.born = !d.detached.Load(), d.rd.born
		out = append(out, read)
		if d.rd.f != nil {
			if fi, err := d.rd.f.Stat(); err == nil {
				now := content{head: make([]byte, min(fi.Size(), headLen)), p: fi.Size(), ra: d.rd.f, born: d.rd.born}
				if n, _ := d.rd.f.ReadAt(now.head, 0); n == len(now.head) {
					now.tail = make([]byte, min(fi.Size(), tailLen))
					if m, _ := d.rd.f.ReadAt(now.tail, fi.Size()-int64(len(now.tail))); m == len(now.tail) {
						out = append(out, now)
					}
				}
			}
		}
	}
	out = append(out, d.rewound...)
	for _, k := range d.known {
		out = append(out, k.content)
	}
	for _, q := range d.queue {
		if q.sealed {
			out = append(out, content{head: q.head, p: int64(len(q.head))})
			continue
		}
		q.readHead() // queued while it was still being written, perhaps
		if size := q.size(); size >= 0 {
			out = append(out, contentOf(q, size))
		}
	}
	return out
}

// consider queues the file at path beside the name, if it is one that a listing would
// queue: a rotated file that arrived there, seen on its notification. It reports
// whether it was queued.
func (d *discovery) consider(path string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || d.queued(fi) || d.isKnown(fi, nil) {
		return false
	}
	fl, err := d.open(path)
	if err != nil {
		return false
	}
	// An empty file cannot be told from a copy being made (copytruncate's creates the
	// file and then writes it): it is looked at again on its next event or listing.
	queued := len(d.queue)
	d.take(fl)
	d.sort()
	return len(d.queue) > queued
}

// isKnown reports whether fi is a known file, unchanged (see knownFile.unchanged):
// without ra, by its size and time alone, so that a caller opens a file that changed
// and asks again with its bytes.
func (d *discovery) isKnown(fi os.FileInfo, ra io.ReaderAt) bool {
	id, ok := fileID(fi)
	if !ok {
		return false
	}
	k, ok := d.known[id]
	return ok && k.unchanged(fi, ra)
}

// know notes fl as a file not to read.
func (d *discovery) know(fl *file) {
	if id, ok := fileID(fl.id); ok {
		d.known[id] = knownOf(fl)
	}
}

// prune forgets the known files missing from more than two listings in a row (present
// holds the inode numbers of the files beside the name): a file compressed is missing
// from the listing that first sees its compressed copy whole, which is compared with it
// then.
func (d *discovery) prune(present map[uint64]bool) {
	for id, k := range d.known {
		if present[id.ino] {
			if k.missing > 0 {
				k.missing = 0
				d.known[id] = k
			}
			continue
		}
		if k.missing++; k.missing > 2 {
			delete(d.known, id)
			continue
		}
		d.known[id] = k
	}
}

// sort sorts the queue oldest first, the file at the name last. (A queued file that is
// empty is kept: the writer may not have reopened the name yet, and write to it after
// it was renamed away; at its end it is left as soon as a later file has data.)
func (d *discovery) sort() {
	for _, q := range d.queue {
		q.restat()
	}
	slices.SortStableFunc(d.queue, (*file).compare)
	if d.seen != nil {
		if i := slices.IndexFunc(d.queue, func(q *file) bool { return os.SameFile(q.id, d.seen) }); i >= 0 {
			at := d.queue[i]
			d.queue = append(slices.Delete(d.queue, i, i+1), at)
		}
	}
}

// pending reports what the queue holds to read before the reading waits at the end of
// its file, cur, last modified at curMod: newer, a file with data that had the name
// after cur (the writer has moved on past cur); older, a file with bytes not read yet
// that had the name before cur (one a listing found late, or one left before its end).
// While the name names cur, every queued file is older: a file that had the name after
// cur is queued only by the look that saw it there, which notes that the name no longer
// names cur.
func (d *discovery) pending(cur *file, curMod time.Time, curEmpty bool) (newer, older bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.queue) == 0 {
		return false, false
	}
	atName := !d.detached.Load()
	here := &file{id: cur.id, born: cur.born, mod: curMod, empty: curEmpty, named: cur.named}
	for _, q := range d.queue {
		fi, err := q.f.Stat()
		if err != nil || fi.Size() == 0 {
			continue
		}
		q.mod, q.empty = fi.ModTime(), false
		switch {
		case !atName && d.seen != nil && os.SameFile(q.id, d.seen):
			// The file at the name is the last of all, whatever its times say
			// (copytruncate's, made when the log began, rewritten within the tick its copy
			// was made in).
			newer = true
		case !atName && q.compare(here) > 0:
			newer = true
		case fi.Size() > q.at:
			older = true
		}
	}
	return newer, older
}

// next reports whether a file is queued.
func (d *discovery) next() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.queue) > 0
}

// pop takes the next file of the queue, the oldest, or after requeue the oldest with
// bytes not read yet, and makes it the reading's at once (so that no listing finds it
// in between, neither queued nor read, and queues it again); nil when the queue is
// empty.
func (d *discovery) pop() *file {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.queue) == 0 {
		return nil
	}
	fl := d.queue[0]
	d.queue = slices.Delete(d.queue, 0, 1)
	d.hand(fl, content{head: fl.head, p: fl.at})
	return fl
}

// hand makes fl the reading's file, read to read.p (called with mu held).
func (d *discovery) hand(fl *file, read content) {
	if int64(len(read.head)) > read.p {
		read.head = read.head[:read.p:read.p]
	}
	d.rd = published{id: fl.id, born: fl.born, read: read, f: fl.f}
	if fl.sealed {
		d.rd.read, d.rd.f = content{}, nil
	}
	d.setDetached()
}

// requeue puts cur, left at a record boundary before its end, back in the queue, and
// moves the oldest file with bytes not read yet to the front, to be read first.
func (d *discovery) requeue(cur *file) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.queue = append(d.queue, cur)
	d.sort()
	for i, q := range d.queue {
		if q != cur && q.size() > q.at {
			d.queue = slices.Insert(slices.Delete(d.queue, i, i+1), 0, q)
			return
		}
	}
}

// rewind notes gen, what was read of fl before it was truncated in place, and returns
// the copy of it made since, made the reading's (see copyOf), with fl queued again to
// be read from its new start after it (at the name: last); or nil, fl staying the
// reading's, to be read again from its start. One step under mu, so that no listing
// finds fl or the copy in between.
func (d *discovery) rewind(fl *file, gen content, since time.Time) *file {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rewound = append(d.rewound, gen)
	if len(d.rewound) > maxRewound {
		d.rewound = slices.Delete(d.rewound, 0, len(d.rewound)-maxRewound)
	}
	c := d.copyOf(gen, since)
	if c != nil {
		fl.head, fl.at, fl.tail = nil, 0, tailBytes{}
		d.queue = append(d.queue, fl)
		d.sort()
	}
	return c
}

// done notes that fl has been read to its end and closes it.
func (d *discovery) done(fl *file) {
	k := knownOf(fl) // reads fl: outside mu
	fl.close()
	id, ok := fileID(fl.id)
	if !ok {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.known[id] = k
}

// copyOf returns the copy of gen, what was read of a file before it was truncated in
// place, made since (called with mu held): a file beside the name, made at or after since (less a tick of the
// file system's clock), that holds gen's bytes, positioned at gen.p to be read on from
// there (the bytes the reading had not read yet when the truncation came); the oldest of
// them, or nil. A compressed copy is read decompressed.
func (d *discovery) copyOf(gen content, since time.Time) *file {
	// A copy judged a file of its own (little had been read of the file) is queued.
	for i, q := range d.queue {
		if !q.sealed && (d.seen == nil || !os.SameFile(q.id, d.seen)) && !q.born.Before(since.Add(-tick)) && holdsFrom(q, gen) {
			d.queue = slices.Delete(d.queue, i, i+1)
			d.hand(q, gen)
			return q
		}
	}
	var best *file
	for _, sib := range d.siblings().files {
		if d.queued(sib.fi) {
			continue
		}
		fl, err := d.open(sib.path)
		if err != nil {
			continue
		}
		if fl.born.Before(since.Add(-tick)) || !holdsFrom(fl, gen) || best != nil && best.compare(fl) <= 0 {
			fl.close()
			continue
		}
		if best != nil {
			best.close()
		}
		best = fl
	}
	if best != nil {
		d.hand(best, gen)
	}
	return best
}

// tick is the most a file's times can lag behind the clock the follower reads: file
// systems stamp times from a coarse clock.
const tick = 10 * time.Millisecond

// holdsFrom reports whether fl holds gen's bytes, and positions it at gen.p if so.
func holdsFrom(fl *file, gen content) bool {
	if fl.compressed() {
		if _, ok := fl.seal(); !ok {
			return false
		}
		s, rest, ok := sampleStream(fl.r, gen.p, len(gen.head), len(gen.tail))
		fl.r = rest
		return ok && gen.matches(s)
	}
	size := fl.size()
	if size < gen.p || !gen.heldBy(fl.f, size) {
		return false
	}
	_, err := fl.f.Seek(gen.p, io.SeekStart)
	return err == nil
}

// failure is the first failure found, if any.
func (d *discovery) failure() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// setDetached notes whether the name names the reading's file (called with mu held).
func (d *discovery) setDetached() {
	d.detached.Store(d.seen == nil || d.rd.id == nil || !os.SameFile(d.seen, d.rd.id))
}

// close closes the files queued.
func (d *discovery) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, q := range d.queue {
		q.close()
	}
	d.queue = nil
}

// sibling is a file beside the followed name whose name begins with the name's own:
// where rotation puts the files that had the name.
type sibling struct {
	path string
	fi   os.FileInfo
}

// listing is one listing of the files beside the name: the regular files, and the
// inode numbers of every file there (what prune keeps).
type listing struct {
	files   []sibling
	present map[uint64]bool
}

// siblings lists the regular files beside the name whose names begin with the name's
// own and go on (app.log.1, app.log-20261201, app.log.2.gz), not the name itself, each
// with a stat: a name with the inode it had at the last listing may be another file by
// now (numbered shifting deletes the oldest file and gives its inode to the next one,
// under the same name), so none is passed over unseen. Where the listing gives inode
// numbers (Linux's getdents64) they are taken from it. In a Many, a file that is a name
// followed of its own is not one of them (manyEnv.skip).
func (d *discovery) siblings() listing {
	dir, base := filepath.Split(d.name)
	if dir == "" {
		dir = "."
	}
	l := listing{present: map[uint64]bool{}}
	entries, err := d.env.list(dir)
	if err != nil {
		return l
	}
	for _, e := range prefixed(entries, base) {
		path := filepath.Join(dir, e.name)
		if d.env.skips(d.name, path) {
			continue
		}
		if e.ino != 0 {
			l.present[e.ino] = true
		}
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if id, ok := fileID(fi); ok && e.ino == 0 {
			l.present[id.ino] = true
		}
		l.files = append(l.files, sibling{path, fi})
	}
	return l
}
