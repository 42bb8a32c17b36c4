package follow

import (
	"io"
	"os"
	"slices"

	"github.com/foreachio/foreach/internal/decompress"
)

// resume finds where to go on from the checkpoint cp for the file at, now at the name
// (see Checkpoint): the file to read first and where in it, with ch's queue holding the
// files to read after it, the file at the name last.
func resume(cp *Checkpoint, at *file, ch *chain) (*file, int64) {
	if cp.isFile(at) {
		return at, cp.Offset
	}
	sibs := siblings(cp.Name, nil)
	found := cp.find(sibs, at)
	if found == nil {
		return at, 0
	}
	ch.next = append(after(found, sibs), at)
	return found, cp.Offset
}

// isFile reports whether fl is the checkpoint's file by identity, with its content
// checked: the same identity with other content is another file given a freed inode.
func (c *Checkpoint) isFile(fl *file) bool {
	if fl.sealed {
		return false
	}
	id, ok := fileID(fl.id)
	if c.hasID && (!ok || id != c.id) {
		return false
	}
	return fl.id.Size() >= c.Offset && c.matchAt(fl.f)
}

// find looks for the checkpoint's file among sibs: by identity first, then by content
// (a plain copy before a compressed one). It returns it open, positioned at Offset (a
// compressed one's reader at Offset of its content), or nil.
func (c *Checkpoint) find(sibs []sibling, at *file) *file {
	byContent := func(s sibling) bool { id, ok := fileID(s.fi); return !c.hasID || !ok || id != c.id }
	// Identity, then plain content, then compressed content.
	order := slices.Clone(sibs)
	slices.SortStableFunc(order, func(a, b sibling) int {
		ca, cb := byContent(a), byContent(b)
		switch {
		case ca == cb:
			return 0
		case !ca:
			return -1
		}
		return 1
	})
	for _, s := range order {
		fl, err := openFile(s.path)
		if err != nil || os.SameFile(fl.id, at.id) {
			if fl != nil {
				fl.close()
			}
			continue
		}
		if byContent(s) && c.head.n == 0 {
			fl.close()
			continue // an empty file's checkpoint is found by identity alone
		}
		if decompress.Detect(fl.head) == decompress.None {
			if fl.id.Size() >= c.Offset && c.matchAt(fl.f) {
				if _, err := fl.f.Seek(c.Offset, io.SeekStart); err == nil {
					return fl
				}
			}
			fl.close()
			continue
		}
		dr := decompress.NewReader(fl.f)
		if rest, head, ok := c.matchStream(dr); ok {
			fl.sealed, fl.r, fl.dec, fl.head = true, rest, dr, head
			return fl
		}
		dr.Close()
		fl.close()
	}
	return nil
}

// after opens the files rotated after found, oldest first: the siblings modified after
// it (log rotation keeps the modification time when it compresses), each once (a
// compressed file whose content begins as a plain one's is a copy of it). Compressed
// ones are read decompressed.
func after(found *file, sibs []sibling) []*file {
	since := found.id.ModTime()
	later := slices.DeleteFunc(slices.Clone(sibs), func(s sibling) bool {
		return !s.fi.ModTime().After(since) || os.SameFile(s.fi, found.id)
	})
	slices.SortStableFunc(later, func(a, b sibling) int { return a.fi.ModTime().Compare(b.fi.ModTime()) })
	var out []*file
	heads := [][]byte{found.head}
	for _, s := range later {
		fl, err := openFile(s.path)
		if err != nil {
			continue
		}
		if decompress.Detect(fl.head) != decompress.None {
			dr := decompress.NewReader(fl.f)
			head := make([]byte, headLen)
			n, _ := io.ReadFull(dr, head)
			dr.Close()
			if _, err := fl.f.Seek(0, io.SeekStart); err != nil {
				fl.close()
				continue
			}
			dr = decompress.NewReader(fl.f)
			fl.sealed, fl.r, fl.dec, fl.head = true, dr, dr, head[:n]
		}
		if slices.ContainsFunc(heads, func(h []byte) bool { return sameHead(h, fl.head) }) {
			fl.close()
			continue
		}
		heads = append(heads, fl.head)
		out = append(out, fl)
	}
	return out
}
