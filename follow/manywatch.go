package follow

import (
	"os"
	"time"

	"github.com/fsnotify/fsnotify"
)

// sweepPerPoll is how many names the poll stats each Poll among those whose files are
// closed (parked or set aside), in turn: with notifications, their changes wake them at
// once, and the sweep is the safety net; without, it is how they are seen to change.
// About a millisecond of stats a Poll, whatever the number of names (a sweep of 10,000
// takes 40 Polls, 10 s at the default).
const sweepPerPoll = 256

// manyWatcher is a Many's watcher: one goroutine that tells the loop which members may
// have changed. It waits on the notifications of the directories the patterns may match
// in (fsnotify), and every Poll looks at those directories, at the names of the members
// open (as Open's watcher looks at its one name) and at some of the others (the sweep).
// It never reads a file; stop ends its goroutine and returns once it has returned.
type manyWatcher struct {
	m       *Many
	fs      *fsnotify.Watcher // nil: the poll alone
	done    chan struct{}     // closed by stop
	ended   chan struct{}     // closed when the goroutine has returned
	started bool              // start was called (before stop, on OpenMany's goroutine)
}

// newManyWatcher makes m's watcher, with notifications if notify is set and the
// platform has them; start starts it once the names are listed.
func newManyWatcher(m *Many, notify bool) *manyWatcher {
	w := &manyWatcher{m: m, done: make(chan struct{}), ended: make(chan struct{})}
	if notify {
		if fs, err := fsnotify.NewBufferedWatcher(1024); err == nil {
			w.fs = fs
		}
	}
	return w
}

func (w *manyWatcher) start() {
	w.started = true
	go w.run()
}

// stop ends the goroutine and the notifications; called once (Many.stop).
func (w *manyWatcher) stop() {
	close(w.done)
	if w.started {
		<-w.ended
	}
	if w.fs != nil {
		w.fs.Close()
	}
}

func (w *manyWatcher) run() {
	defer close(w.ended)
	tick := time.NewTicker(w.m.mo.Poll)
	defer tick.Stop()
	var events chan fsnotify.Event
	var errs chan error
	if w.fs != nil {
		events, errs = w.fs.Events, w.fs.Errors
	}
	hold := time.NewTimer(time.Hour)
	hold.Stop()
	defer hold.Stop()
	notified := events
	var moved time.Time // the last creation, rename or removal (see busy)
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-events:
			if !ok {
				events, notified = nil, nil
				continue
			}
			w.event(ev)
			switch {
			case ev.Op != fsnotify.Write:
				moved = time.Now()
			case time.Since(moved) > busy:
				events = nil // held (see coalesce)
				hold.Reset(coalesce)
			}
		case <-hold.C:
			events = notified
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			w.poll(true) // events were dropped (the queue overflowed): look at everything
		case <-tick.C:
			w.poll(false)
		}
	}
}

// event handles one notification: the member it concerns is nudged, its source (if it
// is open) looking first at what changed, as Open's notifier has it look.
func (w *manyWatcher) event(ev fsnotify.Event) {
	h := w.m.names.notify(ev)
	for _, mb := range h.found {
		w.m.nudge(mb)
	}
	switch h.kind {
	case hitName:
		if h.src != nil && ev.Op != fsnotify.Write {
			h.src.look()
		}
		w.m.nudge(h.mb)
	case hitBeside:
		switch {
		case h.src == nil:
			if ev.Op&fsnotify.Create != 0 {
				w.m.nudge(h.mb) // a parked member's file may have been rotated there
			}
		case ev.Op&fsnotify.Create != 0 && h.src.arrived(ev.Name), h.src.detached():
			w.m.nudge(h.mb)
		}
	}
}

// poll is the look every Poll (and, all at once, after notifications were dropped): the
// directories, the names of the members open, and the sweep of the others.
func (w *manyWatcher) poll(all bool) {
	for _, mb := range w.m.names.poll() {
		w.m.nudge(mb)
	}
	for mb, src := range w.m.names.opened() {
		if src.look() || src.detached() {
			w.m.nudge(mb)
		}
	}
	k := sweepPerPoll
	if all {
		k = 0
	}
	for _, mb := range w.m.names.sweep(k) {
		s := mb.shared.stamp.Load()
		if s == nil {
			continue // open, or not opened yet: looked at otherwise
		}
		fi, err := os.Stat(mb.name)
		if err != nil {
			fi = nil
		}
		// A name still missing is nudged too: its member is forgotten once no file is
		// left beside the name that its checkpoint could be in.
		if s.differs(fi) || fi == nil {
			w.m.nudge(mb)
		}
	}
}
