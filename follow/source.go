package follow

import (
	"bytes"
	"context"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// source is a follow Reader's source (the inputs of linereader.NewInputs): an io.Reader
// over the files that have the name one after the other, whose Read waits at the end of
// the data instead of returning io.EOF. It ends a file's data with io.EOF only when the
// engine is to move on (nextInput): to the next file, once the current one is read to
// its end and a later one has data; to an older file found late; or to the start of the
// current one, once it has been truncated below what was read (or written over since:
// see tailBytes.rewritten) and no copy of what it held is found.
//
// The reading (rd) belongs to the goroutine that iterates: Read, nextInput and
// Checkpoint run there, and hold no lock while they read. The discovery (d) is shared
// with the watcher's goroutine, behind its own lock. Close, from any goroutine, stops
// both and closes every file at once (handles).
type source struct {
	rd      reading
	d       *discovery
	h       *handles
	opt     linereader.Options // where a record ends, for leaving a file at a record boundary
	idle    func()             // Options.Idle
	moved   func()             // Options.Moved
	sig     signals
	w       watcher       // nil until started
	stopped atomic.Bool   // Stop was called: every Read returns ErrStop
	once    sync.Once     // Stop's work, done once
	unset   func() bool   // stops ctx's call of Stop (context.AfterFunc); set before Open returns
	shown   atomic.Uint64 // publishes done, for tests (see export_test.go)
	// nowait: a Many's source. Where Read would wait it returns ErrStop instead (or
	// ErrFlush, when a flush is due: see wait), the engine ending after the complete
	// records read; the Many sets the reading back to the end of the last record yielded
	// (backTo) and reads on when the files change.
	nowait bool
}

// signals are how the goroutines wake each other.
type signals struct {
	wake chan struct{} // capacity 1: the files may have changed; sent to without blocking
	done chan struct{} // closed by Stop: a waiting Read returns ErrStop
}

// move is what nextInput is to do once Read has ended the current file's data with
// io.EOF: it is the reading's one state besides reading on.
type move uint8

const (
	moveNone   move = iota // reading on: Read has not ended the file's data
	moveNext               // the file is read to its end and a later one has data: the next file
	moveRewind             // the file was truncated in place and no copy of it is found: its new start
	moveLeave              // an older file was found late: it first, the file left where its records end
)

// reading is the file being read. Invariants (kept by the goroutine that iterates):
//   - cur is the file whose bytes Read delivers, pos the offset in it of the next one
//     (for a sealed file, in its decompressed bytes);
//   - tail holds cur's bytes just before pos, as read; atEnd says the last read of cur
//     came short, at the end of its data; last is when it was read;
//   - since is when the reading of cur's content began (when it was opened, popped or
//     rewound): a copy of that content is made after it;
//   - move is moveNone but between a Read that ended cur's data and nextInput;
//   - begun says the engine has taken its first input, which begins at start; moved
//     says cur changed since Options.Moved was last called.
type reading struct {
	cur    *file
	pos    int64
	tail   tailBytes
	atEnd  bool
	last   time.Time
	since  time.Time
	move   move
	begun  bool
	start  int64
	moved  bool
	shared int64 // pos when what is read was last published
	end    int64 // pos when a read of cur last came short, at the end of its data; -1: none yet
	back   int64 // where the next Read sets cur's position back to (see backTo); -1: nowhere
	quiet  quiet // how long cur has had nothing new, for Options.Flush (flush.go)
}

// gap is how long a pause between two reads of a file (a wait, or a process stopped with
// SIGSTOP or left without a core) makes the next one list the files beside the name and
// check the bytes before pos first: files may have been rotated, or the file truncated
// and written again past pos, meanwhile.
const gap = 20 * time.Millisecond

func newSource(d *discovery, h *handles, cur *file, pos int64, opt linereader.Options, fo Options) *source {
	s := &source{
		d: d, h: h, opt: opt, idle: fo.Idle, moved: fo.Moved,
		sig: signals{wake: make(chan struct{}, 1), done: make(chan struct{})},
		rd:  reading{cur: cur, pos: pos, start: pos, since: time.Now(), last: time.Now(), end: -1, back: -1},
	}
	s.rd.quiet = newQuiet(opt, fo, pos)
	if !cur.sealed {
		s.rd.tail.recall(cur.f, pos)
		s.rd.atEnd = true
	}
	s.publish()
	return s
}

// start starts the watcher and has ctx being done stop the source.
func (s *source) start(ctx context.Context, name string, fo Options) {
	s.w = newWatcher(name, pollPeriod(fo.Poll), !fo.PollOnly, s)
	s.unset = context.AfterFunc(ctx, s.Stop)
	if ctx.Err() != nil {
		s.Stop() // at once: AfterFunc's call may come after the first Read
	}
}

// Read reads from the current file; at the end of its data it waits for the files to
// change, calling Idle first, unless the engine is to move on (see source) or a record
// of many lines is to be flushed (see wait).
func (s *source) Read(p []byte) (int, error) {
	for {
		if s.stopped.Load() {
			return 0, linereader.ErrStop
		}
		if s.rd.back >= 0 {
			s.rd.cur.f.Seek(s.rd.back, io.SeekStart) // see backTo
			s.rd.back = -1
		}
		if s.rd.moved {
			s.rd.moved = false
			if s.moved != nil {
				s.moved()
			}
			continue // Moved may have closed the Reader
		}
		n, err, wait := s.read(p)
		if err != nil && err != io.EOF && s.stopped.Load() {
			return 0, linereader.ErrStop // Close closed the file under the read
		}
		if !wait {
			return n, err
		}
		if s.rd.moved {
			continue // a copy taken over: read it at once
		}
		if err := s.wait(); err != nil {
			return 0, err
		}
	}
}

// read is one attempt of Read: wait is set when there is nothing to return yet.
func (s *source) read(p []byte) (n int, err error, wait bool) {
	rd := &s.rd
	if rd.move != moveNone {
		return 0, io.EOF, false
	}
	// After a pause (a wait, or the process stopped or left without a core), the files
	// rotated meanwhile are listed first: older ones come before what cur holds now.
	paused := time.Since(rd.last) > gap
	if paused {
		s.d.lookAll()
	}
	// At the end of the data, where the writer writes, or after a pause, a truncation
	// may have been followed by writes past pos.
	if !rd.cur.sealed && (rd.atEnd || paused) && rd.rewritten() {
		return s.truncated()
	}
	if paused && s.olderFirst() {
		rd.move = moveLeave
		return 0, io.EOF, false
	}
	n, err = rd.readCur(p)
	var newer, older bool
	if n == 0 && (err == nil || err == io.EOF || rd.cur.sealed) {
		// At the end of cur's data: a later file with data means the writer has moved
		// on. The queue is looked at before one more read of cur, not after, so that
		// whatever the writer wrote to cur before moving on is in that read.
		rd.cur.restat()
		newer, older = s.d.pending(rd.cur, rd.cur.mod, rd.cur.empty && rd.pos == 0)
		n, err = rd.readCur(p)
	}
	switch {
	case n > 0:
		s.advance(p[:n])
		return n, nil, false
	case err != nil && err != io.EOF && !rd.cur.sealed:
		return 0, err, false
	case newer || rd.cur.sealed && s.d.next():
		// A sealed file's read error is its end: a damaged compressed file is read up
		// to the damage.
		s.d.refresh()
		rd.move = moveNext
		return 0, io.EOF, false
	case older && s.atBoundary():
		// An older file was found late: its records come before those cur is still
		// given. cur is left where its records end, and read on from there after it
		// (cur may still be written: a file left for good and seen again at the name
		// would be read again from its start).
		rd.move = moveLeave
		return 0, io.EOF, false
	case !rd.cur.sealed && rd.truncated():
		return s.truncated()
	}
	if err := s.d.failure(); err != nil {
		return 0, err, false
	}
	return 0, nil, true
}

// olderFirst reports whether cur is to be left where its records end for an older file
// queued (see moveLeave), before reading on.
func (s *source) olderFirst() bool {
	rd := &s.rd
	rd.cur.restat()
	_, older := s.d.pending(rd.cur, rd.cur.mod, rd.cur.empty && rd.pos == 0)
	return older && s.atBoundary()
}

// readCur reads from cur at pos.
func (rd *reading) readCur(p []byte) (int, error) {
	n, err := rd.cur.r.Read(p)
	rd.pos += int64(n)
	rd.quiet.read(rd.pos)
	rd.atEnd = n < len(p)
	if rd.atEnd {
		rd.end = rd.pos
	}
	rd.last = time.Now()
	return n, err
}

// advance notes the bytes b just read.
func (s *source) advance(b []byte) {
	rd := &s.rd
	rd.tail.remember(b)
	grew := len(rd.cur.head) < headLen
	if grew {
		rd.cur.readHead()
	}
	// What is read is published at the end of the data, and every MiB on the way: the
	// discovery compares the files it finds with it (a copy of this one is not read).
	if rd.atEnd || grew || rd.pos-rd.shared >= 1<<20 {
		s.publish()
	}
}

// publish tells the discovery what the reading reads.
func (s *source) publish() {
	rd := &s.rd
	rd.shared = rd.pos
	var read content
	if !rd.cur.sealed {
		read = rd.content()
	}
	s.d.publish(rd.cur, read)
	s.shown.Add(1)
}

// content is what has been read of cur: its head and the bytes before pos, as read.
func (rd *reading) content() content {
	head := rd.cur.head
	if int64(len(head)) > rd.pos {
		head = head[:rd.pos:rd.pos]
	}
	return content{head: head, tail: rd.tail.bytes(), p: rd.pos}
}

// truncated handles a truncation of cur found at pos: reading goes on from pos in a copy
// of what cur held made since (copytruncate's: the bytes not read yet when the
// truncation came are there), with the file itself queued again to be read from its new
// start after it; or, without a copy, cur's data ends (its bytes after the last
// separator its last record) and nextInput rewinds it.
func (s *source) truncated() (int, error, bool) {
	rd := &s.rd
	// What cur held is what was read, and its first bytes as known (read ahead of pos:
	// a file truncated before much of it was read holds them in its copy too).
	gen := rd.content()
	gen.head = rd.cur.head
	if c := s.d.rewind(rd.cur, gen, rd.since); c != nil {
		// Read on in the copy at once: this is no pause (the files beside the name were
		// just listed), and the file at the name, queued again, comes after it.
		rd.cur, rd.atEnd, rd.moved, rd.last = c, false, true, time.Now()
		s.publish()
		return 0, nil, true // Read calls Moved, then reads the copy
	}
	rd.move = moveRewind
	return 0, io.EOF, false
}

// truncated reports whether cur is now shorter than what was read of it, or than its
// first bytes as known.
func (rd *reading) truncated() bool {
	size := rd.cur.size()
	return size >= 0 && size < max(rd.pos, int64(len(rd.cur.head)))
}

// rewritten reports whether cur was truncated and written again past what was read of
// it (see tailBytes.rewritten), or past its first bytes as known: a truncation that its
// size does not show, also before anything of it was read.
func (rd *reading) rewritten() bool {
	if rd.tail.rewritten(rd.cur.f, rd.pos) {
		return true
	}
	head := rd.cur.head
	if len(head) == 0 {
		return false
	}
	got := make([]byte, len(head))
	n, _ := rd.cur.f.ReadAt(got, 0)
	return n < len(head) || !bytes.Equal(got, head)
}

// nextInput moves on after Read ended cur's data with io.EOF: to the next file, to an
// older one found late, or to the start of the truncated one. The engine calls it once
// every byte read is yielded.
func (s *source) nextInput() bool {
	rd := &s.rd
	switch rd.move {
	case moveRewind:
		rd.cur.head, rd.cur.at, rd.cur.tail = nil, 0, tailBytes{}
	case moveNext:
		s.d.done(rd.cur)
		rd.cur = s.d.pop()
	case moveLeave:
		rd.cur.at, rd.cur.tail = rd.pos, rd.tail
		s.d.requeue(rd.cur)
		rd.cur = s.d.pop()
	default:
		return false
	}
	rd.move = moveNone
	if s.stopped.Load() || rd.cur == nil {
		return false
	}
	s.begin()
	return true
}

// begin sets the reading at cur's at, where it was left (or its start): a file left
// before its end is read on from there, its last bytes checked first (it may have been
// truncated and written again while it waited).
func (s *source) begin() {
	rd := &s.rd
	cur := rd.cur
	if !cur.sealed {
		if _, err := cur.f.Seek(cur.at, io.SeekStart); err != nil {
			cur.at = 0
		}
		if cur.at == 0 {
			cur.head = nil // read from its start: whatever it began with before (truncated since) is not its content
		}
		cur.readHead()
	}
	rd.pos, rd.tail, rd.atEnd, rd.end, rd.back = cur.at, cur.tail, cur.at > 0, -1, -1
	cur.at, cur.tail = 0, tailBytes{}
	rd.since, rd.last, rd.moved = time.Now(), time.Now(), true
	rd.quiet.restart(rd.pos)
	s.publish()
}

// backTo sets the reading of cur back to off, just past the last record yielded: a
// Many's engine, stopped where the source would wait (see nowait), dropped the bytes
// read after it, the start of a record not complete yet, and reads them again next time.
// The bytes before off are taken now, as they were read (a truncation while the Many
// waits is found against them); the file itself is set back at the next Read, so that
// while the Many waits its position is where reading stopped. A compressed file is
// decompressed again up to off.
func (s *source) backTo(off int64) {
	rd := &s.rd
	if rd.pos == off || rd.cur == nil {
		return
	}
	cur := rd.cur
	if cur.sealed {
		cur.dec.Close()
		if _, err := cur.f.Seek(0, io.SeekStart); err == nil {
			cur.seal()
			io.CopyN(io.Discard, cur.r, off)
		}
	} else {
		rd.tail = tailBytes{}
		rd.tail.recall(cur.f, off)
		rd.back = off
	}
	rd.pos, rd.atEnd = off, false
	s.publish()
}

// inputs returns the function that gives the engine its inputs (linereader.NewInputs):
// the source from start first, then, each time the engine has read one to its end, the
// source again from where nextInput moved it, until nextInput reports false.
func (s *source) inputs() func() (linereader.Input, bool) {
	return func() (linereader.Input, bool) {
		if !s.rd.begun {
			s.rd.begun = true
			return linereader.Input{R: s, Start: s.rd.start}, true
		}
		if !s.nextInput() {
			return linereader.Input{}, false
		}
		return linereader.Input{R: s, Start: s.rd.pos}, true
	}
}

// atBoundary reports whether cur's bytes read end with a complete record: only there
// can cur be left and read on from later, for the engine yields the bytes before an
// input's end as its last record.
func (s *source) atBoundary() bool {
	rd := &s.rd
	if rd.cur.sealed {
		return false
	}
	b, err := linereader.LastBoundary(rd.cur.f, rd.pos, s.opt)
	return err == nil && b == rd.pos
}

// Stop ends the source: a waiting Read returns ErrStop, the watcher's goroutine and the
// notifications end. It may be called from any goroutine, any number of times; it
// returns once the watcher has stopped. The files stay open until close, so that a
// Checkpoint taken after the loop ended can still read them.
func (s *source) Stop() {
	s.once.Do(func() {
		s.stopped.Store(true)
		close(s.sig.done)
		if s.w != nil {
			s.w.stop()
		}
	})
}

// close stops the source and closes every file it holds, from any goroutine: a read in
// progress fails, and Read reports ErrStop.
func (s *source) close() {
	if s.unset != nil {
		s.unset()
	}
	s.Stop()
	s.h.closeAll()
	s.d.close()
}

// gone reports whether nothing is left to read: the name names no file, the file being
// read is deleted (not renamed: a writer may still write to it under its new name), and
// no file is queued. A Many forgets such a name.
func (s *source) gone() bool {
	if s.rd.cur == nil {
		return true
	}
	d := s.d
	d.mu.Lock()
	missing := d.seen == nil && len(d.queue) == 0
	d.mu.Unlock()
	if !missing {
		return false
	}
	fi, err := s.rd.cur.f.Stat()
	return err == nil && !linked(fi)
}

// caughtUp reports whether the reading has nothing left to read: nothing is queued, and
// fi, the name's file now, is the file being read, at the size it had when it was last
// read to its end.
func (s *source) caughtUp(fi os.FileInfo) bool {
	rd := &s.rd
	if rd.cur == nil || rd.cur.sealed || s.d.next() {
		return false
	}
	now, err := rd.cur.f.Stat()
	return err == nil && os.SameFile(fi, now) && fi.Size() == now.Size() && fi.Size() == rd.end
}

// The watcher's side (see target).

func (s *source) look() bool {
	if s.stopped.Load() {
		return false
	}
	return s.d.look()
}

func (s *source) arrived(path string) bool {
	return !s.stopped.Load() && s.d.consider(path)
}

func (s *source) detached() bool { return s.d.detached.Load() }

// signal wakes Read, or makes its next wait return at once.
func (s *source) signal() {
	select {
	case s.sig.wake <- struct{}{}:
	default:
	}
}

// tailLen is how many of the bytes last read tailBytes keeps.
const tailLen = 256

// tailBytes are the bytes of a file just before a position, as read: b[:n], n <
// tailLen only near the file's start.
type tailBytes struct {
	b [tailLen]byte
	n int
}

// bytes returns a copy of the bytes kept.
func (t *tailBytes) bytes() []byte { return append([]byte(nil), t.b[:t.n]...) }

// rewritten reports whether the bytes of f just before pos are no longer those that
// were read there: f was truncated and written again past pos since the last read, a
// truncation that its size does not show. (Written again with the very same bytes
// there, it cannot be told from a file that grew.)
func (t *tailBytes) rewritten(f io.ReaderAt, pos int64) bool {
	k := t.n
	if k == 0 {
		return false
	}
	var b [tailLen]byte
	n, _ := f.ReadAt(b[:k], pos-int64(k))
	return n < k || !bytes.Equal(b[:k], t.b[:k])
}

// remember keeps the last bytes read, b.
func (t *tailBytes) remember(b []byte) {
	if len(b) >= tailLen {
		t.n = copy(t.b[:], b[len(b)-tailLen:])
		return
	}
	keep := min(t.n, tailLen-len(b))
	copy(t.b[:], t.b[t.n-keep:t.n])
	t.n = keep + copy(t.b[keep:], b)
}

// recall reads the bytes of f before pos, for a start after the file's start, which may
// be its end: the first read checks them.
func (t *tailBytes) recall(f io.ReaderAt, pos int64) {
	k := min(pos, tailLen)
	t.n, _ = f.ReadAt(t.b[:k], pos-k)
}
