package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/foreachio/foreach/follow"
)

// saveEvery is how often --state is written at least while records arrive.
const saveEvery = time.Second

// saver keeps the --state file: follow.State's text form, one checkpoint per line, one
// line per followed file under its absolute path (and the lines of files not followed
// this time, kept as they were). Only the goroutine of the Many's loop uses it.
type saver struct {
	path  string
	last  time.Time     // when the state was last written (or the command began)
	saved *follow.State // the state written last: the Many gives the same one while nothing changed
	// written is the gen of the text last written: a text of an older gen is not
	// written, so that the state never goes back.
	written, gen uint64
}

// loadState reads the --state file at path (missing: no state yet, nil) and returns its
// saver and the state it holds. A file that is not a state is an error naming its line.
func loadState(path string) (*saver, *follow.State, error) {
	s := &saver{path: path, last: time.Now()}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var st follow.State
	if err := st.UnmarshalText(data); err != nil {
		return nil, nil, err
	}
	return s, &st, nil
}

// due reports whether the state is older than saveEvery.
func (s *saver) due() bool { return time.Since(s.last) >= saveEvery }

// save writes st, unless it is the state written last.
func (s *saver) save(st *follow.State) error {
	if st == s.saved {
		s.last = time.Now()
		return nil
	}
	text, err := st.MarshalText()
	if err != nil {
		return err
	}
	s.gen++
	if err := s.write(text, s.gen); err != nil {
		return err
	}
	s.saved = st
	return nil
}

// write replaces the state file with text, of the given gen, atomically: a temporary
// file beside it, written and synced, renamed over it, and the directory synced, so that
// after a crash the file holds either the old state or the new one, whole. A text older
// than the one written last is not written.
func (s *saver) write(text []byte, gen uint64) error {
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
	s.last = time.Now()
	return syncDir(dir)
}
