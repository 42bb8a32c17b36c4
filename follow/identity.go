package follow

import (
	"bytes"
	"io"
	"os"
	"time"
)

// The question this file answers: is a file that appeared beside the name a copy of one
// already read (copytruncate's copy, a compressed one, logrotate's copy mode), to be
// passed over, or a file of its own, to be read? Content is the only evidence (a copy
// has an identity of its own), and a short shared beginning is no evidence: logs begin
// with the same header, banner or JSON prefix. So a copy must hold the very bytes that
// were read of the other file at two places, its start and just before the point read
// to, or be the same bytes whole.

// content is what is known of the bytes of a file read: its first bytes and the bytes
// just before p, the point it was read to (its end, for a file read to its end), as they
// were read. Invariants: len(head) <= min(p, headLen); len(tail) <= min(p, tailLen); the
// slices are never written after they are made.
type content struct {
	head []byte
	tail []byte
	p    int64
	// live: the file being read, still at the name. A new file that holds what was read
	// of it, however little, is its copy (copytruncate's, logrotate's copy): no file of
	// its own can have had the name after a file that still has it.
	live bool
	// ra, if set, is the file itself, whose bytes now are its content (the file being
	// read, plain, as it is now; p is its size): a file that holds its first bytes up
	// to its own size, with strong evidence, is a copy of it too (one made earlier).
	ra io.ReaderAt
	// born, for the file being read, is when it was made: a file made before it is no
	// copy of it.
	born time.Time
}

// whole reports whether the bytes kept cover all of [0, p): a file short enough for its
// head and tail to cover it, so that a file with those bytes and no more is its copy.
func (c content) whole() bool { return int64(len(c.head)+len(c.tail)) >= c.p }

// strong reports whether the bytes kept are evidence that cannot come from a shared
// beginning: a full head, and a tail that lies beyond it.
func (c content) strong() bool {
	return len(c.head) == headLen && len(c.tail) > 0 && c.p-int64(len(c.tail)) >= headLen
}

// matches reports whether s, a file's bytes taken where c has its own, are c's.
func (c content) matches(s sample) bool {
	return bytes.Equal(s.head, c.head) && bytes.Equal(s.tail, c.tail)
}

// heldBy reports whether ra, of the given size, has c's bytes where c had them.
func (c content) heldBy(ra io.ReaderAt, size int64) bool {
	s, ok := sampleAt(ra, size, c.p, len(c.head), len(c.tail))
	return ok && c.matches(s)
}

// prefixOf reports whether the file a, of the given size, holds the first size bytes
// of b: the same first bytes, and the same bytes just before size.
func prefixOf(a io.ReaderAt, size int64, b io.ReaderAt) bool {
	h, k := int(min(size, headLen)), int(min(size, tailLen))
	x, okA := sampleAt(a, size, size, h, k)
	y, okB := sampleAt(b, size, size, h, k)
	return okA && okB && bytes.Equal(x.head, y.head) && bytes.Equal(x.tail, y.tail)
}

// bytesAt reports whether ra holds want at off.
func bytesAt(ra io.ReaderAt, off int64, want []byte) bool {
	got := make([]byte, len(want))
	n, _ := ra.ReadAt(got, off)
	return n == len(got) && bytes.Equal(got, want)
}

// contentOf reads what is known of fl's first p bytes, fl (plain) read to p.
func contentOf(fl *file, p int64) content {
	c := content{head: fl.head, p: p}
	if int64(len(c.head)) > p {
		c.head = c.head[:p:p]
	}
	if k := min(p, tailLen); k > 0 && !fl.sealed {
		b := make([]byte, k)
		if n, _ := fl.f.ReadAt(b, p-k); int64(n) == k {
			c.tail = b
		}
	}
	return c
}

// sample is a file's first bytes and the bytes just before an offset: what is compared
// with a content, or with a checkpoint's digests, to tell whether the file holds them.
type sample struct{ head, tail []byte }

// sampleAt reads the first headN bytes of ra and the tailN before p; false when ra,
// of the given size, is shorter than p or a read comes short.
func sampleAt(ra io.ReaderAt, size, p int64, headN, tailN int) (sample, bool) {
	if size < p || int64(tailN) > p {
		return sample{}, false
	}
	s := sample{head: make([]byte, headN), tail: make([]byte, tailN)}
	n, _ := ra.ReadAt(s.head, 0)
	m, _ := ra.ReadAt(s.tail, p-int64(tailN))
	return s, n == headN && m == tailN
}

// sampleStream reads r, a file's content from its start, up to p (and up to headN when
// that is further), keeping its first headN bytes and the tailN before p; it returns
// the content from p on. ok is false when r ends before. It is how a compressed file is
// compared: decompressed up to the point.
func sampleStream(r io.Reader, p int64, headN, tailN int) (s sample, rest io.Reader, ok bool) {
	if int64(tailN) > p {
		return sample{}, nil, false
	}
	s.head = make([]byte, headN)
	if _, err := io.ReadFull(r, s.head); err != nil {
		return sample{}, nil, false
	}
	if int64(headN) >= p {
		s.tail = s.head[p-int64(tailN) : p : p]
		return s, io.MultiReader(bytes.NewReader(s.head[p:]), r), true
	}
	from := p - int64(tailN) // the tail may begin inside the head
	if from < int64(headN) {
		s.tail = append([]byte(nil), s.head[from:]...)
	}
	if skip := from - int64(headN); skip > 0 {
		if n, _ := io.CopyN(io.Discard, r, skip); n < skip {
			return sample{}, nil, false
		}
	}
	more := make([]byte, p-max(from, int64(headN)))
	if _, err := io.ReadFull(r, more); err != nil {
		return sample{}, nil, false
	}
	s.tail = append(s.tail, more...)
	return s, r, true
}

// verdict is what a file beside the name is, compared with the files read.
type verdict uint8

const (
	verdictOwn       verdict = iota // a file of its own: to be read
	verdictCopy                     // a copy of a file read or queued: passed over
	verdictUndecided                // too short to tell yet: looked at again when it has grown
)

// settle is how long a file beside the name that is shorter than a file read, and
// begins as it does, must stay unchanged before it is taken for a file of its own: a
// copy being made grows until it is whole.
const settle = 250 * time.Millisecond

// judge says what cand, a plain file of the given size and modification time, is,
// compared with the contents of the files read: a copy if it holds one's bytes with
// evidence a shared beginning cannot give (strong), or holds them all and no more
// (whole), or holds those of the file being read at the name (live). A file that begins as one does but is shorter than what was read of it may
// be its copy being made: undecided while it changes, until it has stayed unchanged
// for settle.
func judge(cand *file, size int64, mod time.Time, read []content) verdict {
	v := verdictOwn
	for _, c := range read {
		n := min(len(c.head), len(cand.head))
		if n == 0 || !bytes.Equal(c.head[:n], cand.head[:n]) || cand.born.Before(c.born) {
			continue
		}
		switch {
		case size < c.p && c.ra != nil && size >= headLen+tailLen && prefixOf(cand.f, size, c.ra):
			return verdictCopy
		case size < c.p:
			if time.Since(mod) < settle {
				v = verdictUndecided
			}
		case (c.strong() || c.live) && c.heldBy(cand.f, size):
			return verdictCopy
		case size == c.p && c.whole() && c.heldBy(cand.f, size):
			return verdictCopy
		}
	}
	return v
}

// judgeSealed is judge for a compressed file, of which only its first bytes,
// decompressed, are read (its tail would cost decompressing it whole): a full head the
// same as one read, or the very bytes of a short file read, whole (the decompressed
// stream ended there), or all that was read of the file being read at the name, is a
// copy. complete says the head was read whole (headLen
// bytes, or a stream that ended); a stream cut short while it may still be written is
// undecided.
func judgeSealed(cand *file, complete bool, mod time.Time, read []content) verdict {
	if !complete {
		if time.Since(mod) < settle {
			return verdictUndecided
		}
		return verdictOwn // damaged: read up to the damage
	}
	for _, c := range read {
		if cand.born.Before(c.born) {
			continue
		}
		switch {
		case len(c.head) == headLen && bytes.Equal(cand.head, c.head):
			return verdictCopy
		case len(cand.head) < headLen && int64(len(cand.head)) == c.p && bytes.Equal(cand.head, c.head):
			return verdictCopy
		case c.live && len(c.head) > 0 && int64(len(c.head)) == min(c.p, headLen) && bytes.HasPrefix(cand.head, c.head):
			return verdictCopy // all that was read of the file being read at the name, and more
		case c.ra != nil && (len(cand.head) == headLen || int64(len(cand.head)) == c.p) && bytesAt(c.ra, 0, cand.head):
			return verdictCopy // the file being read, as it is now, or its first KiB
		}
	}
	return verdictOwn
}

// knownFile is what the discovery keeps of a file beside the name that is not to be
// read (there before the follower began, read to its end, or a copy): its content as it
// was then, its size and modification time then, and for how many listings in a row it
// has been missing (see discovery.prune).
type knownFile struct {
	content
	size    int64
	mod     time.Time
	missing int
}

// knownOf is what is kept of fl, not to be read.
func knownOf(fl *file) knownFile {
	k := knownFile{size: -1}
	if fi, err := fl.f.Stat(); err == nil {
		k.size, k.mod = fi.Size(), fi.ModTime()
	}
	if fl.sealed {
		k.content = content{head: fl.head, p: int64(len(fl.head))}
		return k
	}
	fl.readHead()
	k.content = contentOf(fl, max(k.size, 0))
	return k
}

// unchanged reports whether fi, a file with k's identity, is still the file k was: the
// same size and modification time (a file read to its end keeps them; a file given its
// freed inode does not), or, given ra, its bytes, the same bytes where k had them (a
// file read to its end and written again since: what it gains is not read).
func (k knownFile) unchanged(fi os.FileInfo, ra io.ReaderAt) bool {
	if k.size == fi.Size() && k.mod.Equal(fi.ModTime()) {
		return true
	}
	return ra != nil && k.size >= 0 && len(k.head) > 0 && k.heldBy(ra, fi.Size())
}
