package follow

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// hitKind is what a notification concerns.
type hitKind uint8

const (
	hitNone   hitKind = iota
	hitName           // a member's name: created, removed, renamed, written
	hitBeside         // a file beside a member's name (a rotated file of it, arriving or written)
)

// hit is what a notification concerns: a member (kind), with its source when it is open
// (the watcher looks with it outside names' lock); members found (a new name, or the
// names in a new directory); members whose directory went.
type hit struct {
	kind  hitKind
	mb    *member
	src   *source
	found []*member
}

// notify says what the notification ev concerns, noting the names and directories it
// makes.
func (n *names) notify(ev fsnotify.Event) hit {
	path := filepath.Clean(ev.Name)
	dir, base := splitName(path)
	n.mu.Lock()
	defer n.mu.Unlock()
	if mb := n.byDir[dir][base]; mb != nil {
		return hit{kind: hitName, mb: mb, src: n.open[mb]}
	}
	if wd := n.watched[path]; wd != nil && ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
		return hit{found: n.lost(path)}
	}
	if ev.Op&fsnotify.Create != 0 {
		if found := n.arrive(path, dir, base, kindUnknown); len(found) > 0 {
			return hit{found: found}
		}
	}
	if mb := n.beside(dir, base); mb != nil {
		return hit{kind: hitBeside, mb: mb, src: n.open[mb]}
	}
	return hit{}
}

// arrive registers what appeared at path: a file a pattern matches, or a directory a
// pattern may match in (watched, with what it holds). kind is what its listing says it
// is (kindUnknown: a stat says). It returns the members made.
func (n *names) arrive(path, dir, base string, kind entryKind) []*member {
	if kind == kindUnknown || kind == kindLink {
		fi, err := os.Lstat(path)
		switch {
		case err != nil:
			return nil
		case fi.IsDir():
			kind = kindDir
		default:
			kind = kindFile // a link to a directory is not followed: see kindOf
		}
	}
	var out []*member
	for i := range n.pats {
		p := &n.pats[i]
		rel, ok := under(p.root, dir)
		if !ok {
			continue
		}
		at := append(rel, base)
		switch {
		case kind == kindDir && p.descends(at):
			n.watch(path, false)
			out = n.walk(p, path, at, out)
			n.listed(path)
		case p.matches(at):
			out = n.register(p.nameOf(at), dir, base, p.literal, nil, out)
		}
	}
	return out
}

// listed notes that the entries of dir's listing as it is now have been looked through.
func (n *names) listed(dir string) {
	if wd := n.watched[dir]; wd != nil {
		if _, gen, err := n.dirs.listGen(dir); err == nil {
			wd.gen = gen
		}
	}
}

// lost handles the directory dir gone (removed or renamed): the members of the names in
// it and under it are returned, to be nudged (each finds its name missing); the
// directories under it are no longer watched, and dir only while it is a pattern's root
// (the poll finds it again when it is made again, and watches it again).
func (n *names) lost(dir string) []*member {
	var out []*member
	for d, wd := range n.watched {
		if _, in := under(dir, d); !in {
			continue
		}
		for _, mb := range n.byDir[d] {
			out = append(out, mb)
		}
		if n.w != nil && wd.watching {
			n.w.Remove(d)
		}
		wd.watching, wd.gen = false, 0
		n.dirs.forget(d)
		if !wd.root {
			delete(n.watched, d)
		}
	}
	return out
}

// poll is the watcher's look at the directories every Poll: each one changed since it
// was last looked through is listed again (a name that appeared gets its member; a name
// missing nudges its member); one gone is lost; one back (a root made again) is watched
// again. It returns the members to nudge.
func (n *names) poll() []*member {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []*member
	dirs := make([]string, 0, len(n.watched))
	for d := range n.watched {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs) // a directory before the ones under it
	for _, dir := range dirs {
		wd := n.watched[dir]
		if wd == nil {
			continue // lost with the one above it
		}
		if _, err := os.Stat(dir); err != nil {
			if wd.gen != 0 {
				out = append(out, n.lost(dir)...)
			}
			continue
		}
		if n.w != nil && !wd.watching {
			wd.watching = n.w.Add(dir) == nil
		}
		out = n.rescan(dir, wd, out)
	}
	return out
}

// rescan looks through dir's listing if it changed since the last time: the names a
// pattern matches that have no member get one, the directories under it a pattern may
// match in are watched and walked, and the members of names missing from it are
// returned, as are the members made.
func (n *names) rescan(dir string, wd *watchedDir, out []*member) []*member {
	entries, gen, err := n.dirs.listGen(dir)
	if err != nil || gen == wd.gen {
		return out
	}
	wd.gen = gen
	here := n.byDir[dir]
	for _, e := range entries {
		if here[e.name] != nil {
			continue
		}
		path := filepath.Join(dir, e.name)
		if e.kind == kindDir && n.watched[path] != nil {
			continue
		}
		out = append(out, n.arrive(path, dir, e.name, e.kind)...)
	}
	for base, mb := range n.byDir[dir] {
		if _, ok := slices.BinarySearchFunc(entries, base, func(e dirEntry, s string) int { return strings.Compare(e.name, s) }); !ok {
			out = append(out, mb)
		}
	}
	return out
}

// sweep returns the next k members of the poll's sweep (round robin over every member;
// k 0: all of them): the watcher stats the names of those parked or set aside and
// nudges those that changed.
func (n *names) sweep(k int) []*member {
	n.mu.Lock()
	defer n.mu.Unlock()
	if k <= 0 || k > len(n.all) {
		k = len(n.all)
	}
	out := make([]*member, 0, k)
	for range k {
		if n.next >= len(n.all) {
			n.next = 0
		}
		out = append(out, n.all[n.next])
		n.next++
	}
	return out
}

// opened returns the sources of the members open, with their members: the watcher
// looks with each every Poll.
func (n *names) opened() map[*member]*source {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make(map[*member]*source, len(n.open))
	for mb, src := range n.open {
		out[mb] = src
	}
	return out
}
