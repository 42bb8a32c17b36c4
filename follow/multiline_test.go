package follow

// Records of many lines while following (Options.Flush): a record is never split by a
// read boundary, a record with no next line is yielded after Flush of quiet, a
// checkpoint never points inside a record, a rotation ends the old file's last record.
// No test asserts a time: a "long" Flush is far longer than any test, so that only the
// next line can end a record, and a short one is only waited for, with followDeadline.

import (
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// stackLog is the entries of a log with stack traces, CRLF, each a record.
var stackLog = []string{
	"2026-01-01 ERROR x\r\n\tat a.b(c.java:1)\r\n\tat d.e(f.java:2)\r\n",
	"2026-01-01 INFO y\r\n",
	"2026-01-01 ERROR z\r\n\tat g.h(i.java:3)\r\n",
}

// stackEnd is a line that begins an entry: written after stackLog, it ends its last.
const stackEnd = "2026-01-02 INFO end\r\n"

// longFlush is a Flush no test waits for: only the next line ends a record.
const longFlush = time.Hour

// shortFlush is a Flush the tests wait for (never measured).
const shortFlush = 20 * time.Millisecond

func stackOptions() linereader.Options {
	return linereader.Options{Multiline: &linereader.Multiline{Start: regexp.MustCompile(`^\d{4}-\d\d-\d\d `)}}
}

// stackRecords are the records of entries as a follower yields them from offset 0, the
// first numbered first.
func stackRecords(entries []string, first int64) []fRec {
	var recs []fRec
	var off int64
	for i, e := range entries {
		recs = append(recs, fRec{e, off, first + int64(i)})
		off += int64(len(e))
	}
	return recs
}

// Written one byte at a time, each byte read on its own (every cut of the entries is a
// read boundary), the entries come out whole and in order: each when the next entry's
// first line arrives.
func TestFollowMultilineByteByByte(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		tl := startTailer(t, t.Context(), name, stackOptions(), Options{Poll: testPoll, Flush: longFlush}, notify).run()
		text := strings.Join(stackLog, "") + stackEnd
		for i := range len(text) {
			write(t, f, text[i:i+1])
			tl.waitRead(t, name, int64(i+1))
		}
		tl.expect(t, stackRecords(stackLog, 1)...)
		select {
		case r := <-tl.recs:
			t.Fatalf("record %+v before its next line or Flush", r)
		default:
		}
	})
}

// Written in pieces cut at random, also inside lines and between "\r" and "\n", and with
// records' lines spread over writes, the entries come out whole and in order.
func TestFollowMultilinePieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 6))
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	tl := startTailer(t, t.Context(), name, stackOptions(), Options{Poll: testPoll, Flush: longFlush}, true).run()
	var entries []string
	for range 20 {
		entries = append(entries, stackLog...)
	}
	text := []byte(strings.Join(entries, "") + stackEnd)
	if err := writePieces(f, text, rng); err != nil {
		t.Fatal(err)
	}
	tl.expect(t, stackRecords(entries, 1)...)
}

// A record whose next line does not come is yielded after Flush of quiet, whole; lines
// written after it are records of their own (the first of them begins one, as the lines
// before a file's first beginning do).
func TestFollowMultilineFlush(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		write(t, f, stackLog[0])
		tl := startTailer(t, t.Context(), name, stackOptions(), Options{Poll: testPoll, Flush: shortFlush}, notify).run()
		tl.expect(t, fRec{stackLog[0], 0, 1})
		// An incomplete line is waited for whatever Flush says: it may begin a record.
		write(t, f, "\tat late.line(")
		tl.waitRead(t, name, int64(len(stackLog[0]))+14)
		write(t, f, "x.java:9)\r\n")
		tl.expect(t, fRec{"\tat late.line(x.java:9)\r\n", int64(len(stackLog[0])), 2})
	})
}

// A checkpoint taken while a record is held names its start: Open resumed from it yields
// that record whole, once, then what follows.
func TestFollowMultilineCheckpoint(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f := logFile(t, name)
	write(t, f, stackLog[0]+stackLog[1])
	r, err := Open(t.Context(), name, stackOptions(), Options{Flush: longFlush})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Next() || string(r.Bytes()) != stackLog[0] {
		t.Fatalf("first record %q (Err %v), want %q", r.Bytes(), r.Err(), stackLog[0])
	}
	cp := r.Checkpoint()
	r.Close()
	if want := int64(len(stackLog[0])); cp.Offset != want {
		t.Fatalf("checkpoint at %d while the second record is held, want its start %d", cp.Offset, want)
	}
	write(t, f, stackLog[2])
	tl := startTailer(t, t.Context(), name, stackOptions(), Options{Resume: &cp, Poll: testPoll, Flush: shortFlush}, true).run()
	recs := stackRecords(stackLog, 0)[1:]
	tl.expect(t, recs...)
	write(t, f, stackEnd)
	tl.expect(t, fRec{stackEnd, int64(len(strings.Join(stackLog, ""))), 3})
}

// Rotation in the middle of an entry: the lines the writer still appends to the old file
// join its last entry, which the move to the new file ends at once (no Flush is waited
// for); lines that continue it in the new file are a record of their own.
func TestFollowMultilineRotation(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "log")
		old := logFile(t, name)
		write(t, old, stackLog[1]+"2026-01-01 ERROR r\r\n")
		tl := startTailer(t, t.Context(), name, stackOptions(), Options{Poll: testPoll, Flush: longFlush}, notify).run()
		tl.expect(t, fRec{stackLog[1], 0, 1})
		rename(t, name, name+".1")
		write(t, old, "\tat old.file(a.java:1)\r\n")
		cur := logFile(t, name)
		const cont = "\tat new.file(b.java:2)\r\n"
		write(t, cur, cont+stackLog[1]+stackEnd)
		tl.expect(t,
			fRec{"2026-01-01 ERROR r\r\n\tat old.file(a.java:1)\r\n", int64(len(stackLog[1])), 2},
			fRec{cont, 0, 3},
			fRec{stackLog[1], int64(len(cont)), 4})
	})
}

// A Many holds each file's record until its next line or Flush, whatever turns it takes:
// the entries of two files written in pieces come out whole, each file's in order, and a
// record with no next line is yielded after Flush; State taken while a record is held
// names its start, and a Many resumed from it yields the record once, whole. (A line
// being written is never flushed: the pieces end inside lines, so that the test's own
// pace cannot split an entry.)
func TestManyMultiline(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	fa, fb := logFile(t, a), logFile(t, b)
	tl := startMany(t, []string{filepath.Join(dir, "*.log")}, stackOptions(),
		ManyOptions{Options: Options{Flush: shortFlush}}, true)
	var state *State
	tl.body = func(r mRec) {
		if r.name == "a.log" && r.line == 1 {
			state = tl.m.State()
		}
	}
	tl.run()
	rng := rand.New(rand.NewPCG(45, 7))
	text := strings.Join(stackLog, "")
	for i := 0; i < len(text); {
		// Each piece but the last ends inside a line: however long the test waits
		// between two, no record can be flushed before its lines are all there.
		n := min(1+rng.IntN(7), len(text)-i)
		for i+n < len(text) && text[i+n-1] == '\n' {
			n++
		}
		write(t, fa, text[i:i+n])
		write(t, fb, text[i:i+n])
		i += n
	}
	var want []mRec
	for _, name := range []string{"a.log", "b.log"} {
		for _, r := range stackRecords(stackLog, 1) {
			want = append(want, mRec{name, r.rec, r.off, r.line})
		}
	}
	tl.expectSet(t, want...)
	tl.m.Close()
	tl.ended(t)
	if state == nil {
		t.Fatal("no State taken")
	}
	// The state was taken when a.log's first entry was yielded: its second was held.
	again := startMany(t, []string{filepath.Join(dir, "a.log")}, stackOptions(),
		ManyOptions{Options: Options{Flush: shortFlush}, Resume: state}, true).run()
	rest := stackRecords(stackLog, 0)[1:]
	for _, r := range rest {
		again.expect(t, mRec{"a.log", r.rec, r.off, r.line})
	}
}
