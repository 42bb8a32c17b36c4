package follow

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// State is where a Many stands: a Checkpoint for each followed name, under the name's
// absolute path (so that a state is found again from another directory). Its text form
// is one file: one Checkpoint text form per line, sorted by name, which is also what
// `foreach -f --state` has always written (a state file of rounds 4 and 5, one line per
// followed file, is a State). A State is not changed once Many.State returns it.
type State struct {
	cps map[string]Checkpoint // by key (stateKey of Checkpoint.Name, which is the key)
}

// stateKey is the key of a name in a State: its cleaned absolute path, so that
// ./app.log and app.log, or the same name followed from another directory, are one. (A
// name that is not absolute in a state file, as round 4 wrote them, is taken relative to
// the directory the program runs in.)
func stateKey(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

// MarshalText returns the state as text: one line per name, each a Checkpoint's text
// form ending with a newline, sorted by name; an empty state is empty text.
func (s *State) MarshalText() ([]byte, error) {
	var b bytes.Buffer
	for _, cp := range s.Checkpoints() {
		line, err := cp.MarshalText()
		if err != nil {
			return nil, err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// UnmarshalText sets s from text that MarshalText made (empty lines are passed over);
// anything else is an error naming the line, and s is left as it was. A name met on
// two lines is an error too.
func (s *State) UnmarshalText(text []byte) error {
	cps := map[string]Checkpoint{}
	for i, line := range bytes.Split(text, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			continue
		}
		var cp Checkpoint
		if err := cp.UnmarshalText(line); err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		key := stateKey(cp.Name)
		if _, dup := cps[key]; dup {
			return fmt.Errorf("line %d: follow: %q has a checkpoint already", i+1, cp.Name)
		}
		cp.Name = key
		cps[key] = cp
	}
	s.cps = cps
	return nil
}

// Checkpoints returns the state's checkpoints, sorted by name; each names its file by
// its absolute path.
func (s *State) Checkpoints() []Checkpoint {
	if s == nil {
		return nil
	}
	out := make([]Checkpoint, 0, len(s.cps))
	for _, cp := range s.cps {
		out = append(out, cp)
	}
	slices.SortFunc(out, func(a, b Checkpoint) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Checkpoint returns the checkpoint of name (as followed, or its absolute path), if the
// state has one.
func (s *State) Checkpoint(name string) (Checkpoint, bool) {
	if s == nil {
		return Checkpoint{}, false
	}
	cp, ok := s.cps[stateKey(name)]
	return cp, ok
}

// Len is how many names the state holds.
func (s *State) Len() int {
	if s == nil {
		return 0
	}
	return len(s.cps)
}

// stateBook is what Many.State is made of besides the members: the checkpoints of
// ManyOptions.Resume for names no pattern matches (carried, as they were), and the last
// State made, given again while nothing changed. Only the goroutine that iterates uses
// it.
type stateBook struct {
	carried map[string]Checkpoint // by key
	last    *State
	changes uint64 // counts records yielded and members opened, moved, parked and gone
	at      uint64 // changes when last was made
}

// state returns m's State: every member's checkpoint and the carried ones.
func (b *stateBook) state(m *Many) *State {
	if b.last != nil && b.at == b.changes {
		return b.last
	}
	s := &State{cps: make(map[string]Checkpoint, len(b.carried))}
	for k, cp := range b.carried {
		s.cps[k] = cp
	}
	for _, mb := range m.names.members() {
		if cp, ok := m.checkpointOf(mb); ok {
			cp.Name = mb.key
			s.cps[mb.key] = cp
		}
	}
	b.last, b.at = s, b.changes
	return s
}
