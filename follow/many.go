package follow

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// DefaultMaxOpen, DefaultCloseIdle and DefaultFair are ManyOptions' MaxOpen, CloseIdle
// and Fair when they are 0.
const (
	DefaultMaxOpen   = 256
	DefaultCloseIdle = time.Minute
	DefaultFair      = 64 << 10
)

// ManyOptions says what OpenMany follows and how.
type ManyOptions struct {
	// Options are each file's, as Open takes them: Start and Last for the files there
	// when OpenMany is called (a file that appears later is read from its start), Poll,
	// PollOnly. Idle is called when every file has been read to its end and the Many is
	// about to wait, and again every Poll while it waits; Moved when a name's reading
	// moves to another file of its rotation, before any record of it. Both on the
	// goroutine that iterates. Options.Resume is not used: see Resume.
	Options

	// Resume, if set, is where an earlier run stopped (Many.State): each name it holds a
	// checkpoint for goes on from there, as Open goes on from a Checkpoint; a name it
	// holds none for appeared while the program was down, and is read from its start.
	// The checkpoints of names no pattern matches are kept, as they are, in State.
	Resume *State

	// Exclude holds patterns of names never followed: one with a separator is matched
	// against the whole name as followed, one without against its last element
	// ("*.gz").
	Exclude []string

	// MaxOpen is the most files open at once (0: DefaultMaxOpen). A name whose files
	// are closed is reopened by its files' identity (as a restart from a checkpoint
	// finds them) when it changes. If the process runs out of descriptors first (ulimit
	// -n), idle files are closed instead.
	MaxOpen int

	// CloseIdle is how long a file that does not grow stays open (0:
	// DefaultCloseIdle).
	CloseIdle time.Duration

	// Fair is the most bytes of records read from one file before another file with
	// records to read gets its turn (0: DefaultFair): a file written as fast as its
	// writer can does not hold back the records of the others.
	Fair int

	// Warn, if set, is told of each file that cannot be followed (a directory, a file
	// it has no permission to read, a FIFO, a read error, a record longer than
	// MaxRecord) once, on the goroutine that iterates, and the other files go on; the
	// name is followed again once it names another file. If Warn is nil, such an error
	// ends the loop and Err reports it.
	Warn func(name string, err error)
}

// Record is one record of a Many and where it came from.
type Record struct {
	// Name is the followed name it was written under ("logs/app.log", also when it is
	// read from app.log.1 after a rotation), as the pattern matched it: the pattern's
	// leading directories as given, then the rest of the path.
	Name   string
	Data   []byte
	Offset int64 // in the file it was read from
	LineNo int64 // within Name's sequence of files: 1 for the first record of Name this Many yields (after a Resume too, as Open's LineNo)
}

// Many follows every file that a set of patterns matches (see OpenMany). Its loop runs
// on the goroutine that iterates; State is taken there too.
type Many struct {
	opt   linereader.Options
	mo    ManyOptions // defaults filled in
	env   *manyEnv
	names *names
	run   scheduler
	book  stateBook
	watch *manyWatcher
	sig   signals
	// stopped: ctx is done, or Close was called: the loop ends. closed: Close was
	// called: the files are closed.
	stopped, closed atomic.Bool
	once            sync.Once // stop's work
	unset           func() bool
	err             error // what ended the loop (Warn nil); set on the goroutine that iterates
}

// OpenMany follows every file whose name matches one of patterns (filepath.Match syntax,
// and ** as a whole element for any number of directories), each as Open follows one:
// through every rotation (a file rotated away is read to its end, then the next; the
// files rotated within one tick are ordered by what their names say), truncation, and a
// restart (ManyOptions.Resume, from State). Files that appear later are picked up (on a
// notification where the platform has them, and by a listing of the directories every
// Poll in any case), and a name whose files are all gone is forgotten. A file met under
// two names (a rotated file the patterns also match, a hard link) is read once.
//
// The files there when OpenMany is called are read first, each from where Options say
// to its size then, in the order of the patterns, each pattern's matches in the order
// of their paths (as tail -F prints them); then whatever is written, to any of them,
// fairly: a file with records gets a turn of at most Fair bytes before the next one.
// At most MaxOpen files are open at once; one idle for CloseIdle is closed, and reopened
// by identity when it changes.
//
// A pattern that matches nothing yet is waited for. A file that cannot be read is told
// to ManyOptions.Warn. OpenMany's error is for options or patterns it cannot use (it
// wraps linereader.ErrInvalidOptions), and for a Resume it cannot use. The project's
// docs/follow.md says exactly what is read, in which order, and what can be lost.
//
// A Many starts one goroutine, its watcher (with notifications, the notification
// library runs one of its own); Close, or ctx being done, ends them.
func OpenMany(ctx context.Context, patterns []string, opt linereader.Options, mo ManyOptions) (*Many, error) {
	pats, excl, err := compileAll(patterns, opt, mo)
	if err != nil {
		return nil, err
	}
	m := &Many{opt: opt, mo: withDefaults(mo)}
	m.sig = signals{wake: make(chan struct{}, 1), done: make(chan struct{})}
	m.env = &manyEnv{fds: &fdCount{}, dirs: newDirCache()}
	m.run = scheduler{limit: m.mo.MaxOpen, open: map[*member]struct{}{}, claims: map[devIno]*member{},
		now: time.Now(), timer: time.NewTimer(time.Hour)}
	m.run.timer.Stop()
	w := newManyWatcher(m, !m.mo.PollOnly)
	m.names = newNames(pats, excl, m.env.dirs, w.fs)
	m.env.skip = m.names.ownName
	m.watch = w
	m.names.begin = m.beginAt(mo.Resume, true)
	first := m.names.first()
	m.names.mu.Lock()
	m.names.begin = m.beginAt(mo.Resume, false)
	m.names.mu.Unlock()
	m.resumeMissing(mo.Resume)
	if err := m.openFirst(first); err != nil {
		m.Close()
		return nil, err
	}
	w.start()
	m.unset = context.AfterFunc(ctx, m.stop)
	if ctx.Err() != nil {
		m.stop()
	}
	return m, nil
}

// compileAll checks the options and compiles the patterns.
func compileAll(patterns []string, opt linereader.Options, mo ManyOptions) ([]pattern, excluder, error) {
	fo := mo.Options
	if err := validate("", opt, fo); err != nil {
		return nil, nil, err
	}
	var faults []string
	if fo.Resume != nil {
		faults = append(faults, "Options.Resume is not used by OpenMany (ManyOptions.Resume holds a State)")
	}
	if mo.MaxOpen < 0 || mo.CloseIdle < 0 || mo.Fair < 0 {
		faults = append(faults, fmt.Sprintf("MaxOpen %d, CloseIdle %v or Fair %d is negative", mo.MaxOpen, mo.CloseIdle, mo.Fair))
	}
	if len(patterns) == 0 {
		faults = append(faults, "no pattern")
	}
	var pats []pattern
	for _, text := range patterns {
		p, err := compilePattern(text)
		if err != nil {
			faults = append(faults, err.Error())
			continue
		}
		pats = append(pats, p)
	}
	excl, err := compileExclude(mo.Exclude)
	if err != nil {
		faults = append(faults, "Exclude: "+err.Error())
	}
	if len(faults) > 0 {
		return nil, nil, fmt.Errorf("%w: %s", linereader.ErrInvalidOptions, strings.Join(faults, "; "))
	}
	return pats, excl, nil
}

// withDefaults is mo with its zero values made the defaults.
func withDefaults(mo ManyOptions) ManyOptions {
	if mo.MaxOpen == 0 {
		mo.MaxOpen = DefaultMaxOpen
	}
	if mo.CloseIdle == 0 {
		mo.CloseIdle = DefaultCloseIdle
	}
	if mo.Fair == 0 {
		mo.Fair = DefaultFair
	}
	mo.Poll = pollPeriod(mo.Poll)
	return mo
}

// Views returns an iterator over the records of every file followed, as they come. Data
// is borrowed: valid only until the loop body returns. The loop ends when ctx is done or
// Close is called (Err then reports nil), or on an error of a file when ManyOptions.Warn
// is nil. It runs on the caller's goroutine; at most one loop at a time.
func (m *Many) Views() iter.Seq[Record] {
	return func(yield func(Record) bool) { m.loop(yield) }
}

// Lines is Views with each record's Data copied: the caller's own.
func (m *Many) Lines() iter.Seq[Record] {
	return func(yield func(Record) bool) {
		m.loop(func(r Record) bool {
			r.Data = append([]byte(nil), r.Data...)
			return yield(r)
		})
	}
}

// Err reports the error that ended the loop, or nil when ctx or Close ended it.
func (m *Many) Err() error { return m.err }

// State returns where the Many stands: a checkpoint for every name followed, just past
// the last record yielded of it (before any, where its reading begins), each naming its
// file by identity so that OpenMany with ManyOptions.Resume finds it again; and the
// checkpoints of ManyOptions.Resume for names no pattern matches, as they were. It is
// consistent with the records yielded so far: take it in the loop body, in Idle or
// Moved, or after the loop, on the goroutine that iterates, before Close. A State
// returned is not changed by the Many; while nothing is read, State returns the same one
// again, cheaply.
func (m *Many) State() *State { return m.book.state(m) }

// Close ends the loop (from any goroutine) and releases the files, the goroutine and
// the notifications. It is idempotent. A Many must be closed, also after its loop ended.
func (m *Many) Close() error {
	m.stop()
	if m.closed.Swap(true) {
		return nil
	}
	if m.unset != nil {
		m.unset()
	}
	for _, src := range m.names.closeAll() {
		src.close()
	}
	return nil
}

// stop ends the loop and the watcher (ctx done, or Close); the files stay open until
// Close, so that State can still be taken.
func (m *Many) stop() {
	m.once.Do(func() {
		m.stopped.Store(true)
		close(m.sig.done)
		m.watch.stop()
	})
}

// signal wakes the loop if it waits, or makes its next wait return at once.
func (m *Many) signal() {
	select {
	case m.sig.wake <- struct{}{}:
	default:
	}
}

// fail handles a file's error: told to Warn, or, without Warn, the end of the loop.
// It reports whether the loop goes on.
func (m *Many) fail(name string, err error) bool {
	if m.mo.Warn != nil {
		m.mo.Warn(name, err)
		return true
	}
	if m.err == nil {
		m.err = err
	}
	return false
}

// errGone is the end of a member whose name and files are all gone.
var errGone = errors.New("follow: gone")
