package follow

// OpenMany: the files of a pattern, each as Open follows one, as they come and go; the
// order of their starting contents; fair turns; the bound on open files; State and
// Resume; the faults of issue 44's item 7. As in follow_test.go, every wait has a
// generous deadline and no test asserts a speed.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foreachio/foreach/internal/testkit/testfifo"
	"github.com/foreachio/foreach/linereader"
)

// mRec is a record as a Many's loop saw it: its name's last element, the record, its
// offset and line number.
type mRec struct {
	name string
	rec  string
	off  int64
	line int64
}

func (r mRec) String() string { return fmt.Sprintf("%s:%q@%d#%d", r.name, r.rec, r.off, r.line) }

// manyTailer runs a Many's Lines loop on a goroutine of its own, handing each record to
// the test on recs; done is closed when the loop has ended, with its Err in err.
type manyTailer struct {
	m     *Many
	recs  chan mRec
	done  chan struct{}
	err   error
	warns chan string // what Warn was told, "name: error"
	body  func(mRec)  // if set, run in the loop body before the record is handed on
}

// startMany opens a Many of patterns with mo (Poll testPoll unless set; Warn noted on
// warns unless set) and notify, without starting its loop (run does).
func startMany(t *testing.T, patterns []string, opt linereader.Options, mo ManyOptions, notify bool) *manyTailer {
	t.Helper()
	tl := &manyTailer{recs: make(chan mRec, 1<<14), done: make(chan struct{}), warns: make(chan string, 64)}
	if mo.Poll == 0 {
		mo.Poll = testPoll
	}
	mo.PollOnly = !notify
	if mo.Warn == nil {
		mo.Warn = func(name string, err error) { tl.warns <- filepath.Base(name) + ": " + err.Error() }
	}
	m, err := OpenMany(t.Context(), patterns, opt, mo)
	if err != nil {
		t.Fatalf("OpenMany: %v", err)
	}
	tl.m = m
	t.Cleanup(func() {
		m.Close()
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

func (tl *manyTailer) run() *manyTailer {
	go func() {
		defer close(tl.done)
		for r := range tl.m.Lines() {
			mr := mRec{filepath.Base(r.Name), string(r.Data), r.Offset, r.LineNo}
			if tl.body != nil {
				tl.body(mr)
			}
			tl.recs <- mr
		}
		tl.err = tl.m.Err()
	}()
	return tl
}

// next receives the next record; false when the loop ended without one.
func (tl *manyTailer) next(t *testing.T) (mRec, bool) {
	t.Helper()
	select {
	case got := <-tl.recs:
		return got, true
	case <-tl.done:
		select {
		case got := <-tl.recs:
			return got, true
		default:
			return mRec{}, false
		}
	case <-time.After(followDeadline):
		t.Fatalf("no record within %v", followDeadline)
		return mRec{}, false
	}
}

// expect receives the next records and checks them against want, in order.
func (tl *manyTailer) expect(t *testing.T, want ...mRec) {
	t.Helper()
	for i, w := range want {
		got, ok := tl.next(t)
		if !ok {
			t.Fatalf("record %d: the loop ended (Err %v), want %v", i, tl.err, w)
		}
		if got != w {
			t.Fatalf("record %d is %v, want %v", i, got, w)
		}
	}
}

// expectSet receives len(want) records and checks them against want in any order, and
// the records of each name in want's order.
func (tl *manyTailer) expectSet(t *testing.T, want ...mRec) {
	t.Helper()
	var got []mRec
	for range want {
		var r mRec
		var ok bool
		select {
		case r, ok = <-tl.recs:
		case <-time.After(followDeadline):
			t.Fatalf("got %v, want %v\n%s", got, want, tl.m.dump())
		}
		if !ok {
			t.Fatalf("the loop ended (Err %v) after %v, want %v", tl.err, got, want)
		}
		got = append(got, r)
	}
	key := func(r mRec) string { return r.name + "\x00" + fmt.Sprint(r.line) }
	byKey := func(rs []mRec) []mRec {
		out := slices.Clone(rs)
		slices.SortStableFunc(out, func(a, b mRec) int { return strings.Compare(a.name, b.name) })
		return out
	}
	g, w := byKey(got), byKey(want)
	if !slices.Equal(g, w) {
		t.Fatalf("got %v, want %v (any order across names)", got, want)
	}
	_ = key
}

// quiet checks that no record comes within d.
func (tl *manyTailer) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case r := <-tl.recs:
		t.Fatalf("unexpected record %v", r)
	case <-time.After(d):
	}
}

// warned waits for Warn to be told of want ("name: error").
func (tl *manyTailer) warned(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-tl.warns:
		if got != want {
			t.Fatalf("Warn was told %q, want %q", got, want)
		}
	case <-time.After(followDeadline):
		t.Fatalf("Warn was not told %q within %v", want, followDeadline)
	}
}

// ended waits for the loop to end and returns its Err.
func (tl *manyTailer) ended(t *testing.T) error {
	t.Helper()
	select {
	case <-tl.done:
	case <-time.After(followDeadline):
		t.Fatalf("the loop did not end within %v", followDeadline)
	}
	return tl.err
}

func writeFile(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The files a pattern matches: their starting contents in the order of their names,
// each whole before the next, then what is appended to any of them, and a file that
// appears later, from its start; each record with its name, offset and line number.
func TestManyPattern(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "b.log"), "b1\nb2\n")
		writeFile(t, filepath.Join(dir, "a.log"), "a1\n")
		writeFile(t, filepath.Join(dir, "c.txt"), "not matched\n")
		tl := startMany(t, []string{filepath.Join(dir, "*.log")}, linereader.Options{}, ManyOptions{}, notify).run()
		tl.expect(t, mRec{"a.log", "a1\n", 0, 1}, mRec{"b.log", "b1\n", 0, 1}, mRec{"b.log", "b2\n", 3, 2})
		fb := logFile(t, filepath.Join(dir, "b.log"))
		write(t, fb, "b3\n")
		tl.expect(t, mRec{"b.log", "b3\n", 6, 3})
		fc := logFile(t, filepath.Join(dir, "c.log"))
		write(t, fc, "c1\n")
		tl.expect(t, mRec{"c.log", "c1\n", 0, 1})
		write(t, fc, "c")
		write(t, fb, "b4\n")
		tl.expect(t, mRec{"b.log", "b4\n", 9, 4})
		write(t, fc, "2\n")
		tl.expect(t, mRec{"c.log", "c2\n", 3, 2})
		tl.m.Close()
		if err := tl.ended(t); err != nil {
			t.Fatalf("Err after Close: %v", err)
		}
	})
}

// OpenMany refuses what it cannot use, with an error that wraps ErrInvalidOptions.
func TestManyRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		pats []string
		opt  linereader.Options
		mo   ManyOptions
	}{
		{nil, linereader.Options{}, ManyOptions{}},
		{[]string{""}, linereader.Options{}, ManyOptions{}},
		{[]string{filepath.Join(dir, "[.log")}, linereader.Options{}, ManyOptions{}},
		{[]string{dir + "/*"}, linereader.Options{Decompress: true}, ManyOptions{}},
		{[]string{dir + "/*"}, linereader.Options{}, ManyOptions{MaxOpen: -1}},
		{[]string{dir + "/*"}, linereader.Options{}, ManyOptions{Options: Options{Resume: &Checkpoint{Name: "x"}}}},
		{[]string{dir + "/*"}, linereader.Options{}, ManyOptions{Exclude: []string{"[x"}}},
	} {
		m, err := OpenMany(context.Background(), tc.pats, tc.opt, tc.mo)
		if err == nil || !errors.Is(err, linereader.ErrInvalidOptions) {
			if m != nil {
				m.Close()
			}
			t.Errorf("OpenMany(%q, %+v, %+v): %v, want ErrInvalidOptions", tc.pats, tc.opt, tc.mo, err)
		}
	}
}

// Each file is followed as Open follows one: renamed away and created anew, the old one
// is read to its end (what the writer still appends to it too) under the name, then the
// new one; copied and truncated, the rest from the copy; the rotated files, which the
// pattern also matches, are not names of their own.
func TestManyRotation(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
		fa, fb := logFile(t, a), logFile(t, b)
		write(t, fa, "a1\n")
		write(t, fb, "b1\n")
		tl := startMany(t, []string{filepath.Join(dir, "*")}, linereader.Options{}, ManyOptions{}, notify).run()
		tl.expect(t, mRec{"a.log", "a1\n", 0, 1}, mRec{"b.log", "b1\n", 0, 1})
		rename(t, a, a+".1")
		write(t, fa, "a2\n") // the writer has not reopened yet
		fa2 := logFile(t, a)
		write(t, fa2, "a3\n")
		tl.expect(t, mRec{"a.log", "a2\n", 3, 2}, mRec{"a.log", "a3\n", 0, 3})
		write(t, fb, "b2\n")
		data, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, b+"-20261201", string(data))
		if err := os.Truncate(b, 0); err != nil {
			t.Fatal(err)
		}
		write(t, fb, "b3\n")
		tl.expect(t, mRec{"b.log", "b2\n", 3, 2}, mRec{"b.log", "b3\n", 0, 3})
		tl.quiet(t, 100*time.Millisecond)
	})
}

// At most MaxOpen files are open (and a few more while one is opened): the others wait
// closed, as checkpoints, and are reopened by identity when they change; nothing is lost,
// also when a closed file is rotated before it is reopened.
func TestManyMaxOpen(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		dir := t.TempDir()
		const files = 40
		ws := make([]*os.File, files)
		for i := range ws {
			ws[i] = logFile(t, filepath.Join(dir, fmt.Sprintf("f%02d.log", i)))
			write(t, ws[i], fmt.Sprintf("%d-0\n", i))
		}
		tl := startMany(t, []string{filepath.Join(dir, "*.log")}, linereader.Options{}, ManyOptions{MaxOpen: 8}, notify)
		worst := 0
		tl.body = func(mRec) { worst = max(worst, int(tl.m.env.fds.n.Load())) }
		tl.run()
		for i := range files {
			tl.expect(t, mRec{fmt.Sprintf("f%02d.log", i), fmt.Sprintf("%d-0\n", i), 0, 1})
		}
		for round := 1; round <= 3; round++ {
			var want []mRec
			for i := files - 1; i >= 0; i -= 3 {
				name := filepath.Join(dir, fmt.Sprintf("f%02d.log", i))
				rec := fmt.Sprintf("%d-%d\n", i, round)
				off := int64(len(fmt.Sprintf("%d-0\n", i)) * round)
				if round == 3 && i%2 == 0 {
					// Rotated while it may be closed: its rest comes from the rotated
					// file, found by identity.
					write(t, ws[i], rec)
					rename(t, name, name+".1")
					ws[i] = logFile(t, name)
					want = append(want, mRec{filepath.Base(name), rec, off, int64(round + 1)})
					continue
				}
				write(t, ws[i], rec)
				want = append(want, mRec{filepath.Base(name), rec, off, int64(round + 1)})
			}
			tl.expectSet(t, want...)
		}
		tl.quiet(t, 50*time.Millisecond)
		if worst > 8+2 {
			t.Errorf("%d files open at once, MaxOpen 8", worst)
		}
	})
}

// A file idle for CloseIdle is closed, and reopened when it grows.
func TestManyCloseIdle(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		dir := t.TempDir()
		name := filepath.Join(dir, "a.log")
		f := logFile(t, name)
		write(t, f, "1\n")
		tl := startMany(t, []string{name}, linereader.Options{}, ManyOptions{CloseIdle: 30 * time.Millisecond}, notify).run()
		tl.expect(t, mRec{"a.log", "1\n", 0, 1})
		deadline := time.Now().Add(followDeadline)
		for tl.m.env.fds.n.Load() != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("the idle file is still open after %v", followDeadline)
			}
			time.Sleep(time.Millisecond)
		}
		write(t, f, "2\n")
		tl.expect(t, mRec{"a.log", "2\n", 2, 2})
	})
}

// A file written as fast as its writer can does not hold back the records of another:
// with Fair, each file with records gets its turn.
func TestManyFair(t *testing.T) {
	dir := t.TempDir()
	hot, cold := filepath.Join(dir, "hot.log"), filepath.Join(dir, "cold.log")
	writeFile(t, hot, strings.Repeat("h\n", 100000))
	writeFile(t, cold, "")
	tl := startMany(t, []string{hot, cold}, linereader.Options{}, ManyOptions{Fair: 1000, Options: Options{Start: -1}}, true)
	fh := logFile(t, hot)
	// Appended before the loop begins: 200 KB to the hot file, then a record to the
	// cold one; the cold record comes after a turn of the hot file, not after all of it.
	write(t, fh, strings.Repeat("x\n", 100000))
	fc := logFile(t, cold)
	write(t, fc, "c\n")
	time.Sleep(50 * time.Millisecond) // both nudged before the loop takes a turn
	tl.run()
	seen := 0
	for {
		r, ok := tl.next(t)
		if !ok {
			t.Fatal("the loop ended")
		}
		if r.name == "cold.log" {
			break
		}
		seen++
	}
	if seen > 1000 {
		t.Fatalf("%d records of the hot file before the cold one's, Fair 1000 bytes", seen)
	}
}

// State names every followed name's file and the offset just past its last record
// yielded; a Many opened again from it goes on there, each name where it stopped, also
// when a file was rotated meanwhile, and reads from its start a name that appeared while
// it was down. Its text form is one line per name, and goes back to the same State.
func TestManyStateResume(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	fa, fb := logFile(t, a), logFile(t, b)
	write(t, fa, "a1\na2\n")
	write(t, fb, "b1\n")
	pat := []string{filepath.Join(dir, "*.log")}
	tl := startMany(t, pat, linereader.Options{}, ManyOptions{}, true)
	var states []*State
	tl.body = func(mRec) { states = append(states, tl.m.State()) }
	tl.run()
	tl.expect(t, mRec{"a.log", "a1\n", 0, 1}, mRec{"a.log", "a2\n", 3, 2}, mRec{"b.log", "b1\n", 0, 1})
	tl.m.Close()
	tl.ended(t)
	// After a2 was yielded: a at 6, b at its start.
	st := states[1]
	if cp, ok := st.Checkpoint(a); !ok || cp.Offset != 6 {
		t.Fatalf("state after a2: %+v, want a.log at 6", st.Checkpoints())
	}
	if cp, ok := st.Checkpoint(b); !ok || cp.Offset != 0 {
		t.Fatalf("state after a2: %+v, want b.log at 0", st.Checkpoints())
	}
	text, err := st.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(text), "\n"); n != 2 {
		t.Fatalf("state text has %d lines, want 2:\n%s", n, text)
	}
	var back State
	if err := back.UnmarshalText(text); err != nil {
		t.Fatal(err)
	}
	if again, _ := back.MarshalText(); string(again) != string(text) {
		t.Fatalf("text form does not go back to itself:\n%s\n%s", text, again)
	}
	// While down: a rotated (its rest in a.log.1), c appears.
	write(t, fa, "a3\n")
	rename(t, a, a+".1")
	write(t, logFile(t, a), "a4\n")
	writeFile(t, filepath.Join(dir, "c.log"), "c1\n")
	tl = startMany(t, pat, linereader.Options{}, ManyOptions{Resume: &back}, true).run()
	// Line numbers count from 1 again, as Open's do after a resume.
	tl.expectSet(t, mRec{"a.log", "a3\n", 6, 1}, mRec{"a.log", "a4\n", 0, 2}, mRec{"b.log", "b1\n", 0, 1}, mRec{"c.log", "c1\n", 0, 1})
	tl.quiet(t, 50*time.Millisecond)
}

// A state text that is not one is refused, naming its line; a name twice too.
func TestStateUnmarshalRefuses(t *testing.T) {
	cp := Checkpoint{Name: "/x/a.log", Offset: 3, tail: digestOf(nil), head: digestOf([]byte("abc"))}
	line, err := cp.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{"garbage\n", "line 1: follow: not a checkpoint"},
		{string(line) + "\n\nfoo", "line 3: follow: not a checkpoint"},
		{string(line) + "\n" + string(line) + "\n", `line 2: follow: "/x/a.log" has a checkpoint already`},
	} {
		var s State
		err := s.UnmarshalText([]byte(tc.text))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("UnmarshalText(%q): %v, want %q...", tc.text, err, tc.want)
		}
	}
	var s State
	if err := s.UnmarshalText(nil); err != nil || s.Len() != 0 {
		t.Errorf("empty text: %v, %d checkpoints", err, s.Len())
	}
}

// Issue 44 item 7: a file that cannot be read is told to Warn once and the others go on
// (a directory the pattern matches, a FIFO, a file without permission); it is followed
// once its name names a file that can be read.
func TestManyUnreadable(t *testing.T) {
	fifo := testfifo.Make(t, "p.log")
	dir := filepath.Dir(fifo)
	if err := os.Mkdir(filepath.Join(dir, "d.log"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "a.log"), "a1\n")
	tl := startMany(t, []string{filepath.Join(dir, "*.log")}, linereader.Options{}, ManyOptions{}, true).run()
	tl.expect(t, mRec{"a.log", "a1\n", 0, 1})
	tl.warned(t, "d.log: follow "+filepath.Join(dir, "d.log")+": is a directory")
	tl.warned(t, "p.log: follow "+fifo+": not a regular file")
	write(t, logFile(t, filepath.Join(dir, "a.log")), "a2\n")
	tl.expect(t, mRec{"a.log", "a2\n", 3, 2})
	// The FIFO replaced by a file: followed.
	if err := os.Remove(fifo); err != nil {
		t.Fatal(err)
	}
	writeFile(t, fifo, "p1\n")
	tl.expect(t, mRec{"p.log", "p1\n", 0, 1})
	tl.quiet(t, 3*testPoll)
	select {
	case w := <-tl.warns:
		t.Fatalf("told again: %q", w)
	default:
	}
}

// A file the Many has no permission to read is told once, and followed once it may be.
func TestManyPermissionDenied(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "s.log")
	writeFile(t, secret, "s1\n")
	if err := os.Chmod(secret, 0); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Open(secret); err == nil {
		f.Close()
		t.Skip("running as a user who reads any file")
	}
	tl := startMany(t, []string{filepath.Join(dir, "*.log")}, linereader.Options{}, ManyOptions{}, true).run()
	tl.warned(t, "s.log: open "+secret+": permission denied")
	if err := os.Chmod(secret, 0o644); err != nil {
		t.Fatal(err)
	}
	tl.expect(t, mRec{"s.log", "s1\n", 0, 1})
}

// Without Warn, a file that cannot be read is OpenMany's error, as it is Open's.
func TestManyWithoutWarn(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d.log"), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := OpenMany(t.Context(), []string{filepath.Join(dir, "*.log")}, linereader.Options{}, ManyOptions{})
	if err == nil {
		m.Close()
		t.Fatal("OpenMany of a directory without Warn: no error")
	}
}

// A pattern that matches nothing waits for files; a directory removed and made again is
// watched again; a pattern with ** finds files in directories made later, at any depth.
func TestManyDirectories(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		top := t.TempDir()
		logs := filepath.Join(top, "logs")
		tl := startMany(t, []string{filepath.Join(logs, "*.log"), filepath.Join(top, "svc", "**", "*.log")},
			linereader.Options{}, ManyOptions{}, notify).run()
		tl.quiet(t, 3*testPoll)
		if err := os.Mkdir(logs, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(logs, "a.log"), "a1\n")
		tl.expect(t, mRec{"a.log", "a1\n", 0, 1})
		if err := os.RemoveAll(logs); err != nil {
			t.Fatal(err)
		}
		tl.quiet(t, 3*testPoll)
		if err := os.Mkdir(logs, 0o755); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * testPoll) // the poll finds the directory made again
		writeFile(t, filepath.Join(logs, "b.log"), "b1\n")
		tl.expect(t, mRec{"b.log", "b1\n", 0, 1})
		deep := filepath.Join(top, "svc", "x", "y")
		if err := os.MkdirAll(deep, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(deep, "c.log"), "c1\n")
		tl.expect(t, mRec{"c.log", "c1\n", 0, 1})
		writeFile(t, filepath.Join(top, "svc", "d.log"), "d1\n")
		tl.expect(t, mRec{"d.log", "d1\n", 0, 1})
	})
}

// Exclude leaves names out; a file met under two names (a hard link) is read once.
func TestManyExcludeAndLinks(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.log"), "a1\n")
	writeFile(t, filepath.Join(dir, "old.log"), "o1\n")
	if err := os.Link(filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")); err != nil {
		t.Skip("no hard links here:", err)
	}
	tl := startMany(t, []string{filepath.Join(dir, "*.log")}, linereader.Options{}, ManyOptions{Exclude: []string{"old.*"}}, true).run()
	tl.expect(t, mRec{"a.log", "a1\n", 0, 1})
	write(t, logFile(t, filepath.Join(dir, "b.log")), "a2\n")
	tl.expect(t, mRec{"a.log", "a2\n", 3, 2})
	tl.quiet(t, 100*time.Millisecond)
}

// Idle is called when every file has been read and the Many waits, on the goroutine that
// iterates; Moved when a name's reading moves to another file, before any record of it.
func TestManyIdleMoved(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.log")
	fa := logFile(t, a)
	write(t, fa, "1\n")
	var events []string
	tl := startMany(t, []string{a}, linereader.Options{}, ManyOptions{}, true)
	tl.m.mo.Idle = func() { events = append(events, "idle") }
	tl.m.mo.Moved = func() { events = append(events, "moved") }
	tl.body = func(r mRec) { events = append(events, r.rec) }
	tl.run()
	tl.expect(t, mRec{"a.log", "1\n", 0, 1})
	rename(t, a, a+".1")
	write(t, logFile(t, a), "2\n")
	tl.expect(t, mRec{"a.log", "2\n", 0, 2})
	tl.m.Close()
	tl.ended(t)
	got := strings.Join(slices.Compact(events), " ")
	if !strings.HasPrefix(got, "1\n idle") || !strings.Contains(got, "moved 2\n") {
		t.Fatalf("events %q: want the record, idle, ..., moved before the next file's record", got)
	}
}
