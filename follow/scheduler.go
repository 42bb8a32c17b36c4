package follow

import (
	"slices"
	"sync"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// scheduler is what the goroutine that iterates keeps of a Many's members: the queue of
// those with records to read, taken in turn, and what they share. Only that goroutine
// uses it, but for inbox, where the watcher puts the members it nudges.
type scheduler struct {
	queue   []*member            // the members to read, in turn; each once (member.queued)
	inbox   inbox                // the members the watcher nudged since the last look
	starved []*member            // members to open once the Many holds fewer files
	engines []*linereader.Reader // engines free for the next member to read
	open    map[*member]struct{} // the members open
	limit   int                  // the most files open: MaxOpen, less once the process ran out of descriptors
	// claims are the files read, by identity, each by the member that reads it (or
	// stands in it, parked): a file is read under one name (a hard link, or a file renamed
	// to another name that a pattern matches, is not read again).
	claims map[devIno]*member
	now    time.Time   // when the loop last woke: the members' last times, without a clock read per record
	timer  *time.Timer // the loop's wait of a Poll, made once
	// flushes are the members holding a record of many lines that may be complete, each
	// with when its source's flush is due (Options.Flush: see flushAt); nextFlush is no
	// later than the earliest of them.
	flushes   map[*member]time.Time
	nextFlush time.Time
}

// inbox is where the watcher's goroutine puts the members it nudges.
type inbox struct {
	mu   sync.Mutex
	list []*member
}

// nudge puts mb in the inbox, if it is not there already, and wakes the loop: its files
// may have changed, or its name.
func (m *Many) nudge(mb *member) {
	if !mb.shared.nudged.CompareAndSwap(false, true) {
		return
	}
	m.run.inbox.mu.Lock()
	m.run.inbox.list = append(m.run.inbox.list, mb)
	m.run.inbox.mu.Unlock()
	m.signal()
}

// push queues mb behind the others, if it is not queued.
func (s *scheduler) push(mb *member) {
	if mb.queued || mb.st == memberGone {
		return
	}
	mb.queued = true
	s.queue = append(s.queue, mb)
}

// pop takes the next member to read, the nudged ones queued first; nil when there is
// none.
func (s *scheduler) pop() *member {
	s.inbox.mu.Lock()
	in := s.inbox.list
	s.inbox.list = nil
	s.inbox.mu.Unlock()
	for _, mb := range in {
		mb.shared.nudged.Store(false)
		s.push(mb)
	}
	s.flushDue()
	if len(s.queue) == 0 {
		return nil
	}
	mb := s.queue[0]
	s.queue[0] = nil
	s.queue = s.queue[1:]
	if len(s.queue) == 0 {
		s.queue = s.queue[:0:0] // let the array go once drained
	}
	mb.queued = false
	return mb
}

// starve notes mb as waiting for a descriptor.
func (s *scheduler) starve(mb *member) {
	if !slices.Contains(s.starved, mb) {
		s.starved = append(s.starved, mb)
	}
}

// unstarve queues the members waiting for a descriptor again, while there is room.
func (s *scheduler) unstarve(held int) {
	for len(s.starved) > 0 && held < s.limit {
		s.push(s.starved[0])
		s.starved = slices.Delete(s.starved, 0, 1)
		held++
	}
}

// engine returns an engine for a member's records: a free one, or a new one.
func (s *scheduler) engine(opt linereader.Options) *linereader.Reader {
	if n := len(s.engines); n > 0 {
		e := s.engines[n-1]
		s.engines = s.engines[:n-1]
		return e
	}
	return linereader.New(nil, opt)
}

// release gives p's engine back, the records it yielded counted in p.lines.
func (s *scheduler) release(p *memberPos) {
	if p.eng == nil {
		return
	}
	p.lines += p.eng.LineNo()
	p.eng.Reset(nil)
	s.engines = append(s.engines, p.eng)
	p.eng = nil
}

// claim notes the file mb reads as mb's; if another member reads it already, it is left
// that one's and returned.
func (s *scheduler) claim(mb *member) *member {
	if mb.src == nil || mb.src.rd.cur == nil {
		return nil
	}
	id, ok := fileID(mb.src.rd.cur.id)
	if !ok {
		return nil
	}
	if other := s.claims[id]; other != nil && other != mb && other.st != memberGone && other.st != memberAside {
		return other
	}
	s.unclaim(mb)
	s.claims[id] = mb
	mb.claim = &id
	return nil
}

// unclaim lets go of mb's claim.
func (s *scheduler) unclaim(mb *member) {
	if mb.claim != nil && s.claims[*mb.claim] == mb {
		delete(s.claims, *mb.claim)
	}
	mb.claim = nil
}
