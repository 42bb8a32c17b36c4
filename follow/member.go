package follow

import (
	"errors"
	"io/fs"
	"os"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// memberState is where a member stands.
type memberState uint8

const (
	memberNew    memberState = iota // found, not opened yet: start says how to begin
	memberOpen                      // its source is open: reading, or waiting for its files to change
	memberParked                    // its files are closed: cp is where it stands, reopened from it (as a restart finds its files) when its name changes
	memberAside                     // not read: its file cannot be read (told once), or is read under another name; looked at again when its name changes
	memberGone                      // forgotten: its name and its files are gone
)

// member is one followed name: the files that have had it, read as Open reads them (its
// source), and where it stands. It is the Many's state machine for one name (see
// memberState), and the goroutine that iterates owns it; the watcher's goroutine touches
// only shared. Invariants: src is set exactly in memberOpen; pos.eng only there, while
// records read are not all yielded (a turn ended by Fair); cp is where the member stands
// in memberParked, and in memberOpen while fresh.
type member struct {
	name  string // as followed: Record.Name
	key   string // the State's key: name's absolute path
	st    memberState
	start memberStart
	src   *source
	pos   memberPos
	cp    Checkpoint
	fresh bool        // memberOpen: nothing yielded, and no file changed, since cp was taken
	seen  os.FileInfo // memberAside: the name's file then (nil: missing)
	alias bool        // memberAside: set aside because its file is read under another name
	last  time.Time   // when it last yielded a record, or was opened: CloseIdle, and which to close first
	// queued: in the scheduler's queue (a member is there once at most)
	queued bool
	claim  *devIno // the file it reads (or stands in, parked) by identity: see scheduler.claims
	shared memberShared
}

// memberStart is how a member found begins.
type memberStart struct {
	fo   Options     // Start and Last, or Resume
	scan os.FileInfo // the name's file when OpenMany listed it (begin counts Start and Last from its size then); nil for a name found later
	// initial: its starting contents (up to scan's size) come before anything else, in
	// the order named, as tail -F prints them.
	initial bool
}

// memberPos is where a member's records stand: lines records of the name were yielded
// before eng's, whose input begins at base in the source's file; at is just past the last
// record yielded, in that file.
type memberPos struct {
	eng   *linereader.Reader
	base  int64
	lines int64
	at    int64
}

// memberShared is what the watcher's goroutine touches of a member.
type memberShared struct {
	nudged atomic.Bool           // it is in the scheduler's inbox
	stamp  atomic.Pointer[stamp] // parked or aside: its name's file then, for the poll's sweep; nil otherwise
}

// stamp is a file as a stat saw it: its identity, size, time and mode (nil: missing).
type stamp struct{ fi os.FileInfo }

// differs reports whether fi, the name's file now, is not the stamped one as it was.
func (s *stamp) differs(fi os.FileInfo) bool {
	switch {
	case s.fi == nil || fi == nil:
		return (s.fi == nil) != (fi == nil)
	case !os.SameFile(s.fi, fi):
		return true
	}
	return s.fi.Size() != fi.Size() || !s.fi.ModTime().Equal(fi.ModTime()) || s.fi.Mode() != fi.Mode()
}

// turn reads mb's records, yielding each, until its files have nothing more (it waits
// for them to change) or it has had its Fair share (it is queued again, behind the
// others); its starting contents are read whole. It reports false when the loop is to
// end.
func (m *Many) turn(mb *member, yield func(Record) bool) bool {
	if mb.st != memberOpen && !m.wake(mb) {
		return m.err == nil && !m.stopped.Load()
	}
	p := &mb.pos
	var used int64
	for {
		if !mb.start.initial && used >= int64(m.mo.Fair) {
			m.run.push(mb)
			return true
		}
		if p.eng == nil {
			p.eng = m.run.engine(m.opt)
			p.eng.Reset(mb.src)
			p.base, p.at = mb.src.rd.pos, mb.src.rd.pos
		}
		if !p.eng.Next() {
			if m.ended(mb) {
				continue // the next file of the name
			}
			return m.err == nil && !m.stopped.Load()
		}
		before := p.at
		p.at = p.base + p.eng.EndOffset()
		used += p.at - before
		mb.fresh, mb.last = false, m.run.now
		m.book.changes++
		if mb.start.initial && (mb.start.scan == nil || p.at >= mb.start.scan.Size()) {
			mb.start.initial = false
		}
		rec := Record{Name: mb.name, Data: p.eng.Bytes(), Offset: p.base + p.eng.Offset(), LineNo: p.lines + p.eng.LineNo()}
		if !yield(rec) || m.stopped.Load() {
			return false
		}
	}
}

// ended handles the end of mb's engine: an error; a move to the next file of the name
// (reported true: read on); or the wait for the files to change, where the engine dropped
// the bytes of a record not complete yet, which are read again next time.
func (m *Many) ended(mb *member) (moved bool) {
	p, src := &mb.pos, mb.src
	if m.stopped.Load() || src.stopped.Load() {
		m.run.release(p)
		return false
	}
	if err := p.eng.Err(); err != nil {
		m.run.release(p)
		m.setAside(mb, err)
		return false
	}
	if src.rd.move != moveNone {
		p.lines += p.eng.LineNo()
		if src.nextInput() {
			p.eng.Reset(src)
			p.base, p.at = src.rd.pos, src.rd.pos
			mb.fresh, mb.start.initial = false, false
			m.book.changes++
			return true
		}
		m.run.release(p)
		return false
	}
	held := p.at < src.rd.pos // the start of a record: of many lines, it may be complete
	src.backTo(p.at)
	m.run.release(p)
	mb.start.initial = false
	if held {
		m.run.flushAt(mb)
	}
	if len(m.run.starved) > 0 {
		m.park(mb) // a member waits for a descriptor: this one waits without one
	}
	return false
}

// wake opens mb: a member found, from where it begins; a parked one, from its
// checkpoint, as a restart finds its files; one set aside, if its name names another file
// now, from its start. It reports whether mb is open.
func (m *Many) wake(mb *member) bool {
	fo, scan, ok := m.reopen(mb)
	if !ok || m.stopped.Load() {
		return false
	}
	if !m.room(mb) {
		m.run.starve(mb)
		return false
	}
	src, err := openSource(mb.name, m.opt, fo, m.env, scan)
	if err != nil {
		m.cannotOpen(mb, err)
		return false
	}
	src.moved = func() { m.moved(mb) }
	if !m.names.setOpen(mb, src) {
		src.close() // closed meanwhile
		return false
	}
	mb.src, mb.st = src, memberOpen
	mb.shared.stamp.Store(nil)
	mb.pos = memberPos{base: src.rd.pos, at: src.rd.pos, lines: mb.pos.lines}
	mb.fresh, mb.last = false, m.run.now
	m.run.open[mb] = struct{}{}
	m.book.changes++
	if m.run.claim(mb) != nil {
		m.setAside(mb, nil) // read under another name
		mb.alias = true
		return false
	}
	return true
}

// reopen says how mb is to be opened now, if it is to be.
func (m *Many) reopen(mb *member) (fo Options, scan os.FileInfo, ok bool) {
	switch mb.st {
	case memberNew:
		return mb.start.fo, mb.start.scan, true
	case memberParked:
		cp := mb.cp
		cp.Name = mb.name
		return m.fileOptions(0, &cp), nil, true
	case memberAside:
		fi, err := os.Stat(mb.name)
		if errors.Is(err, fs.ErrNotExist) {
			m.drop(mb)
			return Options{}, nil, false
		}
		if !(&stamp{mb.seen}).differs(fi) {
			return Options{}, nil, false
		}
		if mb.alias && os.SameFile(fi, mb.seen) {
			// The file read under another name: what was there was read there; what
			// is written from now on is this name's.
			return m.fileOptions(-1, nil), nil, true
		}
		mb.pos.lines = 0
		return m.fileOptions(0, nil), nil, true // another file, or changed: from its start
	}
	return Options{}, nil, false
}

// cannotOpen handles the failure to open mb: for want of descriptors, it waits for one;
// a name gone, it is forgotten (a parked one while a rotated file of it may still hold
// its checkpoint's rest, it waits for the name); anything else is told once, and mb set
// aside.
func (m *Many) cannotOpen(mb *member, err error) {
	switch {
	case exhausted(err):
		m.run.limit = max(1, int(m.env.fds.n.Load()))
		m.env.fds.pressed.Store(false)
		m.run.starve(mb)
	case errors.Is(err, fs.ErrNotExist):
		if mb.st != memberParked || !m.names.hasSiblings(mb.name) {
			m.drop(mb)
			return
		}
		mb.shared.stamp.Store(&stamp{})
	default:
		m.setAside(mb, err)
	}
}

// setAside sets mb aside: err (nil for a file read under another name) is told once; mb
// is looked at again when its name changes.
func (m *Many) setAside(mb *member, err error) {
	m.close(mb)
	m.run.unclaim(mb)
	fi, _ := os.Stat(mb.name)
	mb.st, mb.seen, mb.alias = memberAside, fi, false
	mb.shared.stamp.Store(&stamp{fi})
	m.book.changes++
	if err != nil {
		m.fail(mb.name, err)
	}
}

// park closes mb's files, where it stands kept as a checkpoint: it is reopened from it
// when its name changes. A member parked with something left to read (its name names
// another file now, or its file grew since it was read, or files are queued) is queued
// at once: no change to come would wake it.
func (m *Many) park(mb *member) {
	mb.cp, _ = m.checkpointOf(mb)
	fi, err := os.Stat(mb.name)
	if err != nil {
		fi = nil
	}
	caughtUp := fi != nil && mb.src.caughtUp(fi)
	m.close(mb)
	mb.st, mb.fresh = memberParked, true
	mb.shared.stamp.Store(&stamp{fi})
	if !caughtUp {
		m.run.push(mb)
	}
}

// drop forgets mb: its name and its files are gone.
func (m *Many) drop(mb *member) {
	m.close(mb)
	m.run.unclaim(mb)
	mb.st = memberGone
	m.names.forget(mb)
	m.book.changes++
}

// close closes mb's source, if it is open (its claim is kept: parked, it stands in its
// file).
func (m *Many) close(mb *member) {
	if mb.src == nil {
		return
	}
	m.run.release(&mb.pos)
	m.names.setOpen(mb, nil)
	delete(m.run.open, mb)
	mb.src.close()
	mb.src = nil
}

// moved is Options.Moved of mb's source: its reading moved to another file.
func (m *Many) moved(mb *member) {
	mb.fresh = false
	m.book.changes++
	m.run.claim(mb)
	if m.mo.Moved != nil {
		m.mo.Moved()
	}
}

// checkpointOf is where mb stands, as a Checkpoint of its name; false when it has none
// (a member not opened yet that begins without one, one set aside, one gone).
func (m *Many) checkpointOf(mb *member) (Checkpoint, bool) {
	switch mb.st {
	case memberOpen:
		if !mb.fresh {
			mb.cp = checkpointAt(mb.name, mb.src.rd.cur, mb.pos.at)
			mb.fresh = true
		}
		return mb.cp, true
	case memberParked:
		return mb.cp, true
	case memberNew:
		if r := mb.start.fo.Resume; r != nil && r.hasID {
			return *r, true // a checkpoint of Resume's (not whole's): where it stands still
		}
	}
	return Checkpoint{}, false
}

// openSlack is how many files a member may take as it is opened, the one at its name
// and a rotated one: room leaves that much below the limit.
const openSlack = 2

// room makes room for mb's files: while the Many holds its most (less openSlack), the
// open member idle the longest is parked. It reports false when none can be.
func (m *Many) room(mb *member) bool {
	for int(m.env.fds.n.Load()) >= max(1, m.run.limit-openSlack) {
		var idlest *member
		for o := range m.run.open {
			if o != mb && o.pos.eng == nil && (idlest == nil || o.last.Before(idlest.last)) {
				idlest = o
			}
		}
		if idlest == nil {
			return false
		}
		m.park(idlest)
	}
	return true
}
