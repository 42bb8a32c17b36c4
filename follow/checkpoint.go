package follow

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Checkpoint is a position in a followed file that outlives the program: the file, by
// identity, and the offset just past the last record handled in it. Resuming from one
// (Options.Resume) yields every record written after it exactly once, in order, whole:
//   - from Offset in the file at the name, if it is still the checkpoint's file (same
//     identity, same first bytes, and the bytes just before Offset unchanged);
//   - otherwise from Offset in the checkpoint's file found among the files beside the
//     name whose names begin with the name's own (app.log.1, app.log-20261201,
//     app.log.2.gz), by device and inode, or by its content where those changed (a
//     copy, as copytruncate and compression make; a compressed file is read
//     decompressed, gzip, zstd, xz, bzip2 or lz4), then every file rotated after it,
//     oldest first (by modification time, which log rotation keeps when it
//     compresses), then the file at the name from its start;
//   - if the checkpoint's file is found nowhere, or the file at the name is another file
//     (other content under the same inode: a file replaced, an inode reused), the file
//     at the name from its start: never from the middle of another file's record.
//
// What can still be lost is said in the project's docs/follow.md: the records after
// the checkpoint in a file deleted while the program was down, and what copytruncate
// loses by itself.
//
// The text form (MarshalText) is one line a program stores; UnmarshalText refuses
// anything else with an error. The zero Checkpoint resumes nowhere: Open refuses it.
type Checkpoint struct {
	Name   string // the name followed
	Offset int64  // just past the last record yielded, in the checkpoint's file

	id    devIno // the file's device and inode; hasID false where the platform has none
	hasID bool
	head  digest // the file's first bytes (up to headLen) as known then
	tail  digest // the bytes just before Offset (up to checkLen); for a compressed file, none
}

// checkLen is how many bytes before the offset a checkpoint checks.
const checkLen = 64

// digest stands for n bytes: their SHA-256, cut to 16 bytes.
type digest struct {
	n   int
	sum [16]byte
}

func digestOf(b []byte) digest {
	s := sha256.Sum256(b)
	d := digest{n: len(b)}
	copy(d.sum[:], s[:])
	return d
}

func (d digest) matches(b []byte) bool { return len(b) == d.n && digestOf(b) == d }

// checkpointVersion begins the text form.
const checkpointVersion = "foreach-follow/1"

// MarshalText returns the checkpoint as one line of text, without a newline:
// the version, the offset, the identity, and the quoted name last.
func (c Checkpoint) MarshalText() ([]byte, error) {
	if c.Name == "" || c.Offset < 0 {
		return nil, errors.New("follow: checkpoint without a name or with a negative offset")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s off=%d", checkpointVersion, c.Offset)
	if c.hasID {
		fmt.Fprintf(&b, " dev=%d ino=%d", c.id.dev, c.id.ino)
	}
	fmt.Fprintf(&b, " head=%d:%x tail=%d:%x name=%s", c.head.n, c.head.sum, c.tail.n, c.tail.sum, strconv.Quote(c.Name))
	return b.Bytes(), nil
}

// UnmarshalText sets c from the text MarshalText made; anything else is an error.
func (c *Checkpoint) UnmarshalText(text []byte) error {
	var cp Checkpoint
	s := string(text)
	i := strings.Index(s, " name=")
	if i < 0 {
		return fmt.Errorf("follow: not a checkpoint: %q", text)
	}
	name, err := strconv.Unquote(s[i+len(" name="):])
	if err != nil || name == "" {
		return fmt.Errorf("follow: not a checkpoint (its name): %q", text)
	}
	cp.Name = name
	fields := strings.Split(s[:i], " ")
	if fields[0] != checkpointVersion {
		return fmt.Errorf("follow: not a checkpoint (version %q): %q", fields[0], text)
	}
	seen := map[string]bool{}
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok || seen[k] || cp.set(k, v) != nil {
			return fmt.Errorf("follow: not a checkpoint (%q): %q", f, text)
		}
		seen[k] = true
	}
	if !seen["off"] || !seen["head"] || !seen["tail"] || seen["dev"] != seen["ino"] {
		return fmt.Errorf("follow: not a checkpoint (fields missing): %q", text)
	}
	if int64(cp.tail.n) > cp.Offset {
		// The bytes before Offset cannot be more than Offset: matching them would read
		// before the file's start.
		return fmt.Errorf("follow: not a checkpoint (tail longer than off): %q", text)
	}
	cp.hasID = seen["dev"]
	*c = cp
	return nil
}

// set sets the field k of the text form to v.
func (c *Checkpoint) set(k, v string) error {
	var err error
	switch k {
	case "off":
		c.Offset, err = strconv.ParseInt(v, 10, 64)
		if err == nil && c.Offset < 0 {
			err = errors.New("negative")
		}
	case "dev":
		c.id.dev, err = strconv.ParseUint(v, 10, 64)
	case "ino":
		c.id.ino, err = strconv.ParseUint(v, 10, 64)
	case "head":
		c.head, err = parseDigest(v, headLen)
	case "tail":
		c.tail, err = parseDigest(v, checkLen)
	default:
		err = errors.New("unknown field")
	}
	return err
}

// parseDigest parses "N:HEX", N at most limit.
func parseDigest(v string, limit int) (digest, error) {
	ns, hx, ok := strings.Cut(v, ":")
	n, err := strconv.Atoi(ns)
	if !ok || err != nil || n < 0 || n > limit {
		return digest{}, errors.New("bad length")
	}
	sum, err := hex.DecodeString(hx)
	if err != nil || len(sum) != 16 {
		return digest{}, errors.New("bad digest")
	}
	d := digest{n: n}
	copy(d.sum[:], sum)
	return d, nil
}

// Checkpoint returns where r stands: just past the last record yielded, in the file it
// came from, identified so that a later Open with Options.Resume finds that file again.
// Take it on the goroutine that iterates, before Close (the loop may have ended).
func (r *Reader) Checkpoint() Checkpoint {
	s := r.src
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := Checkpoint{Name: r.name, Offset: max(0, r.EndOffset()), tail: digestOf(nil)}
	cur := s.rd.cur
	if cur == nil {
		return cp
	}
	cp.id, cp.hasID = fileID(cur.id)
	if !cur.sealed {
		cur.readHead()
		k := min(cp.Offset, checkLen)
		b := make([]byte, k)
		if n, err := cur.f.ReadAt(b, cp.Offset-k); n == len(b) || err == nil {
			cp.tail = digestOf(b[:n])
		}
	}
	cp.head = digestOf(cur.head)
	return cp
}

// matchAt reports whether the file ra holds the checkpoint's file's content: the same
// first bytes, and the same bytes just before Offset. It reads those bytes alone, so
// that resuming in a large file costs two small reads.
func (c *Checkpoint) matchAt(ra io.ReaderAt) bool {
	head := make([]byte, c.head.n)
	if n, _ := ra.ReadAt(head, 0); n < len(head) || !c.head.matches(head) {
		return false
	}
	tail := make([]byte, c.tail.n)
	n, _ := ra.ReadAt(tail, c.Offset-int64(len(tail)))
	return n == len(tail) && c.tail.matches(tail)
}

// matchStream is matchAt for content read from its start (a decompressing reader):
// it reads r up to Offset (and the head, which may reach past it) and returns the
// content from Offset on, and the head.
func (c *Checkpoint) matchStream(r io.Reader) (io.Reader, []byte, bool) {
	head := make([]byte, c.head.n)
	if _, err := io.ReadFull(r, head); err != nil || !c.head.matches(head) {
		return nil, nil, false
	}
	rest, ok := c.streamTail(r, head)
	return rest, head, ok
}

// streamTail checks the bytes before Offset in r, of which head has been read.
func (c *Checkpoint) streamTail(r io.Reader, head []byte) (io.Reader, bool) {
	if c.Offset <= int64(len(head)) {
		lo := max(0, c.Offset-int64(c.tail.n))
		if !c.tail.matches(head[lo:c.Offset]) {
			return nil, false
		}
		return io.MultiReader(bytes.NewReader(head[c.Offset:]), r), true
	}
	skip := c.Offset - int64(c.tail.n) - int64(len(head))
	if skip < 0 {
		// The bytes before Offset begin inside the head.
		tail := append(head[len(head)+int(skip):len(head):len(head)], make([]byte, c.Offset-int64(len(head)))...)
		if _, err := io.ReadFull(r, tail[-skip:]); err != nil || !c.tail.matches(tail) {
			return nil, false
		}
		return r, true
	}
	if n, err := io.CopyN(io.Discard, r, skip); n < skip || err != nil {
		return nil, false
	}
	tail := make([]byte, c.tail.n)
	if _, err := io.ReadFull(r, tail); err != nil || !c.tail.matches(tail) {
		return nil, false
	}
	return r, true
}
