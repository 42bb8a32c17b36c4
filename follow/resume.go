package follow

import (
	"os"
	"slices"
	"time"
)

// resume finds where to go on from the checkpoint cp for the file at, now at the name
// (see Checkpoint): the file to read first and where in it, with d's queue holding the
// files to read after it, oldest first, and at last, from its start.
func resume(cp *Checkpoint, at *file, d *discovery) (*file, int64) {
	var since time.Time // the files modified before the checkpoint's file was can be none of these
	if cp.hasMod {
		since = cp.mod.Add(-time.Second) // bzip2 and lz4 keep the time to the second
	}
	cands := openSiblings(d, at, since)
	first, off := cp.locate(at, &cands)
	if first == at {
		closeFiles(cands)
		return at, off
	}
	var after []*file
	switch {
	case first != nil:
		// A file that cannot be told from first by its time is read too: twice
		// rather than never.
		after = later(cands, func(c *file) bool { return c.since(first) >= 0 }, first)
	case cp.hasMod:
		// The checkpoint's file is gone (rotated out and deleted): what was rotated
		// after it is what was modified since it was.
		after = later(cands, func(c *file) bool { return !c.mod.Before(since) }, nil)
	}
	queue := append(after, at)
	if first == nil {
		first, off = queue[0], 0
		queue = queue[1:]
	}
	d.queue = queue
	return first, off
}

// openSiblings opens the files beside the name but at, modified at or after since:
// the checkpoint's file, a copy or a compressed copy of it, and the files rotated after
// it (a file's time only goes on, and compressors keep it), not the hundreds of older
// files a date suffix keeps, which would take as many descriptors.
func openSiblings(d *discovery, at *file, since time.Time) []*file {
	var out []*file
	sibs := d.siblings().files
	d.numbering.learn(d.name, sibs)
	for _, sib := range sibs {
		if os.SameFile(sib.fi, at.id) || sib.fi.ModTime().Before(since) {
			continue
		}
		if fl, err := d.open(sib.path); err == nil {
			out = append(out, fl)
		}
	}
	return out
}

// closeFiles closes fls.
func closeFiles(fls []*file) {
	for _, fl := range fls {
		fl.close()
	}
}

// locate returns the file that holds the checkpoint's position and where, taking it out
// of cands (or at, or nil), positioned there, a compressed one read decompressed:
//   - the file renamed (logrotate's create, date suffixes, numbered shifting): by
//     identity, its content checked (an inode given to another file does not hold it);
//   - with the checkpoint's file still at the name, a copy made since the checkpoint
//     that holds it (copytruncate's: the file at the name was truncated since), the
//     oldest: preferred to the file at the name, whose content may hold the same few
//     bytes by chance;
//   - at, by identity, its content checked;
//   - anywhere beside the name by content alone (its identity lost: compressed,
//     copied), plain files first, if the checkpoint's evidence cannot come from a
//     shared beginning (Checkpoint.strong): otherwise the file is read from its start
//     with those rotated after it.
func (c *Checkpoint) locate(at *file, cands *[]*file) (*file, int64) {
	byID := func(fl *file) bool { return c.hasID && c.idOf(fl) }
	atName := c.hasID && c.idOf(at)
	copied := func(fl *file) bool { return atName && c.hasMod && !fl.born.Before(c.mod) }
	content := func(*file) bool { return c.strong() }
	for _, choose := range []func(*file) bool{byID, copied} {
		if fl := c.take(cands, choose); fl != nil {
			return fl, c.Offset
		}
	}
	if c.isFile(at) {
		return at, c.Offset
	}
	if fl := c.take(cands, content); fl != nil {
		return fl, c.Offset
	}
	return nil, 0
}

// take takes out of cands, oldest first, the first that choose picks and that holds the
// checkpoint's position, positioned there; nil if none does.
func (c *Checkpoint) take(cands *[]*file, choose func(*file) bool) *file {
	order := slices.Clone(*cands)
	// Plain files before compressed ones: a compressed one is decompressed to be
	// compared.
	packed := func(fl *file) bool { return fl.sealed || fl.compressed() }
	slices.SortStableFunc(order, func(a, b *file) int {
		if ca, cb := packed(a), packed(b); ca != cb {
			if ca {
				return 1
			}
			return -1
		}
		return a.compare(b)
	})
	for _, fl := range order {
		if !choose(fl) || !c.holds(fl) {
			continue
		}
		*cands = slices.DeleteFunc(*cands, func(o *file) bool { return o == fl })
		return fl
	}
	return nil
}

// holds reports whether fl holds the checkpoint's position, and positions it there: a
// plain file from Offset, a compressed one (sealed) decompressed from Offset of its
// content. A compressed file compared and found not to hold it is left sealed, read
// from its start.
func (c *Checkpoint) holds(fl *file) bool {
	if !fl.compressed() && !fl.sealed {
		if !c.heldAt(fl.f, fl.size()) {
			return false
		}
		_, err := fl.f.Seek(c.Offset, 0)
		return err == nil
	}
	if !fl.sealed {
		if _, ok := fl.seal(); !ok {
			return false
		}
	}
	rest, ok := c.heldStream(fl.r)
	if ok {
		fl.r = rest
		return true
	}
	// Read from its start if it is read after all.
	fl.dec.Close()
	fl.dec, fl.sealed = nil, false
	if _, err := fl.f.Seek(0, 0); err == nil {
		fl.seal()
	}
	return false
}

// isFile reports whether fl is the checkpoint's file by identity, with its content
// checked: the same identity with other content is another file given a freed inode,
// or the same file truncated and written again.
func (c *Checkpoint) isFile(fl *file) bool {
	if fl.sealed || c.hasID && !c.idOf(fl) {
		return false
	}
	return c.heldAt(fl.f, fl.size())
}

// idOf reports whether fl has the checkpoint's device and inode.
//
// A file made after the checkpoint's file was last modified is another one given its
// freed inode, whatever its content: a checkpoint taken before anything of its file
// was read holds no bytes to tell them apart (the model-based test: a file rotated,
// compressed and deleted while the follower was down, its inode given to the next
// file at the name; the resume read that one from its start and lost the 28 records
// between).
func (c *Checkpoint) idOf(fl *file) bool {
	id, ok := fileID(fl.id)
	if !ok || id != c.id {
		return false
	}
	return !(c.hasMod && fl.birth && fl.born.After(c.mod))
}

// later returns the files of cands that pick chooses, oldest first, each once: a copy
// of one taken, or of first, is passed over (see judge). Empty ones are kept: the
// writer may still write to them (it has not reopened the name yet). Compressed ones
// are read decompressed; the files not returned are closed.
func later(cands []*file, pick func(*file) bool, first *file) []*file {
	var read []content
	if first != nil && !first.sealed {
		read = append(read, contentOf(first, max(first.size(), 0)))
	}
	for _, fl := range cands {
		if fl.compressed() {
			fl.seal()
		}
	}
	slices.SortStableFunc(cands, (*file).compare)
	var out []*file
	for _, fl := range cands {
		if !pick(fl) || isCopy(fl, read) {
			fl.close()
			continue
		}
		if !fl.sealed {
			read = append(read, contentOf(fl, max(fl.size(), 0)))
		} else {
			read = append(read, content{head: fl.head, p: int64(len(fl.head))})
		}
		out = append(out, fl)
	}
	return out
}

// isCopy reports whether fl is a copy of one of read's files.
func isCopy(fl *file, read []content) bool {
	if fl.sealed {
		return judgeSealed(fl, true, fl.mod, read) == verdictCopy
	}
	return judge(fl, max(fl.size(), 0), fl.mod, read) == verdictCopy
}
