package follow

// Following that a crash cannot fool (issue 38): a checkpoint from the first moment, a
// resume in order across rotations of every scheme while the program was down, and a
// follower that was stopped (SIGSTOP, or left without a core) while files were rotated,
// compressed or truncated under it.

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// copyTruncate does what logrotate's copytruncate does to name: copies it to dst (the
// copy made now, with its own times), then truncates it. It is made in a later tick of
// the file system's clock than the files beside it, so that its time orders it.
func copyTruncate(t *testing.T, name, dst string) {
	t.Helper()
	laterTick(t, filepath.Dir(name))
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, 0); err != nil {
		t.Fatal(err)
	}
}

// gzipFile compresses path to path.gz and removes path, keeping its modification time,
// as gzip and logrotate's compress do.
func gzipFile(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	if err := os.WriteFile(path+".gz", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path+".gz", fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// cat returns the records lists joined, each list in turn.
func cat(lists ...[]string) []string { return slices.Concat(lists...) }

// Regression test for the copies read out of order (issue 38: after two or more
// copytruncate rotations while the program was down, the restart read the rest of the
// checkpoint's copy, then the file at the name, then the copy made after it: the file at
// the name, made when the log began, was ordered by its birth among the copies): the
// rest of the checkpoint's copy, then every copy made after it, then the file at the
// name.
func TestResumeCopyTruncateTwice(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 10)
	cp := checkpointAfter(t, name, 4)
	copyTruncate(t, name, name+".1")
	appendRecs(t, name, 10, 14)
	rename(t, name+".1", name+".2")
	copyTruncate(t, name, name+".1")
	appendRecs(t, name, 14, 17)
	copyTruncate(t, name, name+".0")
	appendRecs(t, name, 17, 19)
	resumeExpect(t, cp, recs("app.log", 4, 19))
}

// Regression test for the files lost after the checkpoint's file was deleted (round 4
// read the file at the name from its start, and what was rotated in between was lost):
// the files modified after the checkpoint's file was are read, oldest first.
func TestResumeCheckpointFileDeleted(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 10)
	cp := checkpointAfter(t, name, 4)
	rename(t, name, name+".1")
	appendRecs(t, name, 10, 14)
	rename(t, name+".1", name+".2")
	rename(t, name, name+".1")
	appendRecs(t, name, 14, 17)
	if err := os.Remove(name + ".2"); err != nil { // rotate 1: the checkpoint's file deleted
		t.Fatal(err)
	}
	resumeExpect(t, cp, recs("app.log", 10, 17))
}

// Regression test for the records lost when the program was killed before its first
// save (issue 38): a checkpoint taken before any record, of a file still empty, finds
// what was written after it, whether the file was renamed away or copied and truncated
// while the program was down; one taken at the end (Start -1) names the end.
func TestCheckpointBeforeFirstRecord(t *testing.T) {
	first := func(t *testing.T, name string, fo Options) *Checkpoint {
		t.Helper()
		r, err := Open(t.Context(), name, linereader.Options{}, fo)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cp := r.Checkpoint()
		return &cp
	}
	t.Run("renamed", func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "app.log")
		appendRecs(t, name, 0, 0)
		cp := first(t, name, Options{})
		appendRecs(t, name, 0, 5)
		rename(t, name, name+".1")
		appendRecs(t, name, 5, 8)
		resumeExpect(t, cp, recs("app.log", 0, 8))
	})
	t.Run("copytruncate", func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "app.log")
		appendRecs(t, name, 0, 0)
		cp := first(t, name, Options{})
		appendRecs(t, name, 0, 5)
		copyTruncate(t, name, name+".1")
		appendRecs(t, name, 5, 8)
		resumeExpect(t, cp, recs("app.log", 0, 8))
	})
	t.Run("from the end", func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "app.log")
		appendRecs(t, name, 0, 3)
		cp := first(t, name, Options{Start: -1})
		if want := sizeOf(recs("app.log", 0, 3)); cp.Offset != want {
			t.Fatalf("Checkpoint before the first record: offset %d, want %d", cp.Offset, want)
		}
		appendRecs(t, name, 3, 5)
		resumeExpect(t, cp, recs("app.log", 3, 5))
	})
}

// Moved is called each time reading moves to another file, before its first record,
// and Checkpoint then names that file at its start.
func TestFollowMoved(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 3)
	var moves []Checkpoint
	var r *Reader
	r, err := Open(t.Context(), name, linereader.Options{}, Options{Poll: testPoll, Moved: func() { moves = append(moves, r.Checkpoint()) }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	takeN(t, r, 3)
	rename(t, name, name+".1")
	appendRecs(t, name, 3, 5)
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if got := takeN(t, r, 2); !slices.Equal(got, recs("app.log", 3, 5)) {
		t.Fatalf("after the rotation: %q", got)
	}
	id, _ := fileID(fi)
	if len(moves) != 1 || moves[0].Offset != 0 || moves[0].id != id {
		t.Fatalf("Moved's checkpoints %+v, want one at offset 0 of %v", moves, id)
	}
}

// Stopped while caught up, the log copied and truncated with records not read yet in
// it, and written again: those records are read from the copy, at their offsets, before
// the new ones (round 4 lost them: a running follower did not read copies).
func TestFollowCopyTruncateWhileStopped(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "app.log")
		appendRecs(t, name, 0, 4)
		tl := startTailer(t, t.Context(), name, linereader.Options{Chomp: true}, Options{Poll: testPoll}, notify).run()
		tl.expect(t, chomped(recs("app.log", 0, 4), 0, 1)...)
		tl.hold(t, func() {
			appendRecs(t, name, 4, 7)
			copyTruncate(t, name, name+".1")
			appendRecs(t, name, 7, 9)
		})
		tl.expect(t, chomped(recs("app.log", 4, 7), sizeOf(recs("app.log", 0, 4)), 5)...)
		tl.expect(t, chomped(recs("app.log", 7, 9), 0, 8)...)
	})
}

// chomped is want as a Chomp follower yields it, the first at offset off and line
// number line.
func chomped(want []string, off int64, line int) []fRec {
	var out []fRec
	for i, w := range want {
		out = append(out, fRec{w[:len(w)-1], off, int64(line + i)})
		off += int64(len(w))
	}
	return out
}

// sizeOf is the length of the records joined.
func sizeOf(recs []string) int64 {
	var n int64
	for _, r := range recs {
		n += int64(len(r))
	}
	return n
}

// Stopped while reading a file, the log rotated twice and the middle file compressed
// (logrotate's compress) before the follower ever opened it: the compressed file is
// read, decompressed, between the two (round 4 took every compressed file beside the
// name for a copy of a file read).
func TestFollowCompressedWhileStopped(t *testing.T) {
	modes(t, func(t *testing.T, notify bool) {
		name := filepath.Join(t.TempDir(), "app.log")
		appendRecs(t, name, 0, 4)
		tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, notify).run()
		for range 4 {
			tl.next(t)
		}
		tl.hold(t, func() {
			rename(t, name, name+".1")
			appendRecs(t, name, 4, 8)
			rename(t, name+".1", name+".2")
			rename(t, name, name+".1")
			gzipFile(t, name+".1")
			appendRecs(t, name, 8, 10)
		})
		var got []string
		for range 6 {
			r, _ := tl.next(t)
			got = append(got, r.rec)
		}
		if want := recs("app.log", 4, 10); !slices.Equal(got, want) {
			t.Fatalf("after the stop: %q, want %q", got, want)
		}
	})
}

// A file beside the name that begins with the same header as the file read, listed while
// it holds the header alone, is read once it has records (round 4 took it for a copy
// when first listed, knew it so, and never read it).
func TestFollowSharedHeaderIsNotACopy(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.log")
	if err := os.WriteFile(name, []byte(csvLog(0, 50)), 0o644); err != nil {
		t.Fatal(err)
	}
	tl := startTailer(t, t.Context(), name, linereader.Options{}, Options{Poll: testPoll}, true).run()
	for range 51 {
		tl.next(t)
	}
	var b *os.File
	tl.hold(t, func() {
		rename(t, name, name+".1")
		laterTick(t, dir)
		var err error
		if b, err = os.OpenFile(name+".2", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
			t.Fatal(err)
		}
		write(t, b, csvLog(0, 0)) // the header alone, so far
		laterTick(t, dir)
		if err := os.WriteFile(name, []byte(csvLog(900, 901)), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	write(t, b, csvLog(100, 103)[len(csvLog(0, 0)):])
	b.Close()
	var got []string
	for range 6 { // the header and 3 records, and the new file's header and record
		r, _ := tl.next(t)
		got = append(got, r.rec)
	}
	want := append(lines(csvLog(100, 103)), lines(csvLog(900, 901))...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("records %q, want %q", got, want)
	}
}

// lines cuts s into its lines, each with its newline.
func lines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := bytes.IndexByte([]byte(s), '\n') + 1
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}
