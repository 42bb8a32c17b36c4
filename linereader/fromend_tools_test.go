package linereader

// Reading from the end against the tools users know: the records of NewBackward,
// concatenated, are what tac (tac -s SEP) prints, and those of NewTail what tail -n N
// (tail -z -n N for NUL) prints, on random inputs. The tests are skipped where the
// tools are not installed.

import (
	"bytes"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"testing"
)

// toolOutput runs the named tool with args on in and returns its output; it skips the
// test when the tool is not installed.
func toolOutput(t *testing.T, in []byte, name string, args ...string) []byte {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed", name)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out
}

// concatenated reads every record of r and returns them back to back.
func concatenated(t *testing.T, r *Reader) []byte {
	t.Helper()
	var b bytes.Buffer
	for rec := range r.Views() {
		b.Write(rec)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestBackwardMatchesTac(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 6))
	for _, sep := range []string{"\n", "\r\n", "ab", "abc", "x"} {
		for range 20 {
			in := RandomOver(rng, fromEndAlphabet(sep), rng.IntN(200))
			want := toolOutput(t, in, "tac", "-s", sep)
			for _, bufSize := range []int{1, 4, 0} {
				got := concatenated(t, NewBackward(bytes.NewReader(in), int64(len(in)), Options{Sep: []byte(sep), BufferSize: bufSize}))
				if !bytes.Equal(got, want) {
					t.Fatalf("tac -s %q of %q:\n got %q\nwant %q", sep, in, got, want)
				}
			}
		}
	}
}

func TestTailMatchesTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 7))
	for _, sep := range []string{"\n", "\x00"} {
		for range 20 {
			in := RandomOver(rng, fromEndAlphabet(sep), rng.IntN(200))
			n := rng.IntN(12)
			args := []string{"-n", strconv.Itoa(n)}
			if sep == "\x00" {
				args = append(args, "-z")
			}
			want := toolOutput(t, in, "tail", args...)
			for _, bufSize := range []int{1, 4, 0} {
				got := concatenated(t, NewTail(bytes.NewReader(in), int64(len(in)), n, Options{Sep: []byte(sep), BufferSize: bufSize}))
				if !bytes.Equal(got, want) {
					t.Fatalf("tail %v of %q:\n got %q\nwant %q", args, in, got, want)
				}
			}
		}
	}
}
