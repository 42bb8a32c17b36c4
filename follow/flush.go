package follow

import (
	"time"

	"github.com/foreachio/foreach/linereader"
)

// Records of many lines while following (Options.Flush): the engine ends such a record
// when the line that begins the next one arrives; a record whose next line has not
// arrived is ended by the source, which returns linereader.ErrFlush from a Read once the
// file has had nothing new for Flush. The engine then yields the record if its lines are
// complete, and reads on. Nothing else changes: the record's bytes stay in the engine's
// buffer until then (a Many's engine drops them at each wait and reads them again next
// turn), so a read boundary never splits a record, and the checkpoint, just past the
// last record yielded, names the start of the one held.

// quiet is how long the file being read has had nothing new, for Options.Flush.
// Invariants (kept by the goroutine that iterates):
//   - after is Flush as used, 0 without Multiline (never due);
//   - seen is the furthest offset read in the file being read since reading it began: a
//     Many's source reads the bytes after the last record yielded again at each turn
//     (backTo), and those are not new;
//   - grew is when seen last moved forward, or when reading the file began;
//   - told says ErrFlush was returned since grew: once per quiet period, for a second
//     would find nothing more to yield.
type quiet struct {
	after time.Duration
	seen  int64
	grew  time.Time
	told  bool
}

// newQuiet is the quiet of a reading that begins at pos: nothing is due before
// something is read.
func newQuiet(opt linereader.Options, fo Options, pos int64) quiet {
	q := quiet{seen: pos, grew: time.Now(), told: true}
	if opt.Multiline != nil {
		q.after = fo.Flush
		if q.after == 0 {
			q.after = DefaultFlush
		}
	}
	return q
}

// restart notes that reading begins at pos of another file (or of the file read again
// from its start).
func (q *quiet) restart(pos int64) {
	q.seen, q.grew, q.told = pos, time.Now(), true
}

// read notes that reading reached pos.
func (q *quiet) read(pos int64) {
	if pos > q.seen {
		q.seen, q.grew, q.told = pos, time.Now(), false
	}
}

// due reports whether an ErrFlush is due in this quiet period, and in how long (<= 0:
// now).
func (q *quiet) due(now time.Time) (time.Duration, bool) {
	if q.after == 0 || q.told {
		return 0, false
	}
	return q.grew.Add(q.after).Sub(now), true
}

// wait is Read's wait at the end of the data: it returns ErrFlush if one is due now;
// for a Many's source (nowait), ErrStop; else it calls Idle and waits for the files to
// change, or until a flush is due, and returns nil to have Read look again.
func (s *source) wait() error {
	d, due := s.rd.quiet.due(time.Now())
	if due && d <= 0 {
		s.rd.quiet.told = true
		return linereader.ErrFlush
	}
	if s.nowait {
		return linereader.ErrStop
	}
	if s.idle != nil {
		s.idle()
	}
	var flush <-chan time.Time
	if due {
		t := time.NewTimer(d)
		defer t.Stop()
		flush = t.C
	}
	select {
	case <-s.sig.wake:
	case <-s.sig.done:
	case <-flush:
	}
	return nil
}

// flushAt notes that mb holds bytes read after its last record yielded, a record of
// many lines that may be complete: when its source's flush is due, it is queued, so that
// its turn yields the record, whatever its files do meanwhile.
func (s *scheduler) flushAt(mb *member) {
	d, due := mb.src.rd.quiet.due(s.now)
	if !due {
		return
	}
	at := s.now.Add(d)
	if s.flushes == nil {
		s.flushes = map[*member]time.Time{}
	}
	s.flushes[mb] = at
	if len(s.flushes) == 1 || at.Before(s.nextFlush) {
		s.nextFlush = at
	}
}

// flushDue queues the members whose flush is due by now, and notes the next one.
// It looks at them all only when one is due: a Many of many files with a record held in
// each pays for the look once per flush, not once per turn.
func (s *scheduler) flushDue() {
	if len(s.flushes) == 0 || s.now.Before(s.nextFlush) {
		return
	}
	var next time.Time
	for mb, at := range s.flushes {
		switch {
		case !s.now.Before(at):
			delete(s.flushes, mb)
			s.push(mb)
		case next.IsZero() || at.Before(next):
			next = at
		}
	}
	s.nextFlush = next
}

// waitFor is how long the Many's loop may wait: a Poll, or less when a flush is due
// before.
func (s *scheduler) waitFor(poll time.Duration) time.Duration {
	if len(s.flushes) == 0 {
		return poll
	}
	return max(0, min(poll, s.nextFlush.Sub(s.now)))
}
