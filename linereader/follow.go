package linereader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultPoll is how often a follower looks at the file when FollowOptions.Poll is 0;
// MinPoll is the shortest period it takes (a shorter one would keep a core busy looking).
const (
	DefaultPoll = 250 * time.Millisecond
	MinPoll     = time.Millisecond
)

// FollowOptions says where Follow begins and how it watches the file.
type FollowOptions struct {
	// Start is where to begin in the file as it is now: an offset, the end of the last
	// record handled (a checkpoint: see EndOffset), or -1 for the current end, which is
	// the end of the last complete record, so that a record being written when Follow is
	// called is yielded whole once it ends. A Start past the end of the file means the
	// file was truncated or replaced since the checkpoint: reading begins at 0.
	Start int64

	// Poll is how often to look for growth, rotation and truncation when no
	// notification comes; 0 means DefaultPoll, and less than MinPoll means MinPoll.
	// Notifications wake the reader at once where the platform has them; the look every
	// Poll is the safety net for the file systems that send none (network file systems,
	// notification limits reached).
	Poll time.Duration

	// Idle, if set, is called each time the reader has read all there is and is about
	// to wait for the file to change, on the goroutine that iterates (within Next or the
	// iterator's step). A program that buffers its output flushes it there, so that each
	// record is written as soon as it is complete without a write per record.
	Idle func()

	// PollOnly makes the reader look only every Poll, without file-system
	// notifications: for file systems whose notifications cannot be trusted, and for a
	// writer that must not pay for them (while a watch is set, the kernel queues an event
	// for every write(2), which slows a writer of one write per record by about half).
	PollOnly bool
}

// Follow opens the named file and returns a Reader that does not end at the end of the
// data: like `tail -F`, it waits for the file to grow, and when the name is given to a
// new file (the file renamed away and created anew, as log rotation does, or deleted and
// created again) it reads the old file to its end and then goes on with the new one from
// its start; when the file is truncated in place (copytruncate), it goes on from the
// file's new start. While following, only complete records are yielded: bytes after the
// last separator are held until their separator arrives, or, for a file that has been
// rotated away, yielded as its last record. Iteration ends when ctx is done (Err then
// reports nil: the stop was asked for), on Close, which may be called from any goroutine,
// or on an error: a name that became a directory, a new file that cannot be opened.
// Offset counts from the start of the file being read now; LineNo counts across files.
//
// What is never lost, and what can be, is said in the project's docs/follow.md. In
// short: every byte written to a file while it is at the name, and to a rotated file
// until something is written to its successor, is read; bytes written to a rotated file
// after that, or between the copy and the truncation of copytruncate, can be lost.
//
// The reader waits on file-system notifications where the platform has them (one
// goroutine watches the file's directory; the notification library runs one of its
// own; not with PollOnly) and looks at the file every Poll in any case. Close releases the files, the
// goroutines and the notifications; so does ctx being done. A Reader from Follow must
// be closed (or its ctx ended) even after its loop ended; Reset stops it too, and then
// reads the new source as New would.
//
// Options that cannot be followed are invalid (the error wraps ErrInvalidOptions):
// Decompress (a compressed stream is not read as it grows) and Whole without a Limit
// (its one record would never end). With Whole and a Limit, records are Limit-sized
// pieces. Options.MaxRecord bounds a record that never ends; without it a record held
// while it is written is, as any record, bounded only by memory. Records from Pieces,
// and the pieces of Runs, are pieces of a record longer than the buffer, given out as
// they arrive; every other iterator, and Next, yields whole records only.
func Follow(ctx context.Context, name string, opt Options, fo FollowOptions) (*Reader, error) {
	if err := validateFollow(opt, fo); err != nil {
		return nil, err
	}
	f, id, err := openFollowed(name)
	if err != nil {
		return nil, err
	}
	start, err := startOffset(f, id.Size(), newConfig(opt), fo.Start)
	if err == nil {
		_, err = f.Seek(start, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	s := newFollower(name, followed{f, id}, start, fo)
	s.recall()
	s.startWatching(ctx, !fo.PollOnly)
	// Offsets count from the start of the file, not from Start.
	return NewAt(s, start, opt), nil
}

// validateFollow reports options that Follow cannot use, wrapping ErrInvalidOptions.
func validateFollow(opt Options, fo FollowOptions) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	var faults []string
	if opt.Decompress {
		faults = append(faults, "Decompress cannot be followed (a compressed stream is not read as it grows)")
	}
	if opt.Whole && opt.Limit == 0 {
		faults = append(faults, "Whole without Limit cannot be followed (its one record would never end)")
	}
	if fo.Start < -1 {
		faults = append(faults, fmt.Sprintf("Start %d is negative (-1 means the current end)", fo.Start))
	}
	if fo.Poll < 0 {
		faults = append(faults, fmt.Sprintf("Poll %v is negative", fo.Poll))
	}
	if len(faults) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalidOptions, strings.Join(faults, "; "))
}

// errNotRegular is the reason given for a name that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// openFollowed opens the named file for following: a regular file, shared so that it can
// be renamed or deleted while it is open. A FIFO or a device is refused before it is
// opened (opening a FIFO would wait for a writer).
func openFollowed(name string) (*os.File, os.FileInfo, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if err := followable(name, fi); err != nil {
		return nil, nil, err
	}
	f, err := openShared(name)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = followable(name, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
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

// startOffset returns where to begin reading f, of size bytes, for FollowOptions.Start.
func startOffset(f io.ReaderAt, size int64, cfg config, start int64) (int64, error) {
	switch {
	case start == -1:
		return LastBoundary(f, size, cfg.opt)
	case start > size:
		return 0, nil // truncated or replaced since the checkpoint
	}
	return start, nil
}

// followed is a file that has had the followed name, with its identity as it was when
// opened (os.SameFile compares it).
type followed struct {
	f  *os.File
	id os.FileInfo
}

// follower is Follow's source: an io.Reader over the files that have the name one after
// the other, whose Read waits at the end of the data instead of returning io.EOF. It ends
// one file's data with io.EOF only when the engine is to move on (NextInput): to the
// next file, once the current one is read to its end and its successor has data, or to
// the start of the current one, once it has been truncated below what was read (or
// written over since: see rewritten).
//
// Two goroutines use it: the loop's, in Read and NextInput, and the watcher, which
// looks at the name when notifications or the poll timer say it may have changed, opens
// each new file found there at once (so that a file rotated away before the loop reaches
// it is still read) and wakes a waiting Read. stop, from any goroutine, ends both.
type follower struct {
	name string // the followed name, as given
	base string // its last element, which the directory's events are matched against
	poll time.Duration
	idle func() // FollowOptions.Idle

	wake        chan struct{} // capacity 1: the files may have changed; sent to without blocking
	done        chan struct{} // closed by stop: a waiting Read returns ErrStop
	watcherDone chan struct{} // closed when the watcher goroutine has returned
	stopOnce    sync.Once
	w           *fsnotify.Watcher // nil: no notifications, the poll timer alone
	detached    atomic.Bool       // the name does not name cur: every event in the directory wakes Read

	mu sync.Mutex
	// Guarded by mu. Invariants:
	//   - cur is the file being read and pos the offset in it of the next byte Read
	//     delivers; cur.f is nil once stopped.
	//   - next holds the files that had the name after cur, oldest first, each read from
	//     its start once the file before it is read to its end; none is cur, and all
	//     but the last are no longer at the name.
	//   - seen is what the name named at the last look (nil: nothing), for the poll to
	//     tell a change; detached is set when seen is not cur.
	//   - rotated or rewind is set while Read has ended cur's data with io.EOF for
	//     NextInput to move on: to next[0], or to cur's new start after a truncation.
	//   - err is the first failure the watcher found (the name became a directory, a new
	//     file cannot be opened), reported by Read once the files already open are read.
	//   - last[:lastN] are the bytes of cur just before pos, as read (lastN < len(last)
	//     only near cur's start), for rewritten; atEnd says the last read of cur came
	//     short, at the end of its data.
	cur     followed
	pos     int64
	last    [tailLen]byte
	lastN   int
	atEnd   bool
	next    []followed
	seen    os.FileInfo
	rotated bool
	rewind  bool
	err     error
	stopped bool
	unhook  func() bool // stops the call of stop when ctx is done (context.AfterFunc)
}

func newFollower(name string, cur followed, pos int64, fo FollowOptions) *follower {
	poll := fo.Poll
	if poll == 0 {
		poll = DefaultPoll
	}
	poll = max(poll, MinPoll)
	return &follower{
		name:        name,
		base:        filepath.Base(name),
		poll:        poll,
		idle:        fo.Idle,
		wake:        make(chan struct{}, 1),
		done:        make(chan struct{}),
		watcherDone: make(chan struct{}),
		cur:         cur,
		pos:         pos,
		seen:        cur.id,
	}
}

// startWatching starts the watcher goroutine, with notifications on the name's directory
// when notify is set and the platform gives them (without, the poll timer alone wakes
// Read), and has ctx being done stop the follower.
func (s *follower) startWatching(ctx context.Context, notify bool) {
	if notify {
		if w, err := fsnotify.NewWatcher(); err == nil {
			// A watch on the directory sees the name replaced, not only the file
			// written; the limits on watches are one reason it may fail.
			if err := w.Add(filepath.Dir(s.name)); err == nil {
				s.w = w
			} else {
				w.Close()
			}
		}
	}
	go s.watch()
	s.mu.Lock()
	s.unhook = context.AfterFunc(ctx, func() { s.Stop() })
	s.mu.Unlock()
	if ctx.Err() != nil {
		s.Stop() // at once: AfterFunc's call may come after the first Read
	}
}

// Read reads from the current file; at the end of its data it waits for the file to
// change, calling Idle first, unless the engine is to move on (see follower).
func (s *follower) Read(p []byte) (int, error) {
	for {
		n, err, wait := s.read(p)
		if !wait {
			return n, err
		}
		if s.idle != nil {
			s.idle()
		}
		select {
		case <-s.wake:
		case <-s.done:
		}
	}
}

// read is one attempt of Read: wait is set when there is nothing to return yet.
func (s *follower) read(p []byte) (n int, err error, wait bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return 0, ErrStop, false
	}
	// At the end of the data, where the writer writes, a truncation may have been
	// followed by writes past pos before this read.
	if s.atEnd && s.rewritten() {
		s.rewind = true
		return 0, io.EOF, false
	}
	// A successor with data means the writer has moved on; seen before cur's read, not
	// after, so that whatever the writer wrote to cur before that is in this read.
	moveOn := s.successorWritten()
	n, err = s.cur.f.Read(p)
	s.pos += int64(n)
	s.atEnd = n < len(p)
	switch {
	case n > 0:
		s.remember(p[:n])
		return n, nil, false
	case err != nil && err != io.EOF:
		return 0, err, false
	case moveOn:
		s.rotated = true
		return 0, io.EOF, false
	case s.truncated():
		s.rewind = true
		return 0, io.EOF, false
	case s.err != nil:
		return 0, s.err, false
	}
	return 0, nil, true
}

// successorWritten reports whether a file that had the name after cur has data.
func (s *follower) successorWritten() bool {
	for _, n := range s.next {
		if fi, err := n.f.Stat(); err == nil && fi.Size() > 0 {
			return true
		}
	}
	return false
}

// truncated reports whether cur is now shorter than what was read of it.
func (s *follower) truncated() bool {
	fi, err := s.cur.f.Stat()
	return err == nil && fi.Size() < s.pos
}

// tailLen is how many of the bytes last read rewritten compares.
const tailLen = 256

// rewritten reports whether the bytes of cur just before pos are no longer those that
// were read there: cur was truncated and written again past pos since the last read, a
// truncation that its size does not show. (Written again with the very same bytes
// there, it cannot be told from a file that grew.)
func (s *follower) rewritten() bool {
	k := s.lastN
	if k == 0 {
		return false
	}
	var b [tailLen]byte
	n, _ := s.cur.f.ReadAt(b[:k], s.pos-int64(k))
	return n < k || !bytes.Equal(b[:k], s.last[:k])
}

// remember keeps the last bytes read, b, for rewritten.
func (s *follower) remember(b []byte) {
	if len(b) >= tailLen {
		s.lastN = copy(s.last[:], b[len(b)-tailLen:])
		return
	}
	keep := min(s.lastN, tailLen-len(b))
	copy(s.last[:], s.last[s.lastN-keep:s.lastN])
	s.lastN = keep + copy(s.last[keep:], b)
}

// recall reads the bytes of cur before pos into last, for a Start after the file's
// start, which may be its end: the first read checks them.
func (s *follower) recall() {
	k := min(s.pos, tailLen)
	n, _ := s.cur.f.ReadAt(s.last[:k], s.pos-k)
	s.lastN, s.atEnd = n, true
}

// NextInput moves on after Read ended cur's data with io.EOF: to the next file, or to
// the start of the truncated one. The engine calls it once every byte read is yielded.
func (s *follower) NextInput() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stopped:
		return false
	case s.rewind:
		s.rewind = false
		if _, err := s.cur.f.Seek(0, io.SeekStart); err != nil && s.err == nil {
			s.err = err
		}
	case s.rotated:
		s.rotated = false
		s.cur.f.Close()
		s.cur, s.next = s.next[0], s.next[1:]
		s.setDetached()
	default:
		return false
	}
	s.pos, s.lastN = 0, 0
	return true
}

// stop ends the follower: a waiting Read returns ErrStop, the watcher goroutine and
// the notifications end, the files are closed. It may be called from any goroutine, any
// number of times; it returns once everything is released.
func (s *follower) Stop() error {
	s.stopOnce.Do(func() {
		close(s.done)
		<-s.watcherDone
		if s.w != nil {
			s.w.Close()
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.unhook != nil {
			s.unhook()
		}
		s.stopped = true
		s.cur.f.Close()
		for _, n := range s.next {
			n.f.Close()
		}
		s.cur, s.next = followed{}, nil
	})
	return nil
}

// coalesce is how long the watcher leaves the notifications unread after a write. A
// writer making many small writes then makes one notification per coalesce period
// instead of one per write: the system merges the identical notifications waiting to be
// read, so the writer's writes and the reader's wake-ups stay few, for a latency of
// at most this much more. (Creations, renames and removals are not held after.)
const coalesce = time.Millisecond

// watch is the watcher goroutine: it wakes Read on the events that concern the followed
// files, and looks at the name on the events that may have changed it, on an overflow of
// the notification queue, and every poll period.
func (s *follower) watch() {
	defer close(s.watcherDone)
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	hold := time.NewTimer(coalesce)
	defer hold.Stop()
	var events, notified <-chan fsnotify.Event // notified: the events, when not held
	var errs <-chan error
	if s.w != nil {
		events, notified, errs = s.w.Events, s.w.Events, s.w.Errors
	}
	for {
		select {
		case <-s.done:
			return
		case ev, ok := <-events:
			if !ok {
				events, notified = nil, nil
				continue
			}
			s.event(ev)
			if ev.Op == fsnotify.Write {
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
			s.look()
			s.signal()
		case <-tick.C:
			// While detached, the old file may be written under a name not watched.
			if s.look() || s.detached.Load() {
				s.signal()
			}
		}
	}
}

// event handles one notification from the directory.
func (s *follower) event(ev fsnotify.Event) {
	ours := filepath.Base(ev.Name) == s.base
	switch {
	case ours && ev.Op == fsnotify.Write:
		s.signal() // the file at the name grew or was truncated: nothing to look up
	case ours:
		s.look() // created, removed, renamed, or its links or mode changed
		s.signal()
	case s.detached.Load():
		// cur was rotated away and may be written under its new name.
		s.signal()
	}
}

// signal wakes Read, or makes its next wait return at once.
func (s *follower) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// look stats the name and notes what it names now: a file not known yet is opened and
// queued after the files known; a missing name is waited for; a directory, or a file
// that cannot be opened, is an error. It reports whether the name changed since the
// last look (another file, or the same one with another size or time).
func (s *follower) look() bool {
	fi, err := os.Stat(s.name)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return false
	}
	if errors.Is(err, fs.ErrNotExist) {
		changed := s.seen != nil
		s.seen = nil
		s.setDetached()
		return changed
	}
	if err != nil {
		s.fail(err)
		return true
	}
	last := s.seen
	changed := last == nil || !os.SameFile(fi, last) || fi.Size() != last.Size() || !fi.ModTime().Equal(last.ModTime())
	s.seen = fi
	if !s.known(fi) {
		s.adopt(fi)
	}
	s.setDetached()
	return changed
}

// known reports whether fi is cur or a file queued after it.
func (s *follower) known(fi os.FileInfo) bool {
	if os.SameFile(fi, s.cur.id) {
		return true
	}
	for _, n := range s.next {
		if os.SameFile(fi, n.id) {
			return true
		}
	}
	return false
}

// adopt opens the new file fi found at the name and queues it. Queued files that are
// still empty are dropped first: they were rotated away before anything was written to
// them, and the writer's file is the new one.
func (s *follower) adopt(fi os.FileInfo) {
	if err := followable(s.name, fi); err != nil {
		s.fail(err)
		return
	}
	f, err := openShared(s.name)
	if errors.Is(err, fs.ErrNotExist) {
		return // gone again: the next look sees what is there then
	}
	if err != nil {
		s.fail(err)
		return
	}
	id, err := f.Stat()
	if err == nil && s.known(id) {
		f.Close() // the name changed back between the stat and the open
		return
	}
	if err == nil {
		err = followable(s.name, id)
	}
	if err != nil {
		f.Close()
		s.fail(err)
		return
	}
	kept := s.next[:0]
	for _, n := range s.next {
		if st, err := n.f.Stat(); err == nil && st.Size() == 0 {
			n.f.Close()
			continue
		}
		kept = append(kept, n)
	}
	s.next = append(kept, followed{f, id})
}

// fail keeps the first failure, for Read to report.
func (s *follower) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// setDetached notes whether the name names cur (called with mu held).
func (s *follower) setDetached() {
	s.detached.Store(s.seen == nil || !os.SameFile(s.seen, s.cur.id))
}
