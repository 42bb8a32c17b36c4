package follow

import (
	"bytes"
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/foreachio/foreach/linereader"
)

// source is a follow Reader's source (the inputs of linereader.NewInputs): an io.Reader
// over the files that have the name one after the other, whose Read waits at the end of
// the data instead of returning io.EOF. It ends one file's data with io.EOF only when
// the engine is to move on (NextInput): to the next file of the chain, once
// the current one is read to its end and a later one has data, or to the start of the
// current one, once it has been truncated below what was read (or written over since:
// see tailBytes.rewritten).
//
// Two goroutines use it: the loop's, in Read, NextInput and Checkpoint, and the
// watcher's, in look, signal and detached. Stop, from any goroutine, ends both.
type source struct {
	idle func() // Options.Idle
	// opt are the Reader's options: where a record ends, for leaving a file at a
	// record boundary (see reading.paused).
	opt linereader.Options
	sig signals
	w   watcher // nil until started
	// unhook stops ctx's call of Stop (context.AfterFunc); set once, under mu, before
	// any Read.
	unhook func() bool
	// isDetached: the name does not name the file being read (see chain.detached);
	// read without mu by the watcher on every event.
	isDetached atomic.Bool

	mu      sync.Mutex // guards rd, ch, err and stopped
	rd      reading
	ch      chain
	err     error // the first failure the watcher found, reported once the open files are read
	stopped bool  // Stop was called: every Read returns ErrStop
}

// signals are how the goroutines wake each other.
type signals struct {
	wake chan struct{} // capacity 1: the files may have changed; sent to without blocking
	done chan struct{} // closed by Stop: a waiting Read returns ErrStop
	once sync.Once
}

// reading is the file being read. Invariants (under source.mu):
//   - cur is the file whose bytes Read delivers, pos the offset in it of the next one
//     (for a sealed file, in its decompressed bytes);
//   - tail holds cur's bytes just before pos, as read; atEnd says the last read of cur
//     came short, at the end of its data;
//   - rotated, rewind or paused is set while Read has ended cur's data with io.EOF for
//     NextInput to move on: to the chain's next file, to cur's new start after a
//     truncation, or, paused, to an older file found late, leaving cur at pos, a record
//     boundary, queued to be read on from there. At most one is set.
type reading struct {
	cur     *file
	pos     int64
	tail    tailBytes
	atEnd   bool
	rotated bool
	rewind  bool
	paused  bool
}

func newSource(ch chain, cur *file, pos int64, opt linereader.Options, fo Options) *source {
	s := &source{
		idle: fo.Idle,
		opt:  opt,
		sig:  signals{wake: make(chan struct{}, 1), done: make(chan struct{})},
		ch:   ch,
		rd:   reading{cur: cur, pos: pos},
	}
	if !cur.sealed {
		s.rd.tail.recall(cur.f, pos)
		s.rd.atEnd = true
	}
	s.setDetached()
	return s
}

// start starts the watcher and has ctx being done stop the source.
func (s *source) start(ctx context.Context, name string, fo Options) {
	s.w = newWatcher(name, pollPeriod(fo.Poll), !fo.PollOnly, s)
	unhook := context.AfterFunc(ctx, func() { s.Stop() })
	// Under mu: with ctx already done, AfterFunc's Stop runs at once on a goroutine of
	// its own and reads unhook.
	s.mu.Lock()
	s.unhook = unhook
	s.mu.Unlock()
	if ctx.Err() != nil {
		s.Stop() // at once: AfterFunc's call may come after the first Read
	}
}

// Read reads from the current file; at the end of its data it waits for the files to
// change, calling Idle first, unless the engine is to move on (see source).
func (s *source) Read(p []byte) (int, error) {
	for {
		n, err, wait := s.read(p)
		if !wait {
			return n, err
		}
		if s.idle != nil {
			s.idle()
		}
		select {
		case <-s.sig.wake:
		case <-s.sig.done:
		}
	}
}

// read is one attempt of Read: wait is set when there is nothing to return yet.
func (s *source) read(p []byte) (n int, err error, wait bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return 0, linereader.ErrStop, false
	}
	rd := &s.rd
	// At the end of the data, where the writer writes, a truncation may have been
	// followed by writes past pos before this read.
	if !rd.cur.sealed && rd.atEnd && rd.tail.rewritten(rd.cur.f, rd.pos) {
		rd.rewind = true
		return 0, io.EOF, false
	}
	n, err = rd.readCur(p)
	var moveOn, older bool
	if n == 0 && (err == nil || err == io.EOF) {
		// At the end of cur's data: a later file with data means the writer has moved
		// on. The queue is looked at before one more read of cur, not after, so that
		// whatever the writer wrote to cur before moving on is in that read.
		moveOn, older = s.ch.pending(rd.cur)
		n, err = rd.readCur(p)
	}
	switch {
	case n > 0:
		rd.tail.remember(p[:n])
		if len(rd.cur.head) < headLen {
			rd.cur.readHead()
		}
		return n, nil, false
	case err != nil && err != io.EOF:
		return 0, err, false
	case moveOn || rd.cur.sealed && len(s.ch.next) > 0:
		s.ch.refresh(rd.cur)
		rd.rotated = true
		return 0, io.EOF, false
	case older && s.atBoundary():
		// An older file was found late: its records come before those cur is still
		// given. cur is left where its records end, and read on from there after it
		// (cur may still be written: a file left for good and seen again at the name
		// would be read again from its start).
		rd.paused = true
		return 0, io.EOF, false
	case !rd.cur.sealed && rd.truncated():
		rd.rewind = true
		return 0, io.EOF, false
	case s.err != nil:
		return 0, s.err, false
	}
	return 0, nil, true
}

// readCur reads from cur at pos.
func (rd *reading) readCur(p []byte) (int, error) {
	n, err := rd.cur.r.Read(p)
	rd.pos += int64(n)
	rd.atEnd = n < len(p)
	return n, err
}

// truncated reports whether cur is now shorter than what was read of it.
func (rd *reading) truncated() bool {
	fi, err := rd.cur.f.Stat()
	return err == nil && fi.Size() < rd.pos
}

// NextInput moves on after Read ended cur's data with io.EOF: to the next file, or to
// the start of the truncated one. The engine calls it once every byte read is yielded.
func (s *source) NextInput() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	rd := &s.rd
	switch {
	case s.stopped:
		return false
	case rd.rewind:
		rd.rewind = false
		if _, err := rd.cur.f.Seek(0, io.SeekStart); err != nil && s.err == nil {
			s.err = err
		}
		// What it held before is now only in its copy, if one was made: known so.
		s.ch.rewound = append(s.ch.rewound, rd.cur.head)
		rd.cur.head = nil
		rd.cur.readHead()
	case rd.rotated:
		rd.rotated = false
		s.ch.done(rd.cur)
		rd.cur = s.ch.pop()
		s.setDetached()
	case rd.paused:
		rd.paused = false
		s.ch.requeue(rd.cur, rd.pos, rd.tail)
		rd.cur = s.ch.pop()
		s.setDetached()
	default:
		return false
	}
	// A file left before its end is read on from there, its last bytes checked first
	// (it may have been truncated and written again while it waited).
	rd.pos, rd.tail, rd.atEnd = rd.cur.at, rd.cur.tail, rd.cur.at > 0
	rd.cur.at, rd.cur.tail = 0, tailBytes{}
	return true
}

// inputs returns the function that gives the engine its inputs (linereader.NewInputs):
// the source from start first, then, each time the engine has read one to its end, the
// source again from where NextInput moved it (InputStart), until NextInput reports
// false.
func (s *source) inputs(start int64) func() (linereader.Input, bool) {
	first := true
	return func() (linereader.Input, bool) {
		if first {
			first = false
			return linereader.Input{R: s, Start: start}, true
		}
		if !s.NextInput() {
			return linereader.Input{}, false
		}
		return linereader.Input{R: s, Start: s.InputStart()}, true
	}
}

// InputStart is where the file NextInput moved to is read from: its start, or where it
// was left.
func (s *source) InputStart() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rd.pos
}

// atBoundary reports whether cur's bytes read end with a complete record (called with
// mu held): only there can cur be left and read on from later, for the engine yields the
// bytes before an input's end as its last record.
func (s *source) atBoundary() bool {
	rd := &s.rd
	if rd.cur.sealed {
		return false
	}
	b, err := linereader.LastBoundary(rd.cur.f, rd.pos, s.opt)
	return err == nil && b == rd.pos
}

// Stop ends the source: a waiting Read returns ErrStop, the watcher's goroutine and
// the notifications end. It may be called from any goroutine, any number of times; it
// returns once the watcher has stopped. The files stay open until close, so that a
// Checkpoint taken after the loop ended can still read them.
func (s *source) Stop() error {
	s.sig.once.Do(func() {
		close(s.sig.done)
		if s.w != nil {
			s.w.stop()
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.unhook != nil {
			s.unhook()
		}
		s.stopped = true
	})
	return nil
}

// close stops the source and closes its files.
func (s *source) close() {
	s.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rd.cur != nil {
		s.rd.cur.close()
		s.rd.cur = nil
	}
	s.ch.close()
}

// signal wakes Read, or makes its next wait return at once.
func (s *source) signal() {
	select {
	case s.sig.wake <- struct{}{}:
	default:
	}
}

// look notes what the name names now (see chain.look).
func (s *source) look() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return false
	}
	changed, err := s.ch.look(s.rd.cur)
	if err != nil && s.err == nil {
		s.err = err
	}
	s.setDetached()
	return changed
}

func (s *source) detached() bool { return s.isDetached.Load() }

// arrived queues the file at path if it is one of the chain not known yet (see
// chain.consider).
func (s *source) arrived(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped && s.rd.cur != nil {
		s.ch.consider(s.rd.cur, path)
	}
}

// setDetached notes whether the name names cur (called with mu held).
func (s *source) setDetached() { s.isDetached.Store(s.ch.detached(s.rd.cur)) }

// tailLen is how many of the bytes last read tailBytes keeps.
const tailLen = 256

// tailBytes are the bytes of a file just before a position, as read: b[:n], n <
// tailLen only near the file's start.
type tailBytes struct {
	b [tailLen]byte
	n int
}

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
