package follow

import (
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// names finds the names a Many follows: the files its patterns match, in the order the
// patterns are given (each pattern's matches in the order of their paths), as files come
// and go; and it routes what happens in the directories it watches to the members it
// concerns. It is the Many's discovery of names, as a source's discovery is of the files
// of one name: it hands the goroutine that iterates the members to read, and never reads
// a file. The watcher's goroutine and OpenMany's call it; mu guards all of its state.
//
// A file that a pattern matches is a name of its own, unless its name is another name's
// with a rotation's suffix (app.log.1 beside app.log, app.log-20261201.gz: see
// rotationSuffix): that one is a rotated file of the other name, read as Open reads the
// files of a rotation. A plain name (a pattern without a wildcard) is always a name of its
// own.
type names struct {
	pats []pattern
	excl excluder
	dirs *dirCache
	w    *fsnotify.Watcher // nil: the poll alone
	// begin makes the member of a name found: fi is its file then (nil when the name is
	// known to be missing).
	begin   func(name string, fi os.FileInfo) *member
	mu      sync.Mutex
	byName  map[string]*member            // every member not gone, by name as followed
	byDir   map[string]map[string]*member // the same, by directory (cleaned) and last element
	watched map[string]*watchedDir        // the directories that may hold matches
	all     []*member                     // every member, in the order found: the poll's sweep
	next    int                           // where the next sweep of all begins
	open    map[*member]*source           // the members open, with their sources: the poll looks with them
	closed  bool                          // the Many is closed: no source is noted open any more
}

// watchedDir is a directory that may hold matches: the pattern roots, and every
// directory under them that a pattern can match in.
type watchedDir struct {
	root     bool   // a pattern's root: watched for as long as the Many runs, missing or not
	watching bool   // a notification watch is set on it
	gen      uint64 // the generation of the listing last looked through (dirCache); 0: none
}

func newNames(pats []pattern, excl excluder, dirs *dirCache, w *fsnotify.Watcher) *names {
	return &names{pats: pats, excl: excl, dirs: dirs, w: w,
		byName: map[string]*member{}, byDir: map[string]map[string]*member{},
		watched: map[string]*watchedDir{}, open: map[*member]*source{}}
}

// first lists every pattern's matches, pattern by pattern: the members OpenMany begins
// with, in the order named.
func (n *names) first() []*member {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []*member
	for i := range n.pats {
		p := &n.pats[i]
		n.watch(p.root, true)
		out = n.walk(p, p.root, nil, out)
	}
	for dir, wd := range n.watched {
		if entries, gen, err := n.dirs.listGen(dir); err == nil && entries != nil {
			wd.gen = gen
		}
	}
	return out
}

// walk registers the matches of p in dir (at rel under p's root) and in the directories
// under it that p may match in, watching those, in the order of their paths.
func (n *names) walk(p *pattern, dir string, rel []string, out []*member) []*member {
	entries, err := n.dirs.list(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		at := append(rel[:len(rel):len(rel)], e.name)
		path := filepath.Join(dir, e.name)
		isDir, fi := kindOf(path, e)
		switch {
		case isDir && p.descends(at):
			n.watch(path, false)
			out = n.walk(p, path, at, out)
		case p.matches(at):
			out = n.register(p.nameOf(at), dir, e.name, p.literal, fi, out)
		}
	}
	return out
}

// kindOf says whether the entry e at path is a directory to descend into (a real one:
// a link to a directory is not followed, so that no link makes a loop), and the file's
// stat (nil when it cannot be had).
func kindOf(path string, e dirEntry) (isDir bool, fi os.FileInfo) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, nil
	}
	return e.kind == kindDir || e.kind == kindUnknown && fi.IsDir(), fi
}

// watch notes dir as a directory that may hold matches, and sets a watch on it.
func (n *names) watch(dir string, root bool) {
	wd := n.watched[dir]
	if wd == nil {
		wd = &watchedDir{}
		n.watched[dir] = wd
	}
	wd.root = wd.root || root
	if n.w != nil && !wd.watching {
		wd.watching = n.w.Add(dir) == nil
	}
}

// register makes the member of the file at dir/base, name as followed, unless it has
// one, is excluded, or is a rotated file of another name; out gets the new member.
func (n *names) register(name, dir, base string, literal bool, fi os.FileInfo, out []*member) []*member {
	if n.byName[name] != nil || n.excl.excludes(name) {
		return out
	}
	if !literal && n.rotationOf(dir, base) != nil {
		return out
	}
	mb := n.begin(name, fi)
	n.add(mb, dir, base)
	return append(out, mb)
}

// add notes mb, whose name is dir/base.
func (n *names) add(mb *member, dir, base string) {
	n.byName[mb.name] = mb
	if n.byDir[dir] == nil {
		n.byDir[dir] = map[string]*member{}
	}
	n.byDir[dir][base] = mb
	n.all = append(n.all, mb)
}

// rotationOf returns the member whose name, with a rotation's suffix, is dir/base: the
// name whose rotated file it is. nil when there is none.
func (n *names) rotationOf(dir, base string) *member {
	in := n.byDir[dir]
	for i := len(base) - 1; i > 0; i-- {
		if mb := in[base[:i]]; mb != nil && rotationSuffix(base[i:]) {
			return mb
		}
	}
	return nil
}

// beside returns the member whose name begins the name of the file dir/base, the
// longest: the name whose discovery the file concerns (see discovery.siblings).
func (n *names) beside(dir, base string) *member {
	in := n.byDir[dir]
	for i := len(base) - 1; i > 0; i-- {
		if mb := in[base[:i]]; mb != nil {
			return mb
		}
	}
	return nil
}

// ownName reports whether the file at path beside name (its name begins with name's
// last element) is a name followed of its own, not one of name's rotated files: what
// the discovery of name passes over (manyEnv.skip). It asks the patterns, not the
// members, so that a file is passed over before its member is made.
func (n *names) ownName(name, path string) bool {
	dir, base := filepath.Split(filepath.Clean(path))
	dir = filepath.Clean(dir)
	for i := range n.pats {
		p := &n.pats[i]
		rel, ok := under(p.root, dir)
		if !ok || !p.matches(append(rel, base)) || n.excl.excludes(p.nameOf(append(rel, base))) {
			continue
		}
		if p.literal || !rotationSuffix(base[min(len(base), len(filepath.Base(name))):]) {
			return true
		}
	}
	return false
}

// forget forgets mb, gone.
func (n *names) forget(mb *member) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.byName[mb.name] != mb {
		return
	}
	delete(n.byName, mb.name)
	dir, base := splitName(mb.name)
	delete(n.byDir[dir], base)
	if len(n.byDir[dir]) == 0 {
		delete(n.byDir, dir)
	}
	if i := slices.Index(n.all, mb); i >= 0 {
		n.all = slices.Delete(n.all, i, i+1)
	}
	delete(n.open, mb)
}

// splitName is the directory (cleaned) and last element of a name as followed.
func splitName(name string) (dir, base string) {
	clean := filepath.Clean(name)
	return filepath.Dir(clean), filepath.Base(clean)
}

// setOpen notes mb's source open (src) or closed (nil). It reports false, and notes
// nothing, once the Many is closed: the caller closes src itself.
func (n *names) setOpen(mb *member, src *source) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if src == nil {
		delete(n.open, mb)
		return true
	}
	if n.closed {
		return false
	}
	n.open[mb] = src
	return true
}

// closeAll marks the Many closed and returns the sources open, for Close to close.
func (n *names) closeAll() []*source {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	out := make([]*source, 0, len(n.open))
	for _, src := range n.open {
		out = append(out, src)
	}
	clear(n.open)
	return out
}

// hasSiblings reports whether a file beside name begins with its name and goes on: a
// rotated file its checkpoint may be in.
func (n *names) hasSiblings(name string) bool {
	dir, base := splitName(name)
	entries, err := n.dirs.list(dir)
	return err == nil && len(prefixed(entries, base)) > 0
}

// members returns every member not gone, in the order found.
func (n *names) members() []*member {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.all)
}

// adopt notes mb, a member of a name that matched no file when OpenMany listed the
// patterns but that ManyOptions.Resume holds a checkpoint for: it waits, parked, for its
// name. It reports false when mb's name has a member already.
func (n *names) adopt(mb *member) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.byName[mb.name] != nil {
		return false
	}
	dir, base := splitName(mb.name)
	n.add(mb, dir, base)
	return true
}

// follows returns the name, as followed, that the file at path (absolute, or relative to
// the directory the program runs in) has if a pattern matches it and it is not excluded.
func (n *names) follows(path string) (name string, ok bool) {
	abs := stateKey(path)
	dir, base := filepath.Split(abs)
	dir = filepath.Clean(dir)
	for i := range n.pats {
		p := &n.pats[i]
		rel, in := under(stateKey(p.root), dir)
		at := append(rel, base)
		if in && p.matches(at) && !n.excl.excludes(p.nameOf(at)) {
			return p.nameOf(at), true
		}
	}
	return "", false
}

// lookup returns the member of name, as followed; nil when there is none.
func (n *names) lookup(name string) *member {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.byName[name]
}
