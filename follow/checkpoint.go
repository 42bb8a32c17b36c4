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
	"time"
)

// Checkpoint is a position in a followed file that outlives the program: the file, by
// identity, and the offset just past the last record handled in it. Resuming from one
// (Options.Resume) yields every record written after it once, in order, whole: the
// rest of the checkpoint's file, then every file rotated after it, oldest first, then
// the file at the name from its start. The checkpoint's file is found
//   - at the name, if it is still the checkpoint's file (same identity, same first
//     bytes, and the bytes just before Offset unchanged), unless a copy of it made since
//     the checkpoint is beside the name (copytruncate's: the file at the name was
//     truncated since, and the copy holds the checkpoint's bytes);
//   - beside the name, among the files whose names begin with the name's own
//     (app.log.1, app.log-20261201, app.log.2.gz), by device and inode, or by its
//     content where those changed (a copy, a compressed file: gzip, zstd, xz, bzip2 or
//     lz4, read decompressed), when its content is evidence enough (a full first KiB
//     and bytes before Offset beyond it; a checkpoint of a shorter file is found by
//     identity alone).
//
// The files rotated after it are those modified after it (log rotation keeps a
// compressed file's time). If it is found nowhere (deleted while the program was down),
// its rest is lost, and the files modified since the checkpoint was taken are read,
// oldest first, then the file at the name: never from the middle of another file's
// record. What can still be lost is said in the project's docs/follow.md.
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
	// mod is the file's modification time then (hasMod false in a checkpoint written
	// before round 5): what was rotated after the file was modified after it, which
	// finds those files when the checkpoint's file itself is gone.
	mod    time.Time
	hasMod bool
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
	if c.hasMod {
		fmt.Fprintf(&b, " mod=%d", c.mod.UnixNano())
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
	cp.hasMod = seen["mod"]
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
	case "mod":
		var ns int64
		ns, err = strconv.ParseInt(v, 10, 64)
		c.mod = time.Unix(0, ns)
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
// From the moment Open returns it names the file reading begins with and where (before
// any record, the start Options gave), and from the moment reading moves to another
// file (Options.Moved), that file. Take it on the goroutine that iterates, before
// Close (the loop may have ended).
func (r *Reader) Checkpoint() Checkpoint {
	rd := &r.src.rd
	off := rd.start
	if rd.begun {
		off = max(0, r.EndOffset())
	}
	return checkpointAt(r.name, rd.cur, off)
}

// checkpointAt is the checkpoint of name at off in cur, the file being read (nil: none).
func checkpointAt(name string, cur *file, off int64) Checkpoint {
	cp := Checkpoint{Name: name, Offset: off, tail: digestOf(nil)}
	if cur == nil {
		return cp
	}
	cp.id, cp.hasID = fileID(cur.id)
	if fi, err := cur.f.Stat(); err == nil {
		cp.mod, cp.hasMod = fi.ModTime(), true
	}
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

// strong reports whether the checkpoint's digests are evidence that cannot come from a
// beginning shared by other files: a full head, and bytes before Offset beyond it.
func (c *Checkpoint) strong() bool {
	return c.head.n == headLen && c.tail.n > 0 && c.Offset-int64(c.tail.n) >= headLen
}

// matches reports whether s, a file's bytes taken where the checkpoint's digests were,
// are those bytes.
func (c *Checkpoint) matches(s sample) bool {
	return c.head.matches(s.head) && c.tail.matches(s.tail)
}

// heldAt reports whether ra, of the given size, holds the checkpoint's file's content:
// the same first bytes, and the same bytes just before Offset. It reads those bytes
// alone, so that resuming in a large file costs two small reads.
func (c *Checkpoint) heldAt(ra io.ReaderAt, size int64) bool {
	s, ok := sampleAt(ra, size, c.Offset, c.head.n, c.tail.n)
	return ok && c.matches(s)
}

// heldStream is heldAt for content read from its start (a decompressing reader): it
// reads r up to Offset and returns the content from Offset on.
func (c *Checkpoint) heldStream(r io.Reader) (io.Reader, bool) {
	s, rest, ok := sampleStream(r, c.Offset, c.head.n, c.tail.n)
	return rest, ok && c.matches(s)
}
