package linereader

import (
	"bytes"
	"errors"
	"io"
	"runtime/debug"
	"unicode/utf8"

	"github.com/foreachio/foreach/bytelist"
	"github.com/foreachio/foreach/internal/decompress"
)

// engine cuts an input into records. It is the whole of one goroutine's reading state:
// the caller's goroutine owns it, except while a read-ahead producer runs (readahead.go),
// which then owns it alone until it has stopped.
//
// Four functions make the data path, and every iterator goes through them:
//   - advance finds the end of the next record (the only per-record separator search);
//   - emit applies Chomp and sets what the caller sees (lo, hi, off, lineNo);
//   - run takes every complete record buffered at once, for Runs and packed batches;
//   - fill refills the buffer, the only caller of the source's Read.
//
// Records are copied out by clone (reader.go) and by batch (batch.go), nowhere else.
type engine struct {
	cfg config
	src io.Reader
	dec *decompress.Reader // src, when Options.Decompress is set

	// The buffer. Invariants, restored by every method before it returns:
	//   - data == buf.Bytes(): refreshed after every call that changes buf.
	//   - data[:start] is consumed (yielded or skipped); data[start:] is input not yet
	//     yielded: it starts the next record (paragraph mode: after the newlines that
	//     advance skips first) or, when partial is set, continues the record whose
	//     earlier pieces were yielded.
	//   - start <= scan <= len(data): data[start:scan] has been searched and holds no
	//     separator that could end the record, so a search resumes at scan instead of
	//     rescanning (for a multi-byte separator scan stays len(sep)-1 bytes back, since
	//     a separator may straddle two reads).
	//   - base is the input offset of data[0]; origin is the offset reading began at.
	buf    *bytelist.ByteList
	data   []byte
	start  int
	scan   int
	base   int64
	origin int64

	// The source. eof: it will deliver nothing more (io.EOF, or an error kept in rerr to
	// report once the buffered bytes are yielded). empties counts reads in a row that
	// returned nothing; reads counts calls to Read.
	eof     bool
	rerr    error
	empties int
	reads   int

	// The last record: data[lo:hi], valid until the engine advances (kept as indexes so
	// that advancing stores no pointer, which would pay a write barrier while the
	// collector runs). off is its input offset, lineNo the line count after it and
	// prevLine the count before it (for unread).
	lo, hi   int
	off      int64
	lineNo   int64
	prevLine int64

	// Pieces (advance with pieces set): partial says the last record is a piece of a
	// longer record that continues at start; pieceLen counts the bytes of that record
	// yielded so far and pieceOff is where it began.
	partial  bool
	pieceLen int
	pieceOff int64

	// fast: the next advance may take the short path (a one-byte separator, no Limit, no
	// MaxRecord, not a section, not inside a record in pieces, not ended). Kept as one
	// flag so that the hot path tests one byte.
	fast bool

	// A section (NewSection): stopAt >= 0 ends it, no record starting at or after it is
	// yielded; seek says the section has yet to skip to its first record boundary.
	stopAt int64
	seek   bool

	err  error // sticky: the error that stopped the engine
	done bool  // the engine has stopped and yields nothing more

	// Giving memory back: sinceGrow counts the bytes consumed since the last long record,
	// one that held more than a quarter of the buffer unfinished when fill was called (or
	// since the buffer last grew). Once it passes the capacity, a buffer larger than
	// releaseCap has outlived the record that needed it, and compact gives it back. While
	// long records keep coming the buffer is kept: giving it back would only grow it
	// again, copying at every step (measured: 28 growths and 3× the time of a loop over
	// 64 MiB of 1 MB lines, when the count ran from the last growth only). releaseCap is
	// 4 MiB, or 16 times BufferSize if more: a smaller buffer is cheap to keep, and
	// giving back one of a MiB or so between records that need it only grew it again.
	sinceGrow  int64
	releaseCap int

	batchHint int // records in the last batch, to size the next one's slice
}

// Buffer growth. The engine's buffer doubles while it is smaller than bigBuffer and grows
// by a quarter beyond: for a longest record of L bytes the capacity stays under 2L (plus
// a read) below bigBuffer and under 1.25L + BufferSize above, and the moment of a growth,
// when the old and the new array are both alive, holds at most 2.25L.
//
// The arrays a growth leaves behind are garbage the collector frees only at its next
// cycle, and the runtime returns freed memory to the OS only gradually: a 1 GiB line
// measured 3.5 GiB of peak RSS that way. So a growth past bigBuffer returns the old
// array's memory at once (debug.FreeOSMemory: a collection, cheap here since a buffer of
// bytes holds no pointers to scan, and a dozen or so for a 1 GiB record), which keeps
// peak RSS at about 2L (measured: 1.8–2.0× for 256 MiB and 1 GiB lines, Views and Lines;
// scripts/memory.sh, benchmarks/results/memory.md).
const (
	bigBuffer   = 64 << 20
	slowGrowth  = 1.25
	releaseMult = 4 // Reset gives back a buffer grown past releaseMult × BufferSize
)

func newEngine(cfg config) engine {
	size := cfg.readSize
	if cfg.err != nil {
		size = 0
	}
	return engine{
		cfg:        cfg,
		buf:        bytelist.NewWithGrowth(size, slowGrowth),
		releaseCap: max(16*cfg.readSize, 4<<20),
	}
}

// reset starts the engine over on src, keeping the buffer (a soft reset), unless it grew
// past releaseMult × BufferSize for a record of the last input.
func (e *engine) reset(src io.Reader) {
	e.closeSource()
	e.src = src
	if e.cfg.opt.Decompress && e.cfg.err == nil {
		e.dec = decompress.NewReader(src)
		e.src = e.dec
	}
	e.buf.Reset()
	if e.buf.Cap() > releaseMult*e.cfg.readSize {
		e.buf.Release(e.cfg.readSize)
	}
	e.data = e.buf.Bytes()
	e.start, e.scan, e.base, e.origin = 0, 0, 0, 0
	e.eof, e.rerr, e.empties, e.reads = false, nil, 0, 0
	e.lo, e.hi, e.off, e.lineNo, e.prevLine = 0, 0, 0, 0, 0
	e.partial, e.pieceLen, e.pieceOff = false, 0, 0
	e.stopAt, e.seek = -1, false
	e.err, e.done = nil, false
	e.sinceGrow = 0
	e.setFast()
}

// closeSource releases the decompressor's resources, if there is one.
func (e *engine) closeSource() {
	if e.dec != nil {
		e.dec.Close()
		e.dec = nil
	}
}

// compressed reports the format of the input and the compressed bytes read so far
// (Options.Decompress), "" and 0 otherwise.
func (e *engine) compressed() (string, int64) {
	if e.dec == nil {
		return "", 0
	}
	return string(e.dec.Format()), e.dec.CompressedBytes()
}

func (e *engine) setFast() {
	e.fast = e.cfg.simple && !e.done && !e.partial && e.stopAt < 0 && !e.seek
}

// rec returns the last record, a view of the buffer.
func (e *engine) rec() []byte { return e.data[e.lo:e.hi:e.hi] }

// end returns the input offset just past what has been consumed.
func (e *engine) end() int64 { return e.base + int64(e.start) }

// advance moves to the next record: lo, hi, off and lineNo. It returns false at the end
// of the input or on an error, kept in err. With pieces set, a record that does not fit
// in BufferSize bytes is not buffered whole: it comes in pieces of about BufferSize bytes
// (partial is set for all but the last), so that memory stays bounded whatever its length.
func (e *engine) advance(pieces bool) bool {
	if e.fast {
		// The common case, kept short: the record's end is already buffered.
		if i := bytes.IndexByte(e.data[e.scan:], e.cfg.sepByte); i >= 0 {
			end := e.scan + i + 1
			hi := e.cfg.byteEnd(e.data, e.start, end)
			e.prevLine = e.lineNo
			e.lineNo++
			e.lo, e.hi, e.off = e.start, hi, e.base+int64(e.start)
			e.start, e.scan = end, end
			return true
		}
		e.scan = len(e.data) // searched: the general path resumes there
	}
	return e.advanceSlow(pieces)
}

func (e *engine) advanceSlow(pieces bool) bool {
	if e.done {
		return false
	}
	if e.cfg.err != nil {
		return e.fail(e.cfg.err)
	}
	if e.seek {
		e.seekBoundary()
	}
	sepLen := len(e.cfg.sep)
	limit, maxRec := e.cfg.opt.Limit, e.cfg.opt.MaxRecord
	for {
		if !e.partial {
			// At a record's start.
			if e.cfg.mode == modeParagraph {
				e.skipNewlines()
			}
			if e.stopAt >= 0 && e.end() >= e.stopAt {
				return e.finish()
			}
		}
		avail := len(e.data) - e.start
		if avail == 0 {
			if e.eof {
				if e.nextInput() {
					continue
				}
				return e.finish()
			}
			e.fill()
			continue
		}

		// The search window: the whole buffer, or what is left of the record's Limit.
		hi, cut := len(e.data), false
		if limit > 0 && limit-e.pieceLen <= avail {
			hi, cut = e.start+limit-e.pieceLen, true
		}
		end := -1
		switch e.cfg.mode {
		case modeByte:
			if i := bytes.IndexByte(e.data[e.scan:hi], e.cfg.sepByte); i >= 0 {
				end = e.scan + i + 1
			}
		case modeBytes, modeParagraph:
			if i := bytes.Index(e.data[e.scan:hi], e.cfg.sep); i >= 0 {
				end = e.scan + i + sepLen
			}
		}
		switch {
		case end >= 0:
			return e.emit(end, true)
		case cut:
			return e.cutAtLimit(hi)
		case maxRec > 0 && e.pieceLen+avail > maxRec:
			return e.tooLong()
		case e.eof && e.rerr == errStopped:
			// A stopped source: the bytes without their separator are not a record.
			e.start = len(e.data)
			return e.finish()
		case e.eof:
			// The last record, unterminated, with limit to spare: it counts as a line.
			return e.emit(len(e.data), true)
		}
		// Nothing ends the record in what is buffered: remember how far the search got
		// and read more, or give what is safe to give as a piece.
		if sepLen > 1 {
			e.scan = max(e.start, hi-(sepLen-1))
		} else {
			e.scan = hi
		}
		if pieces && avail >= e.cfg.readSize {
			if p := e.pieceEnd(); p > e.start {
				return e.emitPiece(p)
			}
		}
		e.fill()
	}
}

// pieceEnd returns where a piece of the unfinished record may end: before the bytes that
// could still belong to its separator, before a "\r" that chomp may remove with the "\n"
// of the next read, far enough before a UTF-8 Limit cut that the bytes it looks back at stay buffered, and always
// before the last byte, so that the record's last piece is never empty.
func (e *engine) pieceEnd() int {
	p := min(e.scan, len(e.data)-1)
	if e.cfg.crlf && e.cfg.opt.Chomp && p > e.start && e.data[p-1] == '\r' {
		p--
	}
	if e.cfg.opt.UTF8 && e.cfg.opt.Limit > 0 {
		// Leave at least 4 bytes of the Limit for after the piece, so that the bytes a
		// cut looks back at are all still buffered.
		p = min(p, e.start+e.cfg.opt.Limit-e.pieceLen-4)
	}
	return p
}

// emitPiece yields data[start:p], a piece of a record that goes on after it.
func (e *engine) emitPiece(p int) bool {
	if !e.partial {
		e.pieceOff = e.end()
	}
	e.prevLine = e.lineNo
	e.lo, e.hi, e.off = e.start, p, e.end()
	e.pieceLen += p - e.start
	e.partial = true
	e.start = p
	e.setFast()
	return true
}

// unread undoes the last advance, so that the next one yields the same record. It is
// valid only right after advance returned a whole record (not a piece): the record is
// still buffered then.
func (e *engine) unread() {
	e.start, e.scan = e.lo, e.lo
	e.lineNo = e.prevLine
}

// skipNewlines drops the newlines before a paragraph, reading as needed.
func (e *engine) skipNewlines() {
	for {
		for e.start < len(e.data) && e.data[e.start] == '\n' {
			e.start++
		}
		e.scan = max(e.scan, e.start)
		if e.start < len(e.data) || e.eof {
			return
		}
		e.fill()
	}
}

// cutAtLimit yields the record data[start:hi] that the limit cut, first extending it by
// up to 3 bytes when Options.UTF8 says not to split a character.
func (e *engine) cutAtLimit(hi int) bool {
	if !e.cfg.opt.UTF8 {
		return e.emit(hi, false)
	}
	n := hi - e.start // relative to start, which fill keeps valid when it moves the buffer
	ext := 0
	for ext < 3 && incompleteUTF8(e.data[e.start:e.start+n]) {
		if e.start+n < len(e.data) {
			n++
			ext++
			continue
		}
		if e.eof {
			break
		}
		e.fill()
	}
	end := e.start + n
	ended := ext > 0 && e.cfg.mode != modeWhole && bytes.HasSuffix(e.data[e.start:end], e.cfg.sep)
	return e.emit(end, ended)
}

// incompleteUTF8 reports whether p ends inside a UTF-8 sequence that more bytes could
// still complete: its last character starts with a lead byte that announces more bytes
// than follow it. An invalid sequence counts as complete, so it is never extended.
func incompleteUTF8(p []byte) bool {
	for k := 1; k <= 3 && k <= len(p); k++ {
		if c := p[len(p)-k]; !utf8.RuneStart(c) {
			continue
		}
		return !utf8.FullRune(p[len(p)-k:])
	}
	return false
}

// emit makes data[start:end] the last record: the whole record, or the last piece of
// one. ended says whether it counts as a line for LineNo: it ended on its separator, or
// at end of input with limit to spare. Only such a record is chomped.
func (e *engine) emit(end int, ended bool) bool {
	if m := e.cfg.opt.MaxRecord; m > 0 && e.pieceLen+end-e.start > m {
		return e.tooLong()
	}
	e.prevLine = e.lineNo
	hi := end
	if ended {
		e.lineNo++
		if e.cfg.opt.Chomp {
			hi = e.start + len(e.chomp(e.data[e.start:end]))
		}
	}
	e.lo, e.hi, e.off = e.start, hi, e.end()
	e.start, e.scan = end, end
	e.partial, e.pieceLen = false, 0
	e.setFast()
	return true
}

// byteEnd returns where the record b[lo:end], which ends with the one-byte separator,
// ends as yielded: end, or with Chomp before the separator (and before a "\r" with the
// default separator). It is chomp for the fast paths, small enough to be inlined.
func (c *config) byteEnd(b []byte, lo, end int) int {
	if !c.opt.Chomp {
		return end
	}
	end--
	if c.crlf && end > lo && b[end-1] == '\r' {
		end--
	}
	return end
}

// chomp removes the separator that ends rec, if it ends with one (a record that ended at
// end of input may not).
func (e *engine) chomp(rec []byte) []byte {
	switch e.cfg.mode {
	case modeWhole:
		return rec
	case modeByte:
		n := len(rec)
		if n == 0 || rec[n-1] != e.cfg.sepByte {
			return rec
		}
		if e.cfg.crlf && n >= 2 && rec[n-2] == '\r' {
			return rec[: n-2 : n-2]
		}
		return rec[: n-1 : n-1]
	}
	if bytes.HasSuffix(rec, e.cfg.sep) {
		n := len(rec) - len(e.cfg.sep)
		return rec[:n:n]
	}
	return rec
}

func (e *engine) tooLong() bool {
	off := e.end()
	if e.partial {
		off = e.pieceOff
	}
	return e.fail(&TooLongError{Offset: off, LineNo: e.lineNo + 1, Max: e.cfg.opt.MaxRecord})
}

// finish ends iteration at the end of the input, reporting a read error kept until the
// buffered bytes were yielded (none for a stopped source).
func (e *engine) finish() bool {
	if e.rerr == errStopped {
		return e.fail(nil)
	}
	return e.fail(e.rerr)
}

// Sources made of several inputs, and sources that can be stopped (Follow). They are
// unexported: only this package makes such sources.
//
// A multiInput source ends each of its inputs with io.EOF. Once every byte of one input
// has been yielded (its unterminated tail as its last record), the engine asks nextInput
// whether another input follows; if so it reads on from that input's first byte, with
// offsets counted from 0 again and line numbers going on.
//
// A source returns errStopped from Read when it was asked to stop (Follow's context, or
// Close): iteration then ends with no error, and bytes buffered without their separator
// are dropped, not yielded as a record, so that a record is never given out half written.
type multiInput interface {
	io.Reader
	nextInput() bool
}

// A stopper is a source that Reader.Close stops instead of ending the engine itself
// (Follow's): stop may be called from any goroutine, and makes the source's Read return
// errStopped promptly, also from a Read that is waiting for data.
type stopper interface {
	stop() error
}

// errStopped is returned by a source's Read when iteration was asked to stop.
var errStopped = errors.New("linereader: source stopped")

// nextInput moves to the source's next input, if it is a multiInput with one. It is
// called with every buffered byte consumed.
func (e *engine) nextInput() bool {
	m, ok := e.src.(multiInput)
	if !ok || e.rerr != nil || !m.nextInput() {
		return false
	}
	consumed := e.end() - e.origin
	e.buf.Reset()
	e.data = e.buf.Bytes()
	e.start, e.scan, e.base, e.origin = 0, 0, 0, -consumed // Stats.Bytes counts every input
	e.eof, e.empties = false, 0
	return true
}

func (e *engine) fail(err error) bool {
	e.done, e.err = true, err
	e.fast = false
	return false
}

// run takes, at once, the complete records buffered after start that end within
// `within` bytes of it (0: anywhere), at most maxRecs of them (0: any number): one search
// from the end finds where the last of them ends, and bytes.Count counts them. It returns
// the run's bounds in data and the number of records, 0 (having consumed nothing) when
// no complete record is buffered there. It applies only where records are the input as
// it is, cut at a separator that cannot overlap itself, with nothing checked per record
// (see Reader.runnable); afterwards the last record (lo, hi, off, lineNo) is the run's
// last, as if each record had been advanced to.
func (e *engine) run(within, maxRecs int) (lo, hi, n int) {
	if e.done || e.partial {
		return 0, 0, 0
	}
	sep := e.cfg.sep
	lo = e.start
	limit := len(e.data)
	if within > 0 {
		limit = min(limit, lo+within)
	}
	if e.scan >= limit {
		return 0, 0, 0
	}
	var last int
	if len(sep) == 1 {
		last = lastIndexByte(e.data[e.scan:limit], sep[0])
	} else {
		last = bytes.LastIndex(e.data[e.scan:limit], sep)
	}
	if last < 0 {
		// Searched: advance resumes after it (a multi-byte separator may straddle the
		// next read).
		e.scan = min(limit, max(e.start, limit-(len(sep)-1)))
		return 0, 0, 0
	}
	hi = e.scan + last + len(sep)
	n = bytes.Count(e.data[lo:hi], sep)
	if maxRecs > 0 && n > maxRecs {
		// Very short records: end the run at its maxRecs-th record.
		hi, n = lo, maxRecs
		for range maxRecs {
			hi += bytes.Index(e.data[hi:], sep) + len(sep)
		}
	}
	// The last record starts after the separator before it.
	lastLo := lo
	if n > 1 {
		if len(sep) == 1 {
			lastLo += lastIndexByte(e.data[lo:hi-1], sep[0]) + 1
		} else {
			lastLo += bytes.LastIndex(e.data[lo:hi-len(sep)], sep) + len(sep)
		}
	}
	e.prevLine = e.lineNo + int64(n) - 1
	e.lineNo += int64(n)
	e.lo, e.hi, e.off = lastLo, hi, e.base+int64(lastLo)
	e.start, e.scan = hi, hi
	return lo, hi, n
}

// fill reads once from the source into the buffer. To make room it first moves the
// unconsumed bytes to the front when that frees enough space, and otherwise grows the
// buffer (see bigBuffer): it grows only when one record does not fit.
func (e *engine) fill() {
	rs := e.cfg.readSize
	if len(e.data)-e.start > e.buf.Cap()/4 {
		e.sinceGrow = 0 // a long record
	}
	// Compact when the buffer has no room for a read, and also, once half of it is
	// consumed, whenever what would move is no more than a read: moving it is cheap then,
	// and the record it begins gets the whole buffer. Waiting for the buffer to fill moved
	// the start of every long record that began past its middle (measured on 512 to
	// 768 KiB lines: 55% of the input moved once; compacting early, 7%).
	if e.start > 0 && (e.buf.Cap()-e.buf.Len() < rs || len(e.data)-e.start <= rs && e.start >= e.buf.Cap()/2) {
		e.compact()
	}
	if spare := e.buf.Cap() - e.buf.Len(); spare == 0 || spare < rs/2 {
		e.grow()
	}
	n := min(e.buf.Cap()-e.buf.Len(), rs)
	m, err := e.buf.Fill(e.src, n)
	e.reads++
	e.data = e.buf.Bytes()
	switch {
	case err != nil:
		e.eof = true
		if err != io.EOF {
			e.rerr = err
		}
	case m > 0:
		e.empties = 0
	default:
		e.empties++
		if e.empties >= maxEmptyReads {
			e.eof, e.rerr = true, io.ErrNoProgress
		}
	}
}

// grow makes room for at least a read: it doubles a buffer under bigBuffer and adds a
// quarter beyond (the buffer's growth factor is slowGrowth).
func (e *engine) grow() {
	c := e.buf.Cap()
	add := e.cfg.readSize
	if c < bigBuffer {
		add = max(add, c)
	}
	e.growBy(add)
}

// growBy grows the buffer to hold add more bytes (at least a quarter more, the buffer's
// growth factor), and gives the old array's memory back at once past bigBuffer.
func (e *engine) growBy(add int) {
	e.buf.Grow(add)
	e.data = e.buf.Bytes()
	e.sinceGrow = 0
	if e.buf.Cap() > bigBuffer {
		debug.FreeOSMemory()
	}
}

// compact drops the consumed prefix data[:start], moving the rest to the front. When the
// buffer grew for a record long gone, it also gives the large array back; when what it
// moved fills more than five eighths of the buffer, the buffer grows to twice that and a
// read (by a quarter past bigBuffer), since records that long would otherwise be moved at
// nearly every read. (Five eighths: growing to twice what moved is then at least the
// quarter the buffer grows by anyway, so the capacity stays under twice the longest
// record and a read.)
func (e *engine) compact() {
	s := e.start
	e.sinceGrow += int64(s)
	if s == len(e.data) {
		e.buf.Reset()
	} else {
		e.buf.Discard(s)
	}
	e.base += int64(s)
	e.start, e.scan, e.lo, e.hi = 0, e.scan-s, 0, 0
	if c := e.buf.Cap(); c > e.releaseCap && e.sinceGrow > int64(c) && e.buf.Len() < c/4 {
		e.buf.Release(max(e.cfg.readSize, 2*e.buf.Len()))
		e.sinceGrow = 0
	} else if l := e.buf.Len(); l > c/8*5 {
		if c < bigBuffer {
			e.growBy(l + e.cfg.readSize)
		} else {
			e.grow()
		}
	}
	e.data = e.buf.Bytes()
}

// release gives back a buffer grown beyond BufferSize, keeping the unconsumed bytes.
func (e *engine) release() {
	if e.buf.Cap() <= e.cfg.readSize {
		return
	}
	if e.start > 0 {
		e.compact()
	}
	e.buf.Release(max(e.cfg.readSize, e.buf.Len()))
	e.data = e.buf.Bytes()
	e.sinceGrow = 0
}
