package follow

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// resumeRec is a record of the resume scenarios: its number and the file it was
// written to, so that a record cut at the wrong place or read twice shows.
func resumeRec(seq int, file string) string {
	return fmt.Sprintf("seq=%04d %s %s\n", seq, file, strings.Repeat("y", seq%17))
}

// appendRecs appends records from..to-1 to the file at name, made if missing: made in a
// later tick of the file system's clock than the files beside it, so that the order they
// were made in is the order of their birth times (files born in one tick are ordered by
// a guess; see file.compare).
func appendRecs(t *testing.T, name string, from, to int) {
	t.Helper()
	if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
		laterTick(t, filepath.Dir(name))
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := from; i < to; i++ {
		write(t, f, resumeRec(i, filepath.Base(name)))
	}
}

// laterTick waits until a file made in dir is born later than every file there.
func laterTick(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var newest time.Time
	for _, e := range entries {
		if fl, err := openFile(newHandles(nil), filepath.Join(dir, e.Name())); err == nil {
			if fl.born.After(newest) {
				newest = fl.born
			}
			fl.close()
		}
	}
	probe := filepath.Join(dir, ".tick")
	for deadline := time.Now().Add(followDeadline); ; {
		fl, err := os.Create(probe)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := fl.Stat()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := born(fl, fi)
		fl.Close()
		os.Remove(probe)
		if b.After(newest) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the file system's clock did not pass %v within %v", newest, followDeadline)
		}
		time.Sleep(time.Millisecond)
	}
}

// takeN reads n records from r with Next and returns them, failing the test if the
// loop ends first.
func takeN(t *testing.T, r *Reader, n int) []string {
	t.Helper()
	var got []string
	for len(got) < n {
		if !r.Next() {
			t.Fatalf("the loop ended after %d of %d records: %v", len(got), n, r.Err())
		}
		got = append(got, r.Text())
	}
	return got
}

// checkpointAfter follows name from its start, takes n records, and returns the
// checkpoint after them, through its text form, as a program stores it.
func checkpointAfter(t *testing.T, name string, n int) *Checkpoint {
	t.Helper()
	r, err := Open(t.Context(), name, linereader.Options{}, Options{Poll: testPoll})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	takeN(t, r, n)
	text, err := r.Checkpoint().MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	var cp Checkpoint
	if err := cp.UnmarshalText(text); err != nil {
		t.Fatalf("UnmarshalText(%q): %v", text, err)
	}
	return &cp
}

// resumeExpect resumes from cp and checks the next records against want; a follower
// that does not yield them within followDeadline fails the test.
func resumeExpect(t *testing.T, cp *Checkpoint, want []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), followDeadline)
	defer cancel()
	r, err := Open(ctx, "", linereader.Options{}, Options{Resume: cp, Poll: testPoll})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := takeN(t, r, len(want))
	if !slices.Equal(got, want) {
		t.Fatalf("resumed with\n%q\nwant\n%q", got, want)
	}
}

// recs returns the records seq from..to-1 as written to file.
func recs(file string, from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, resumeRec(i, file))
	}
	return out
}

// run runs a command (a compressor, as log rotation runs one), skipping the test when
// it is not installed or fails: a tool that did not do its job is no fault of the
// reader's.
func run(t *testing.T, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(args[0]); err != nil {
		t.Skipf("%s is not installed", args[0])
	}
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Skipf("%v did not run: %v: %s", args, err, out)
	}
}

// The file at the name is still the checkpoint's: reading goes on at its offset.
func TestResumeSameFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 10)
	cp := checkpointAfter(t, name, 4)
	appendRecs(t, name, 10, 12)
	resumeExpect(t, cp, recs("app.log", 4, 12))
}

// Regression test for the checkpoint that was an offset without a file (round 3: after
// a rotation while the program was down, the rest of the old file was lost and the new
// file was read from the old offset, a record cut): rotated once, twice, with numbered
// shifting, a date suffix, and written to after the rename.
func TestResumeAfterRotation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rotate func(t *testing.T, name string) []string // returns the records expected
	}{
		{"renamed", func(t *testing.T, name string) []string {
			rename(t, name, name+".1")
			appendRecs(t, name+".1", 10, 12) // the logger writes on until it reopens
			appendRecs(t, name, 12, 15)
			return append(recs("app.log", 4, 10), append(recs("app.log.1", 10, 12), recs("app.log", 12, 15)...)...)
		}},
		{"shifted twice", func(t *testing.T, name string) []string {
			rename(t, name, name+".1")
			appendRecs(t, name, 10, 13)
			rename(t, name+".1", name+".2")
			rename(t, name, name+".1")
			appendRecs(t, name, 13, 15)
			return append(recs("app.log", 4, 13), recs("app.log", 13, 15)...)
		}},
		{"date suffix", func(t *testing.T, name string) []string {
			rename(t, name, name+"-20261201")
			appendRecs(t, name, 10, 13)
			return append(recs("app.log", 4, 10), recs("app.log", 10, 13)...)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "app.log")
			appendRecs(t, name, 0, 10)
			cp := checkpointAfter(t, name, 4)
			resumeExpect(t, cp, tc.rotate(t, name))
		})
	}
}

// The checkpoint's file rotated and compressed while the program was down (logrotate's
// compress, and delaycompress's next rotation): its rest is read decompressed from the
// offset, then the files after it, then the file at the name.
func TestResumeCompressed(t *testing.T) {
	for _, tc := range []struct{ tool, ext string }{
		{"gzip", ".gz"}, {"zstd", ".zst"}, {"xz", ".xz"}, {"bzip2", ".bz2"}, {"lz4", ".lz4"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "app.log")
			appendRecs(t, name, 0, 300)
			cp := checkpointAfter(t, name, 120)
			rename(t, name, name+".1")
			appendRecs(t, name, 300, 310)
			// delaycompress: .1 becomes .2 and is compressed at the next rotation.
			rename(t, name+".1", name+".2")
			rename(t, name, name+".1")
			appendRecs(t, name, 310, 315)
			args := []string{tc.tool, "-q", name + ".2"}
			switch tc.tool { // they keep the input without --rm
			case "zstd":
				args = []string{tc.tool, "-q", "--rm", name + ".2", "-o", name + ".2" + tc.ext}
			case "lz4":
				args = []string{tc.tool, "-q", "--rm", name + ".2", name + ".2" + tc.ext}
			}
			run(t, args...)
			if _, err := os.Stat(name + ".2" + tc.ext); err != nil {
				t.Fatal(err)
			}
			resumeExpect(t, cp, append(recs("app.log", 120, 310), recs("app.log", 310, 315)...))
		})
	}
}

// copytruncate while the program was down: the file at the name is the checkpoint's
// file by identity but holds other bytes; the copy is found by its content.
func TestResumeCopyTruncate(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 10)
	cp := checkpointAfter(t, name, 4)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name+".1", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, 0); err != nil {
		t.Fatal(err)
	}
	appendRecs(t, name, 10, 30) // longer than the offset: its size does not tell
	resumeExpect(t, cp, append(recs("app.log", 4, 10), recs("app.log", 10, 30)...))
}

// A file replaced at the name by another with other content, where the old one is
// found nowhere (deleted, or its inode given to the new one): the new file is read from
// its start, never from the middle of one of its records.
func TestResumeReplaced(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 10)
	cp := checkpointAfter(t, name, 4)
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	appendRecs(t, name, 100, 130)
	resumeExpect(t, cp, recs("app.log", 100, 130))
}

// Written over in place with other content of the same length or longer (the same
// inode): read from its start.
func TestResumeRewrittenInPlace(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 10)
	cp := checkpointAfter(t, name, 4)
	if err := os.Truncate(name, 0); err != nil {
		t.Fatal(err)
	}
	appendRecs(t, name, 500, 530)
	resumeExpect(t, cp, recs("app.log", 500, 530))
}

// A checkpoint taken while the chain is read, in a rotated file, is resumed in it.
func TestCheckpointInRotatedFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	appendRecs(t, name, 0, 10)
	r, err := Open(t.Context(), name, linereader.Options{}, Options{Poll: testPoll})
	if err != nil {
		t.Fatal(err)
	}
	takeN(t, r, 2)
	rename(t, name, name+".1")
	appendRecs(t, name, 10, 20)
	takeN(t, r, 3)
	cp := r.Checkpoint()
	r.Close()
	if cp.Offset != int64(len(strings.Join(recs("app.log", 0, 5), ""))) {
		t.Fatalf("checkpoint offset %d", cp.Offset)
	}
	resumeExpect(t, &cp, append(recs("app.log", 5, 10), recs("app.log", 10, 20)...))
}

func TestCheckpointText(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a \"log\"\n")
	appendRecs(t, name, 0, 3)
	r, err := Open(t.Context(), name, linereader.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	takeN(t, r, 2)
	cp := r.Checkpoint()
	text, err := cp.MarshalText()
	if err != nil || strings.ContainsAny(string(text), "\n") {
		t.Fatalf("MarshalText = %q, %v: want one line", text, err)
	}
	var back Checkpoint
	if err := back.UnmarshalText(text); err != nil || back != cp {
		t.Fatalf("UnmarshalText(%q) = %+v, %v; want %+v", text, back, err, cp)
	}
	for _, bad := range []string{
		"", "hello", "foreach-follow/1 off=1", "foreach-follow/2 " + string(text[len("foreach-follow/1 "):]),
		strings.Replace(string(text), "off=", "off=-", 1), strings.Replace(string(text), "off=", "off=x", 1),
		strings.Replace(string(text), " tail=", " off=3 tail=", 1), strings.Replace(string(text), "head=", "head=9999", 1),
		strings.Replace(string(text), "name=\"", "name=", 1),
	} {
		var c Checkpoint
		if err := c.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) = nil, want an error", bad)
		}
	}
	if _, err := (Checkpoint{}).MarshalText(); err == nil {
		t.Error("MarshalText of the zero Checkpoint: want an error")
	}
	if _, err := Open(t.Context(), "", linereader.Options{}, Options{Resume: &Checkpoint{}}); err == nil {
		t.Error("Open with the zero Checkpoint: want an error")
	}
}

// TestCheckpointInodeGivenAgain: a file made after the checkpoint's file was last
// modified is not the checkpoint's file, though it has its device and inode (freed, and
// given again), and though the checkpoint holds no bytes to compare (taken before
// anything was read). The model-based test found the resume reading such a file from
// its start, and the records of the file rotated away while the follower was down lost.
func TestCheckpointInodeGivenAgain(t *testing.T) {
	name := filepath.Join(t.TempDir(), "app.log")
	if err := os.WriteFile(name, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHandles(nil)
	defer h.closeAll()
	fl, err := openFile(h, name)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := fileID(fl.id)
	if !ok || !fl.birth {
		t.Skip("no inode numbers or no birth times on this file system")
	}
	cp := &Checkpoint{Name: name, id: id, hasID: true, mod: fl.born, hasMod: true}
	if !cp.idOf(fl) {
		t.Fatal("the checkpoint's own file, born at its modification time, is not its file")
	}
	cp.mod = fl.born.Add(-time.Millisecond) // the file was made after the checkpoint's was modified
	if cp.idOf(fl) {
		t.Fatal("a file made after the checkpoint's file was modified taken for it by its inode")
	}
	cp.hasMod = false // a checkpoint of round 4: identity alone
	if !cp.idOf(fl) {
		t.Fatal("without a time, the inode is the identity")
	}
}
