package follow

// Follow: records of a growing file, across rotation by rename, deletion and
// re-creation, truncation and a name missing for a while, with notifications and on the
// polling path. Every wait for the follower has a generous deadline, which turns a
// follower that never delivers into a failure instead of a hung test; no test asserts
// a speed.

import (
	"context"
	"errors"
	"fmt"
	"github.com/foreachio/foreach/linereader"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// followDeadline bounds every wait for the follower. It is no measure of speed.
const followDeadline = 60 * time.Second

// testPoll is the poll period of the tests, short so that the polling path runs quickly.
const testPoll = 20 * time.Millisecond

// modes runs f with notifications and on the polling path alone.
func modes(t *testing.T, f func(t *testing.T, notify bool)) {
	t.Run("notify", func(t *testing.T) { f(t, true) })
	t.Run("poll", func(t *testing.T) { f(t, false) })
}

// follow is Follow with notifications, or without them (PollOnly) for the polling path.
func follow(ctx context.Context, name string, opt linereader.Options, fo Options, notify bool) (*Reader, error) {
	fo.PollOnly = !notify
	return Open(ctx, name, opt, fo)
}

// PollOnly sets no watch: the follower has no notifications, and still reads what is
// appended, at the next look.
func TestFollowPollOnly(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "a\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		if watching := tl.r.view().notifies; !notify && watching {
			t.Fatal("PollOnly: the follower set a watch")
		} else if notify && !watching && runtime.GOOS == "linux" {
			t.Fatal("without PollOnly: no watch on linux")
		}
		tl.expect(t, fRec{"a\n", 0, 1})
		write(t, f, "b\n")
		tl.expect(t, fRec{"b\n", 2, 2})
	})
}

// fRec is a record as the follower's loop saw it.
type fRec struct {
	rec  string
	off  int64
	line int64
}

// tailer runs a follower's Lines loop on a goroutine of its own, handing each record to
// the test on recs; done is closed when the loop has ended, with its Err in err.
type tailer struct {
	r    *Reader
	recs chan fRec
	done chan struct{}
	err  error
	body func(fRec) // if set, run in the loop body before the record is handed on
	gate gate       // Options.Idle's: see hold
}

// gate lets a test act while the follower's loop is held in Idle, caught up and about
// to wait: what the test does then is, for the follower, one change.
type gate struct{ ask chan chan struct{} }

func (g gate) idle() {
	select {
	case done := <-g.ask:
		<-done
	default:
	}
}

// hold waits until the loop is in Idle, runs f while it is held there, and lets it go.
func (tl *tailer) hold(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	deadline := time.After(followDeadline)
	for asked := false; !asked; {
		tl.r.wake() // a loop already waiting calls Idle again
		select {
		case tl.gate.ask <- done:
			asked = true
		case <-time.After(time.Millisecond):
		case <-deadline:
			t.Fatalf("the follower did not wait within %v", followDeadline)
		}
	}
	defer close(done)
	f()
}

func startTailer(t *testing.T, ctx context.Context, name string, opt linereader.Options, fo Options, notify bool) *tailer {
	t.Helper()
	g := gate{ask: make(chan chan struct{})}
	if fo.Idle == nil {
		fo.Idle = g.idle
	}
	r, err := follow(ctx, name, opt, fo, notify)
	if err != nil {
		t.Fatalf("Follow: %v", err)
	}
	tl := &tailer{r: r, gate: g, recs: make(chan fRec, 1<<12), done: make(chan struct{})}
	t.Cleanup(func() {
		r.Close()
		// A test that failed may leave records unreceived: the loop must not wait to
		// hand them on.
		for {
			select {
			case <-tl.recs:
				continue
			case <-tl.done:
			}
			return
		}
	})
	return tl
}

// run starts the loop (separately from startTailer, so that body can be set first).
func (tl *tailer) run() *tailer {
	go func() {
		defer close(tl.done)
		for rec := range tl.r.Lines() {
			fr := fRec{string(rec), tl.r.Offset(), tl.r.LineNo()}
			if tl.body != nil {
				tl.body(fr)
			}
			tl.recs <- fr
		}
		tl.err = tl.r.Err()
	}()
	return tl
}

// expect receives the next records and checks them against want.
func (tl *tailer) expect(t *testing.T, want ...fRec) {
	t.Helper()
	for i, w := range want {
		got, ok := tl.next(t)
		if !ok {
			t.Fatalf("record %d: the loop ended (Err %v), want %+v", i, tl.err, w)
		}
		if got != w {
			t.Fatalf("record %d is %+v, want %+v", i, got, w)
		}
	}
}

// next receives the next record; false when the loop ended without one.
func (tl *tailer) next(t *testing.T) (fRec, bool) {
	t.Helper()
	select {
	case got := <-tl.recs:
		return got, true
	case <-tl.done:
		select {
		case got := <-tl.recs:
			return got, true
		default:
			return fRec{}, false
		}
	case <-time.After(followDeadline):
		t.Fatalf("no record within %v", followDeadline)
		return fRec{}, false
	}
}

// ended waits for the loop to end and returns its Err.
func (tl *tailer) ended(t *testing.T) error {
	t.Helper()
	select {
	case <-tl.done:
	case <-time.After(followDeadline):
		t.Fatalf("the loop did not end within %v", followDeadline)
	}
	if len(tl.recs) > 0 {
		t.Fatalf("records left unchecked: %+v", <-tl.recs)
	}
	return tl.err
}

// waitFor polls cond on the follower's view until it holds.
func (tl *tailer) waitFor(t *testing.T, what string, cond func(v view) bool) {
	t.Helper()
	deadline := time.Now().Add(followDeadline)
	for {
		if cond(tl.r.view()) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the follower did not %s within %v", what, followDeadline)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitRead waits until the follower has read the file at name up to off.
func (tl *tailer) waitRead(t *testing.T, name string, off int64) {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	tl.waitFor(t, fmt.Sprintf("read %s to %d", name, off), func(v view) bool { return v.reads(fi, off) })
}

// waitQueued waits until the follower has opened the file now at name.
func (tl *tailer) waitQueued(t *testing.T, name string) {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	tl.waitFor(t, "open the new "+name, func(v view) bool { return v.holds(fi) })
}

// logFile is a writer's file, opened for appending as loggers do.
func logFile(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func write(t *testing.T, f *os.File, s string) {
	t.Helper()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func rename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

// scenarioRecord is record seq of the rotation scenario, written to file k: its number,
// its file and a padding of a length that varies with seq.
func scenarioRecord(seq, k int) string {
	return fmt.Sprintf("%06d f%d %s\n", seq, k, strings.Repeat("x", seq*7%61))
}

// The rotation scenario: a writer appends 120,001 records in pieces of random sizes that
// split records anywhere, over six files, with five rotations by rename, each made only
// after the follower has read the file before the current one; after each rename the
// writer goes on writing to the renamed file for a while, as a logger does until it is
// told to reopen. Every record arrives once, whole, in order, with its offset in its own
// file and its line number across them all.
func TestFollowRotationScenario(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		const files, perFile = 6, 20000
		name := filepath.Join(t.TempDir(), "app.log")
		f := logFile(t, name)
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		var reached atomic.Int64 // the file of the last record the follower yielded
		writerDone := make(chan error, 1)
		go func() { writerDone <- scenarioWriter(name, f, files, perFile, &reached) }()

		total := files*perFile + 1
		var off int64
		for seq, k := 0, 0; seq < total; seq++ {
			got, ok := tl.next(t)
			if !ok {
				t.Fatalf("the loop ended at record %d (Err %v)", seq, tl.err)
			}
			fk, _ := strconv.Atoi(strings.Fields(got.rec)[1][1:])
			if fk != k {
				k, off = fk, 0
				reached.Store(int64(k))
			}
			want := fRec{scenarioRecord(seq, k), off, int64(seq + 1)}
			if got != want {
				t.Fatalf("record %d is %+v, want %+v", seq, got, want)
			}
			off += int64(len(want.rec))
		}
		if err := <-writerDone; err != nil {
			t.Fatal(err)
		}
		tl.r.Close()
		if err := tl.ended(t); err != nil {
			t.Errorf("Err after Close = %v, want nil", err)
		}
	})
}

// scenarioWriter writes the scenario's files. File k is renamed away once the follower
// has yielded a record of it (so it has read every file before it), and the last records
// of file k are written to it after the rename, once its successor exists.
func scenarioWriter(name string, f *os.File, files, perFile int, reached *atomic.Int64) error {
	rng := rand.New(rand.NewPCG(22, uint64(files)))
	seq := 0
	for k := range files {
		n := perFile
		if k == files-1 {
			n++ // 120,001 records
		}
		var data []byte
		var late int // where the records written after the rename begin
		lateFrom := n - 1 - rng.IntN(50)
		for i := range n {
			if i == lateFrom {
				late = len(data)
			}
			data = append(data, scenarioRecord(seq, k)...)
			seq++
		}
		if k == files-1 {
			if err := writePieces(f, data, rng); err != nil {
				return err
			}
			break
		}
		if err := writePieces(f, data[:late], rng); err != nil {
			return err
		}
		deadline := time.Now().Add(followDeadline)
		for reached.Load() < int64(k) {
			if time.Now().After(deadline) {
				return fmt.Errorf("the follower did not reach file %d within %v", k, followDeadline)
			}
			time.Sleep(time.Millisecond)
		}
		// As logrotate's create mode: rename, create the new file empty, and the writer
		// goes on with the old one until it is told to reopen.
		if err := os.Rename(name, fmt.Sprintf("%s.%d", name, k)); err != nil {
			return err
		}
		g, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		if err := writePieces(f, data[late:], rng); err != nil {
			return err
		}
		f.Close()
		f = g
	}
	return f.Close()
}

// writePieces writes data in pieces of 1 to 300 bytes, cut anywhere.
func writePieces(f *os.File, data []byte, rng *rand.Rand) error {
	for len(data) > 0 {
		n := min(len(data), 1+rng.IntN(300))
		if _, err := f.Write(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// A rename rotation: the old file is read to its end, bytes written to it after the
// rename included, and its unterminated tail is its last record; the new file follows
// from its start, offsets from 0, line numbers going on.
func TestFollowRename(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "a\nb\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		tl.expect(t, fRec{"a\n", 0, 1}, fRec{"b\n", 2, 2})
		// As logrotate's create mode: the new file exists, empty, while the writer goes
		// on with the old one.
		rename(t, name, name+".1")
		g := logFile(t, name)
		tl.waitQueued(t, name)
		time.Sleep(2 * testPoll) // a look or two at the new, empty file
		write(t, f, "c\nd")
		write(t, g, "e\n")
		tl.expect(t, fRec{"c\n", 4, 3}, fRec{"d", 6, 4}, fRec{"e\n", 0, 5})
		write(t, g, "f\n")
		tl.expect(t, fRec{"f\n", 2, 6})
	})
}

// Deleted and created again: the deleted file is read to its end first.
func TestFollowDeleteAndRecreate(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "a\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{Chomp: true}, Options{Poll: testPoll}, notify).run()
		tl.expect(t, fRec{"a", 0, 1})
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
		write(t, f, "b\n")
		g := logFile(t, name)
		write(t, g, "c\n")
		tl.expect(t, fRec{"b", 2, 2}, fRec{"c", 0, 3})
	})
}

// The name missing for a while: the deleted file, still written, is followed meanwhile,
// and the file created at the name later is read from its start.
func TestFollowNameMissingForAWhile(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "a\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		tl.expect(t, fRec{"a\n", 0, 1})
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
		write(t, f, "b\n")
		tl.expect(t, fRec{"b\n", 2, 2})
		// Several looks at the missing name.
		tl.waitFor(t, "see the name missing", func(v view) bool { return v.seen == nil })
		time.Sleep(5 * testPoll)
		write(t, f, "c\n")
		tl.expect(t, fRec{"c\n", 4, 3})
		g := logFile(t, name)
		write(t, g, "d\n")
		tl.expect(t, fRec{"d\n", 0, 4})
		tl.r.Close()
		if err := tl.ended(t); err != nil {
			t.Errorf("Err = %v, want nil", err)
		}
	})
}

// Truncation in place after the follower caught up (copytruncate): the follower goes on
// from the file's new start.
func TestFollowCopyTruncate(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "first line\nsecond line\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		tl.expect(t, fRec{"first line\n", 0, 1}, fRec{"second line\n", 11, 2})
		old, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name+".1", old, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(name, 0); err != nil {
			t.Fatal(err)
		}
		write(t, f, "x\ny\n") // shorter than what was read: the truncation shows
		tl.expect(t, fRec{"x\n", 0, 3}, fRec{"y\n", 2, 4})
		write(t, f, "z\n")
		tl.expect(t, fRec{"z\n", 4, 5})
	})
}

// Bytes after the last separator are held until their separator comes, however long
// the follower has been waiting with them.
func TestFollowHoldsPartialRecord(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "one\ntw")
		tl := startTailer(t, t.Context(), name, linereader.Options{Sep: []byte("\r\n")}, Options{Poll: testPoll}, notify).run()
		tl.waitRead(t, name, 6)
		write(t, f, "o\r")
		tl.waitRead(t, name, 8)
		write(t, f, "\nthree\r\n")
		tl.expect(t, fRec{"one\ntwo\r\n", 0, 1}, fRec{"three\r\n", 9, 2})
		write(t, f, "half")
		tl.waitRead(t, name, 20)
		tl.r.Close()
		if err := tl.ended(t); err != nil {
			t.Errorf("Err = %v, want nil", err)
		}
		if n := tl.r.Stats().Records; n != 2 {
			t.Errorf("%d records, want 2: a half-written record was given out", n)
		}
	})
}

// A rotated file that the follower has not reached yet is opened when it is found at
// the name, so that it is still read after it is rotated away in turn.
func TestFollowRotatedBeforeReached(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		dir := t.TempDir()
		name := filepath.Join(dir, "log")
		a := logFile(t, name)
		write(t, a, "a1\na2\n")
		gate := make(chan struct{})
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify)
		tl.body = func(r fRec) {
			if r.rec == "a1\n" {
				<-gate
			}
		}
		tl.run()
		tl.waitRead(t, name, 6)
		rename(t, name, name+".1")
		b := logFile(t, name)
		write(t, b, "b1\n")
		tl.waitQueued(t, name)
		rename(t, name, filepath.Join(dir, "elsewhere"))
		c := logFile(t, name)
		write(t, c, "c1\n")
		tl.waitQueued(t, name)
		close(gate)
		tl.expect(t, fRec{"a1\n", 0, 1}, fRec{"a2\n", 3, 2}, fRec{"b1\n", 0, 3}, fRec{"c1\n", 0, 4})
	})
}

// Start at a checkpoint: the offset after the last record handled, from EndOffset,
// with Chomp; and past the end of a file truncated since, which reads from 0.
func TestFollowStartAtCheckpoint(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	write(t, f, "a\r\nbb\r\nccc\r\n")
	opt := linereader.Options{Chomp: true}
	r, err := Open(t.Context(), name, opt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if !r.Next() {
			t.Fatalf("Next: false, Err %v", r.Err())
		}
	}
	cp := r.EndOffset()
	r.Close()
	if cp != 7 {
		t.Fatalf("EndOffset after the second record = %d, want 7", cp)
	}
	tl := startTailer(t, t.Context(), name, opt, Options{Start: cp, Poll: testPoll}, true).run()
	tl.expect(t, fRec{"ccc", 7, 1})
	write(t, f, "d\r\n")
	tl.expect(t, fRec{"d", 12, 2})

	tl2 := startTailer(t, t.Context(), name, opt, Options{Start: 1000, Poll: testPoll}, true).run()
	tl2.expect(t, fRec{"a", 0, 1}, fRec{"bb", 3, 2}, fRec{"ccc", 7, 3}, fRec{"d", 12, 4})
}

// Start -1: only records appended from now on, and a record being written now is
// yielded whole once it ends.
func TestFollowStartAtEnd(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "old\nolder\npart")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Start: -1, Poll: testPoll}, notify).run()
		write(t, f, "ial\nnew\n")
		tl.expect(t, fRec{"partial\n", 10, 1}, fRec{"new\n", 18, 2})
	})
	t.Run("complete", func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "old\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Start: -1, Poll: testPoll}, true).run()
		write(t, f, "new\n")
		tl.expect(t, fRec{"new\n", 4, 1})
	})
}

// Pull style: Next waits for each record.
func TestFollowNext(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		r, err := follow(t.Context(), name, linereader.Options{Chomp: true}, Options{Poll: testPoll}, notify)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		go func() {
			for i := range 100 {
				fmt.Fprintf(f, "line %d\n", i)
			}
		}()
		for i := range 100 {
			if !r.Next() {
				t.Fatalf("Next %d: false, Err %v", i, r.Err())
			}
			if got, want := r.Text(), fmt.Sprintf("line %d", i); got != want || r.LineNo() != int64(i+1) {
				t.Fatalf("record %d: %q, line %d; want %q, line %d", i, got, r.LineNo(), want, i+1)
			}
		}
	})
}

// goroutines waits until no more than n goroutines run, failing at the deadline.
func goroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(followDeadline)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// Cancelling ctx while Next waits ends it with Err nil, and leaves no goroutine.
func TestFollowCancelWhileWaiting(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		before := runtime.NumGoroutine()
		name := filepath.Join(t.TempDir(), "log")
		write(t, logFile(t, name), "a\nhalf")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r, err := follow(ctx, name, linereader.Options{}, Options{Poll: time.Hour}, notify)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Next() || r.Text() != "a\n" {
			t.Fatalf("first record %q, Err %v", r.Text(), r.Err())
		}
		ended := make(chan bool)
		go func() { ended <- r.Next() }()
		cancel()
		select {
		case more := <-ended:
			if more {
				t.Fatalf("Next after cancel yielded %q", r.Text())
			}
		case <-time.After(followDeadline):
			t.Fatal("Next did not return after cancel")
		}
		if err := r.Err(); err != nil {
			t.Errorf("Err = %v, want nil", err)
		}
		goroutines(t, before)
		if err := r.Close(); err != nil {
			t.Errorf("Close after cancel: %v", err)
		}
	})
}

// Close from another goroutine ends a loop that waits, with Err nil, releasing the
// files and the goroutines; Close again does nothing.
func TestFollowCloseFromAnotherGoroutine(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		before := runtime.NumGoroutine()
		name := filepath.Join(t.TempDir(), "log")
		write(t, logFile(t, name), "a\n")
		r, err := follow(context.Background(), name, linereader.Options{}, Options{Poll: time.Hour}, notify)
		if err != nil {
			t.Fatal(err)
		}
		var n atomic.Int64
		ended := make(chan struct{})
		go func() {
			for range r.Views() {
				n.Add(1)
			}
			close(ended)
		}()
		for n.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ended:
		case <-time.After(followDeadline):
			t.Fatal("the loop did not end after Close")
		}
		if err := r.Err(); err != nil {
			t.Errorf("Err = %v, want nil", err)
		}
		if err := r.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if r.Next() {
			t.Error("Next after Close yielded a record")
		}
		goroutines(t, before)
	})
}

// A ctx done before Follow: a reader that yields nothing, with Err nil.
func TestFollowContextDoneBefore(t *testing.T) {
	before := runtime.NumGoroutine()
	name := filepath.Join(t.TempDir(), "log")
	write(t, logFile(t, name), "a\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Open(ctx, name, linereader.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for rec := range r.Lines() {
		t.Errorf("record %q after cancel", rec)
	}
	if r.Err() != nil {
		t.Errorf("Err = %v", r.Err())
	}
	goroutines(t, before)
}

// The name turned into a directory is an error, once the file being read is read.
func TestFollowNameBecomesDirectory(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "a\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		tl.expect(t, fRec{"a\n", 0, 1})
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
		write(t, f, "b\n")
		if err := os.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
		tl.expect(t, fRec{"b\n", 2, 2})
		err := tl.ended(t)
		var pe *fs.PathError
		if !errors.As(err, &pe) || !errors.Is(err, syscall.EISDIR) || pe.Path != name {
			t.Fatalf("Err = %v, want a *fs.PathError for %s with EISDIR", err, name)
		}
	})
}

// A new file that cannot be opened is an error.
func TestFollowPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("as root, file modes do not stop reads")
	}
	name := filepath.Join(t.TempDir(), "log")
	write(t, logFile(t, name), "a\n")
	tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, true).run()
	tl.expect(t, fRec{"a\n", 0, 1})
	rename(t, name, name+".1")
	if err := os.WriteFile(name, []byte("secret\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	if err := tl.ended(t); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("Err = %v, want permission denied", err)
	}
}

// Options Follow cannot use, and names it cannot follow, are errors from Follow.
func TestFollowRefuses(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "log")
	write(t, logFile(t, name), "a\n")
	for _, tc := range []struct {
		opt  linereader.Options
		fo   Options
		want string
	}{
		{linereader.Options{Decompress: true}, Options{}, "Decompress cannot be followed"},
		{linereader.Options{Whole: true}, Options{}, "Whole without Limit"},
		{linereader.Options{}, Options{Start: -2}, "Start -2 is negative"},
		{linereader.Options{}, Options{Poll: -time.Second}, "Poll -1s is negative"},
		{linereader.Options{Limit: -1}, Options{}, "Limit -1 is negative"},
	} {
		r, err := Open(t.Context(), name, tc.opt, tc.fo)
		if r != nil || !errors.Is(err, linereader.ErrInvalidOptions) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%+v, %+v) = %v, %v; want an error wrapping linereader.ErrInvalidOptions saying %q", tc.opt, tc.fo, r, err, tc.want)
		}
	}
	if _, err := Open(t.Context(), dir, linereader.Options{}, Options{}); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("Follow of a directory: %v, want EISDIR", err)
	}
	if _, err := Open(t.Context(), filepath.Join(dir, "missing"), linereader.Options{}, Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Follow of a missing name: %v, want ErrNotExist", err)
	}
	// Whole with a Limit is fixed-size records.
	f := logFile(t, filepath.Join(dir, "fixed"))
	write(t, f, "abcdefg")
	tl := startTailer(t, t.Context(), filepath.Join(dir, "fixed"), linereader.Options{Whole: true, Limit: 4}, Options{Poll: testPoll}, true).run()
	tl.expect(t, fRec{"abcd", 0, 0})
	write(t, f, "h")
	tl.expect(t, fRec{"efgh", 4, 0})
}

// MaxRecord bounds a record that never ends.
func TestFollowMaxRecord(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	write(t, f, "ok\n0123456789")
	tl := startTailer(t, t.Context(), name, linereader.Options{MaxRecord: 12, BufferSize: 4}, Options{Poll: testPoll}, true).run()
	tl.expect(t, fRec{"ok\n", 0, 1})
	write(t, f, "abc")
	var tle *linereader.TooLongError
	if err := tl.ended(t); !errors.As(err, &tle) || tle.Offset != 3 || tle.LineNo != 2 {
		t.Fatalf("Err = %v, want a *linereader.TooLongError at offset 3, line 2", err)
	}
}

// Paragraph mode while following: a paragraph ends at its blank line.
func TestFollowParagraphs(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	write(t, f, "\n\np1\nmore\n\n\np2\n")
	tl := startTailer(t, t.Context(), name, linereader.Options{Paragraph: true}, Options{Poll: testPoll}, true).run()
	tl.expect(t, fRec{"p1\nmore\n\n", 2, 1})
	write(t, f, "\n")
	tl.expect(t, fRec{"p2\n\n", 12, 2})
}

// Idle is called on the loop's goroutine when the follower has caught up, before it
// waits: by then every complete record has been yielded.
func TestFollowIdle(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	write(t, f, "a\nb\nc")
	var yielded, atIdle atomic.Int64
	idle := make(chan struct{}, 1)
	r, err := Open(t.Context(), name, linereader.Options{}, Options{Poll: testPoll, Idle: func() {
		atIdle.Store(yielded.Load())
		select {
		case idle <- struct{}{}:
		default:
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		for range r.Views() {
			yielded.Add(1)
		}
	}()
	select {
	case <-idle:
	case <-time.After(followDeadline):
		t.Fatal("Idle was not called")
	}
	if n := atIdle.Load(); n != 2 {
		t.Errorf("Idle called after %d records, want 2", n)
	}
}

// Stats and Offset through a rotation: Stats.Bytes counts every file.
func TestFollowStats(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	write(t, f, "abc\n")
	tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Start: 2, Poll: testPoll}, true).run()
	tl.expect(t, fRec{"c\n", 2, 1})
	rename(t, name, name+".1")
	write(t, logFile(t, name), "de\n")
	tl.expect(t, fRec{"de\n", 0, 2})
	tl.r.Close()
	tl.ended(t)
	if st := tl.r.Stats(); st.Records != 2 || st.Bytes != 5 {
		t.Errorf("Stats: %d records, %d bytes; want 2 and 5", st.Records, st.Bytes)
	}
}

var _ io.Reader = (*source)(nil)

// A truncation followed by writes past the point read, before the follower looks again
// (its size does not show it), is still seen: the bytes before that point changed.
func TestFollowTruncatedAndRewritten(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, "old 1\nold 2\n")
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		tl.expect(t, fRec{"old 1\n", 0, 1}, fRec{"old 2\n", 6, 2})
		tl.waitRead(t, name, 12)
		// Truncated and written again at once, as far as the follower can tell.
		tl.hold(t, func() {
			if err := os.Truncate(name, 0); err != nil {
				t.Fatal(err)
			}
			write(t, f, "new record 1\nnew record 2\n")
		})
		tl.expect(t, fRec{"new record 1\n", 0, 3}, fRec{"new record 2\n", 13, 4})
	})
}

// A Start after the file's start: what comes before it is known, so a rewrite is seen
// from the first wait on.
func TestFollowRewrittenAfterStart(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	write(t, f, "old 1\nold 2\n")
	tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Start: -1, Poll: testPoll}, true).run()
	tl.waitRead(t, name, 12)
	tl.hold(t, func() {
		if err := os.Truncate(name, 0); err != nil {
			t.Fatal(err)
		}
		write(t, f, "new record 1\n")
	})
	tl.expect(t, fRec{"new record 1\n", 0, 1})
}

// Reset on a Follow reader stops its watcher and closes its files, and the reader then
// reads its new source as a plain one.
func TestFollowReset(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		before := runtime.NumGoroutine()
		name := filepath.Join(t.TempDir(), "log")
		write(t, logFile(t, name), "a\nb\n")
		r, err := follow(t.Context(), name, linereader.Options{Chomp: true}, Options{Poll: testPoll}, notify)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Next() || r.Text() != "a" {
			t.Fatalf("first record %q, Err %v", r.Text(), r.Err())
		}
		r.Reset(strings.NewReader("x\ny"))
		var got []string
		for rec := range r.Lines() {
			got = append(got, string(rec))
		}
		if err := r.Err(); err != nil || !slices.Equal(got, []string{"x", "y"}) {
			t.Fatalf("after Reset: %q, %v", got, err)
		}
		goroutines(t, before)
	})
}
