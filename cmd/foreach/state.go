package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foreachio/foreach/follow"
)

// saveEvery is how often --state is written at least while records arrive.
const saveEvery = time.Second

// saver keeps the --state file: one follow.Checkpoint text form per line, one line per
// followed FILE (and the lines of files not followed this time, kept as they were),
// each under its FILE's key (stateKey), which is also the name its line holds.
type saver struct {
	path string
	// cps are the checkpoints to write, by key, and gen counts their changes; both
	// guarded by following.mu.
	cps map[string]follow.Checkpoint
	gen uint64
	// last is when the state was last written, in UnixNano; read without a lock by
	// every follower after every record.
	last atomic.Int64

	mu      sync.Mutex  // guards timer and written, and serializes writes of the file
	timer   *time.Timer // a save scheduled; nil when none is
	stopped bool        // no save is scheduled any more: followAll saves once more itself
	// written is the gen of the text last written: a text of an older gen (a timer's
	// save that took its text before the last save took its own) is not written, so
	// that the state never goes back.
	written uint64
}

// stateKey is the key of FILE's checkpoint: its cleaned absolute path, so that
// ./app.log and app.log, or the same FILE followed from another directory, find the same
// checkpoint. (A state file written by round 4 holds names as they were typed: they are
// taken as relative to the directory the command runs in.)
func stateKey(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

// loadState reads the --state file at path (missing: no checkpoint yet) and returns
// its saver and the checkpoints it holds, by key (stateKey), each named by its key.
func loadState(path string) (*saver, map[string]*follow.Checkpoint, error) {
	s := &saver{path: path, cps: map[string]follow.Checkpoint{}}
	s.last.Store(time.Now().UnixNano())
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	resume := map[string]*follow.Checkpoint{}
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var cp follow.Checkpoint
		if err := cp.UnmarshalText(line); err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		cp.Name = stateKey(cp.Name)
		s.cps[cp.Name] = cp
		resume[cp.Name] = &cp
	}
	return s, resume, nil
}

// due reports whether the state is older than saveEvery.
func (s *saver) due() bool {
	return time.Since(time.Unix(0, s.last.Load())) >= saveEvery
}

// schedule has save run now if the state is due, else once it is (one save scheduled
// at a time).
func (s *saver) schedule(save func()) {
	if s.due() {
		save()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil || s.stopped {
		return
	}
	wait := saveEvery - time.Since(time.Unix(0, s.last.Load()))
	s.timer = time.AfterFunc(wait, func() {
		s.mu.Lock()
		s.timer = nil
		stopped := s.stopped
		s.mu.Unlock()
		if !stopped {
			save()
		}
	})
}

// stop cancels a scheduled save.
func (s *saver) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
}

// note notes cp, just taken, as the checkpoint of the FILE of the key; called with
// following.mu held.
func (s *saver) note(key string, cp follow.Checkpoint) {
	cp.Name = key
	s.cps[key] = cp
	s.gen++
}

// text is the state file's content, and the gen it has; called with following.mu held.
func (s *saver) text() ([]byte, uint64) {
	names := make([]string, 0, len(s.cps))
	for name := range s.cps {
		names = append(names, name)
	}
	slices.Sort(names)
	var b bytes.Buffer
	for _, name := range names {
		line, err := s.cps[name].MarshalText()
		if err != nil {
			continue // no file read yet
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), s.gen
}

// write replaces the state file with text, of the given gen, atomically: a temporary
// file beside it, written and synced, renamed over it, and the directory synced, so that
// after a crash the file holds either the old state or the new one, whole. A text older
// than the one written last is not written.
func (s *saver) write(text []byte, gen uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen < s.written {
		return nil
	}
	dir := filepath.Dir(s.path)
	tmp, err := os.CreateTemp(dir, filepath.Base(s.path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(text)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	s.written = gen
	s.last.Store(time.Now().UnixNano())
	return syncDir(dir)
}
