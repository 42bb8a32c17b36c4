package follow

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A watcher tells the reading when the followed name or its files may have changed. It
// knows nothing of the reading: it runs one goroutine of its own, which calls the
// target's methods, and stop ends that goroutine and returns once it has returned. The
// two implementations are poller (a look every poll period) and notifier (file-system
// notifications on the name's directory, with the poller's look as the safety net).
type watcher interface {
	stop()
	notifies() bool // whether notifications are set: tests check PollOnly with it
}

// target is what a watcher wakes: the follower's source.
type target interface {
	// look stats the name and notes what it names now, reporting whether that changed
	// since the last look, or a file was queued.
	look() bool
	// signal wakes a waiting Read, or makes its next wait return at once.
	signal()
	// detached reports whether the file being read is no longer at the name, so that
	// it may be written under a name not watched.
	detached() bool
	// arrived notes the file that a rename or creation put at path beside the name,
	// reporting whether it was queued.
	arrived(path string) bool
}

// newWatcher starts the watcher of name for t: a notifier when notify is set and the
// platform gives notifications on name's directory (the limits on watches are one
// reason it may not), else a poller.
func newWatcher(name string, poll time.Duration, notify bool, t target) watcher {
	p := &poller{t: t, poll: poll, done: make(chan struct{}), ended: make(chan struct{})}
	if notify {
		if w, err := fsnotify.NewWatcher(); err == nil {
			// A watch on the directory sees the name replaced, not only the file written.
			if err := w.Add(filepath.Dir(name)); err == nil {
				n := &notifier{poller: p, w: w, base: filepath.Base(name)}
				go n.run()
				return n
			}
			w.Close()
		}
	}
	go p.run()
	return p
}

// poller looks at the name every poll period.
type poller struct {
	t     target
	poll  time.Duration
	done  chan struct{} // closed by stop
	ended chan struct{} // closed when the goroutine has returned
}

func (p *poller) run() {
	defer close(p.ended)
	tick := time.NewTicker(p.poll)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-tick.C:
			p.tick()
		}
	}
}

// tick is the periodic look: it wakes Read when the name changed, and while detached in
// any case, as the file being read may be written under a name not watched.
func (p *poller) tick() {
	if p.t.look() || p.t.detached() {
		p.t.signal()
	}
}

func (p *poller) stop() {
	close(p.done)
	<-p.ended
}

func (p *poller) notifies() bool { return false }

// coalesce is how long the notifier leaves the notifications unread after a write. A
// writer making many small writes then makes one notification per coalesce period
// instead of one per write: the system merges the identical notifications waiting to be
// read, so the writer's writes and the reader's wake-ups stay few, for a latency of
// at most this much more. (Creations, renames and removals are not held after.)
const coalesce = time.Millisecond

// busy is how long after a creation, rename or removal beside the name the notifier
// reads on after writes instead of holding: while files are rotated quickly, every
// rotated file must be opened before a rotation deletes it, and notifications left
// unread while held delay that (at one rotation every 2 ms a hold per rotation put the
// notifier behind).
const busy = 100 * time.Millisecond

// notifier wakes Read on the notifications from the name's directory that concern the
// followed files, and looks at the name on those that may have changed it, on an
// overflow of the notification queue, and every poll period.
type notifier struct {
	*poller
	w    *fsnotify.Watcher
	base string // the name's last element, which the events are matched against
}

func (n *notifier) run() {
	defer close(n.ended)
	tick := time.NewTicker(n.poll)
	defer tick.Stop()
	hold := time.NewTimer(coalesce)
	defer hold.Stop()
	// events is nil while held after a write; notified is the channel itself.
	events, notified, errs := n.w.Events, n.w.Events, n.w.Errors
	var moved time.Time // the last creation, rename or removal (see busy)
	for {
		select {
		case <-n.done:
			return
		case ev, ok := <-events:
			if !ok {
				events, notified = nil, nil
				continue
			}
			n.event(ev)
			switch {
			case ev.Op != fsnotify.Write:
				moved = time.Now()
			case time.Since(moved) > busy:
				events = nil
				hold.Reset(coalesce)
			}
		case <-hold.C:
			events = notified
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			// Events were dropped (the queue overflowed): look now.
			n.t.look()
			n.t.signal()
		case <-tick.C:
			n.tick()
		}
	}
}

// event handles one notification from the directory.
func (n *notifier) event(ev fsnotify.Event) {
	ours := filepath.Base(ev.Name) == n.base
	switch {
	case ours && ev.Op == fsnotify.Write:
		n.t.signal() // the file at the name grew or was truncated: nothing to look up
	case ours:
		n.t.look() // created, removed, renamed, or its links or mode changed
		n.t.signal()
	case ev.Op&fsnotify.Create != 0 && strings.HasPrefix(filepath.Base(ev.Name), n.base):
		// A rotated file arriving beside the name (renamed there, or shifted from one
		// number to the next): noted now, so that a fast rotation that deletes old files
		// loses none of them, then as below.
		if n.t.arrived(ev.Name) || n.t.detached() {
			n.t.signal()
		}
	case n.t.detached():
		// The file being read was rotated away and may be written under its new name.
		n.t.signal()
	}
}

func (n *notifier) stop() {
	n.poller.stop()
	n.w.Close()
}

func (n *notifier) notifies() bool { return true }
