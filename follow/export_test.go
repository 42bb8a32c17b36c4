package follow

import (
	"fmt"
	"os"
	"strings"
)

// view is what a test sees of a follower: a snapshot, taken under the discovery's lock,
// of what the discovery knows and of what the reading has published (the reading's own
// state belongs to the goroutine that iterates, and is not looked at).
type view struct {
	read      os.FileInfo   // the reading's file, as published; nil before
	pos       int64         // how far it has read it, as published
	queued    []os.FileInfo // the queue, in order
	seen      os.FileInfo   // what the name named at the last look
	known     int           // files known (not to read)
	rewound   int           // generations of truncated files kept
	open      int           // files held open
	published uint64        // publishes so far
	notifies  bool          // notifications are set (not PollOnly, and the platform has them)
}

// view takes a view of r's follower.
func (r *Reader) view() view { return r.src.view() }

func (s *source) view() view {
	d := s.d
	d.mu.Lock()
	defer d.mu.Unlock()
	v := view{
		read: d.rd.id, pos: d.rd.read.p, seen: d.seen,
		known: len(d.known), rewound: len(d.rewound),
		open: s.h.count(), published: s.shown.Load(), notifies: s.w != nil && s.w.notifies(),
	}
	for _, q := range d.queue {
		v.queued = append(v.queued, q.id)
	}
	return v
}

// reads reports whether the view shows fi read up to off.
func (v view) reads(fi os.FileInfo, off int64) bool {
	return v.read != nil && os.SameFile(v.read, fi) && v.pos >= off
}

// holds reports whether the view shows fi being read or queued.
func (v view) holds(fi os.FileInfo) bool {
	if v.read != nil && os.SameFile(v.read, fi) {
		return true
	}
	for _, q := range v.queued {
		if os.SameFile(q, fi) {
			return true
		}
	}
	return false
}

// wake wakes the follower's loop if it waits, as a change to the file would.
func (r *Reader) wake() { r.src.signal() }

// dump describes every member of m, for a test's failure message (it reads state the
// goroutine that iterates owns: only once a test has failed).
func (m *Many) dump() string {
	var b strings.Builder
	for _, mb := range m.names.members() {
		fmt.Fprintf(&b, "%s: state %d, at %d, lines %d, queued %v, nudged %v, checkpoint at %d\n",
			mb.name, mb.st, mb.pos.at, mb.pos.lines, mb.queued, mb.shared.nudged.Load(), mb.cp.Offset)
	}
	return b.String()
}
