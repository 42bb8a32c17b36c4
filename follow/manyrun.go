package follow

import (
	"os"
	"time"
)

// loop is the loop of Views and Lines: the members with records to read take turns;
// when none has any, the loop waits for the watcher to nudge one, calling Idle first.
func (m *Many) loop(yield func(Record) bool) {
	for m.err == nil && !m.stopped.Load() {
		m.run.now = time.Now()
		mb := m.run.pop()
		if mb == nil {
			if !m.wait() {
				return
			}
			continue
		}
		if !m.turn(mb, yield) {
			return
		}
		if m.env.fds.pressed.Load() {
			m.housekeep()
		}
	}
}

// wait waits for a member to be nudged, or a Poll at most, calling Idle first; false
// when the loop is to end.
func (m *Many) wait() bool {
	if m.mo.Idle != nil {
		m.mo.Idle()
	}
	if m.stopped.Load() {
		return false
	}
	t := m.run.timer
	t.Reset(m.run.waitFor(m.mo.Poll))
	defer t.Stop()
	select {
	case <-m.sig.wake:
	case <-m.sig.done:
		return false
	case <-t.C:
	}
	m.run.now = time.Now()
	m.housekeep()
	return true
}

// goneAfter is how long a member whose name and file are gone (deleted, nothing queued)
// keeps its file open: a name deleted and made again at once is a rotation, and the
// writer may still append to the deleted file until it reopens the name. Then it is
// parked (its deleted file's space freed), and forgotten unless its name comes back.
const goneAfter = time.Second

// housekeep closes the files idle for CloseIdle (or goneAfter, deleted), and more while the Many holds more
// than its limit (lowered when the process ran out of descriptors, raised again by one a
// look while it does not), and queues the members waiting for a descriptor while there
// is room.
func (m *Many) housekeep() {
	fds := m.env.fds
	if fds.pressed.Swap(false) {
		m.run.limit = max(1, int(fds.n.Load())-1)
	} else if m.run.limit < m.mo.MaxOpen {
		m.run.limit++
	}
	for mb := range m.run.open {
		if mb.pos.eng != nil || mb.queued {
			continue
		}
		idle := m.run.now.Sub(mb.last)
		if idle >= m.mo.CloseIdle || idle >= goneAfter && mb.src.gone() {
			m.park(mb)
		}
	}
	if int(fds.n.Load()) > m.run.limit {
		m.room(nil)
	}
	m.run.unstarve(int(fds.n.Load()))
}

// openFirst opens the members OpenMany begins with, in order, and queues them, so that
// State names each from the first moment; beyond half the limit each is parked at once
// (reopened from its checkpoint in its turn). An error of one, without Warn, is
// OpenMany's.
func (m *Many) openFirst(first []*member) error {
	for _, mb := range first {
		mb.start.initial = true
		m.run.push(mb)
		if m.wake(mb) && int(m.env.fds.n.Load()) > m.run.limit/2 {
			m.park(mb)
		}
		if m.err != nil {
			return m.err
		}
	}
	return nil
}

// beginAt returns how a member of a name found begins: from ManyOptions.Resume's
// checkpoint of it if it has one; for the names OpenMany lists first (initial) when
// there is no Resume, as Options say; else whole (see whole): a name that appeared while
// the program was down, with every file of it; a name found later, with its files
// modified since OpenMany began (rotated before the name was found).
func (m *Many) beginAt(resume *State, initial bool, began time.Time) func(string, os.FileInfo) *member {
	return func(name string, fi os.FileInfo) *member {
		mb := &member{name: name, key: stateKey(name)}
		switch cp, ok := resume.Checkpoint(name); {
		case ok:
			cp.Name = name
			mb.start.fo = m.fileOptions(0, &cp)
		case resume == nil && initial:
			mb.start.fo = m.fileOptions(m.mo.Start, nil)
			mb.start.fo.Last = m.mo.Last
		case initial:
			mb.start.fo = m.fileOptions(0, whole(name, time.Time{}))
		default:
			mb.start.fo = m.fileOptions(0, whole(name, began.Add(-tick)))
		}
		if initial {
			mb.start.scan = fi
		}
		return mb
	}
}

// fileOptions are the Options of one name's source: ManyOptions.Options as given (Poll,
// PollOnly, and whatever else a file is followed with), but Idle and Moved, which are
// the Many's, and where it begins: start, or resume (then Last and Start do not count).
func (m *Many) fileOptions(start int64, resume *Checkpoint) Options {
	fo := m.mo.Options
	fo.Idle, fo.Moved = nil, nil
	fo.Start, fo.Last, fo.Resume = start, 0, resume
	return fo
}

// whole is the checkpoint of a name none was taken of, read whole since: the files of
// the name modified since then (its rotated files, which a name found late may already
// have), oldest first, each from its start, copies passed over, then the file at the
// name from its start (see resumeEmptied).
func whole(name string, since time.Time) *Checkpoint {
	return &Checkpoint{Name: name, head: digestOf(nil), tail: digestOf(nil), mod: since, hasMod: true}
}

// resumeMissing sorts out ManyOptions.Resume's checkpoints that no member took: a name
// no pattern matches is carried as it is; a name a pattern matches but that is missing
// now waits, parked, while a rotated file of it (which its checkpoint may be in) is
// beside it; it is forgotten otherwise.
func (m *Many) resumeMissing(resume *State) {
	m.book.carried = map[string]Checkpoint{}
	for _, cp := range resume.Checkpoints() {
		name, ok := m.names.follows(cp.Name)
		switch {
		case !ok:
			m.book.carried[cp.Name] = cp
		case m.names.lookup(name) != nil || !m.names.hasSiblings(name):
		default:
			mb := &member{name: name, key: cp.Name, st: memberParked, cp: cp, fresh: true}
			mb.cp.Name = name
			mb.shared.stamp.Store(&stamp{})
			m.names.adopt(mb)
		}
	}
}
