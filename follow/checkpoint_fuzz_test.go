package follow

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// checkpointSeeds are text forms for the fuzzers: one of each shape MarshalText makes,
// and the crafted one of issue 37 (a tail longer than the offset).
var checkpointSeeds = []string{
	`foreach-follow/1 off=12 dev=2049 ino=131 head=12:` + hex16 + ` tail=12:` + hex16 + ` name="app.log"`,
	`foreach-follow/1 off=0 head=0:` + hex16 + ` tail=0:` + hex16 + ` name="a \"log\"\n"`,
	`foreach-follow/1 off=5 head=3:` + hex16 + ` tail=64:` + hex16 + ` name="app.log"`,
}

const hex16 = "000102030405060708090a0b0c0d0e0f"

// FuzzCheckpointText: UnmarshalText refuses a text or gives a checkpoint whose text form
// reads back as the same checkpoint, and which can be matched against any content,
// by offsets and as a stream, without a panic.
func FuzzCheckpointText(f *testing.F) {
	for _, s := range checkpointSeeds {
		f.Add([]byte(s), []byte("hello\nworld\n"))
	}
	f.Fuzz(func(t *testing.T, text, content []byte) {
		var cp Checkpoint
		if cp.UnmarshalText(text) != nil {
			return
		}
		out, err := cp.MarshalText()
		if err != nil {
			t.Fatalf("UnmarshalText(%q) took a checkpoint MarshalText refuses: %v", text, err)
		}
		var back Checkpoint
		if err := back.UnmarshalText(out); err != nil || back != cp {
			t.Fatalf("%q read back from %q as %+v, %v; want %+v", out, text, back, err, cp)
		}
		cp.heldAt(bytes.NewReader(content), int64(len(content)))
		cp.heldStream(bytes.NewReader(content))
	})
}

// FuzzCheckpointMatch: a checkpoint made from content itself (its first headN bytes,
// the tailN bytes before off), as a crafted state file can describe one, passes through
// its text form and is either refused or matched without a panic; one that a Reader
// could have made (the bytes before off are min(off, checkLen) of them) is accepted,
// matches content by offsets and as a stream, and the stream goes on at off.
func FuzzCheckpointMatch(f *testing.F) {
	f.Add([]byte("hello\nworld\n"), uint16(3), uint8(64), int64(5))
	f.Add([]byte("hello\nworld\n"), uint16(12), uint8(6), int64(12))
	f.Add(bytes.Repeat([]byte("x\n"), 700), uint16(1024), uint8(64), int64(1100))
	f.Fuzz(func(t *testing.T, content []byte, headN uint16, tailN uint8, off int64) {
		if off < 0 || off > int64(len(content))+1 {
			return
		}
		h := min(int(headN)%(headLen+1), len(content))
		k := min(int64(tailN)%(checkLen+1), off)
		lo := max(0, min(off, int64(len(content)))-k)
		c := Checkpoint{Name: "x", Offset: off, head: digestOf(content[:h]),
			tail: digestOf(content[lo:min(off, int64(len(content)))])}
		c.tail.n = int(tailN) % (checkLen + 1) // what the text says, whatever the bytes
		text, err := c.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var cp Checkpoint
		if err := cp.UnmarshalText(text); err != nil {
			if int64(c.tail.n) <= c.Offset {
				t.Fatalf("UnmarshalText(%q): %v", text, err)
			}
			return
		}
		real := off <= int64(len(content)) && int64(cp.tail.n) == min(off, checkLen)
		if ok := cp.heldAt(bytes.NewReader(content), int64(len(content))); real && !ok {
			t.Fatalf("%q does not match its own content by offsets", text)
		}
		rest, ok := cp.heldStream(bytes.NewReader(content))
		if !real {
			return
		}
		if !ok {
			t.Fatalf("%q does not match its own content as a stream", text)
		}
		if b, _ := io.ReadAll(rest); !bytes.Equal(b, content[off:]) {
			t.Fatalf("%q: the stream goes on with %q, want %q", text, b, content[off:])
		}
	})
}

// FuzzStateText: a State's UnmarshalText refuses a text or gives a state whose text form
// reads back as the same state, one line per name, sorted.
func FuzzStateText(f *testing.F) {
	for _, s := range checkpointSeeds {
		f.Add([]byte(s + "\n" + s + "\n"))
		f.Add([]byte(s + "\r\n\n"))
	}
	f.Add([]byte(checkpointSeeds[0] + "\n" + checkpointSeeds[1]))
	f.Fuzz(func(t *testing.T, text []byte) {
		var s State
		if s.UnmarshalText(text) != nil {
			return
		}
		out, err := s.MarshalText()
		if err != nil {
			t.Fatalf("UnmarshalText(%q) took a state MarshalText refuses: %v", text, err)
		}
		var back State
		if err := back.UnmarshalText(out); err != nil {
			t.Fatalf("%q does not read back: %v", out, err)
		}
		again, _ := back.MarshalText()
		if !bytes.Equal(out, again) || bytes.Count(out, []byte("\n")) != s.Len() {
			t.Fatalf("%q read back as %q", out, again)
		}
	})
}

// FuzzPattern: a pattern of OpenMany is refused or compiled, and matching any path with
// it never panics; a pattern of one element without "**" matches a name as
// filepath.Match does.
func FuzzPattern(f *testing.F) {
	for _, s := range []string{"*.log", "logs/**/*.log", "/var/log/svc-[0-9]/app.log", "a/**", `x\*y`, "[", "**/**/x"} {
		f.Add(s, "logs/a/b.log")
	}
	f.Fuzz(func(t *testing.T, text, path string) {
		p, err := compilePattern(text)
		if err != nil {
			return
		}
		elems := splitClean(path)
		p.matches(elems)
		p.descends(elems)
		if len(p.elems) == 1 && p.elems[0] != "**" && p.root == "." && !strings.ContainsAny(text, `/\`) && !strings.ContainsRune(path, '/') {
			want, _ := filepath.Match(text, path)
			if got := p.matches([]string{path}); got != want && path != "" {
				t.Fatalf("%q matches %q: %v, filepath.Match says %v", text, path, got, want)
			}
		}
	})
}
