package follow

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/foreachio/foreach/linereader"
)

// DefaultPoll is how often a follower looks at the file when Options.Poll is 0;
// MinPoll is the shortest period it takes (a shorter one would keep a core busy looking).
const (
	DefaultPoll = 250 * time.Millisecond
	MinPoll     = time.Millisecond
)

// Options says where Open begins and how it watches the file.
type Options struct {
	// Start is where to begin in the file as it is now: an offset, or -1 for its end,
	// which is the end of its last complete record, so that a record being written when
	// Open is called is yielded whole once it ends. A Start past the end of the file
	// means the file was truncated or replaced: reading begins at 0. (A position that
	// is to outlive the program is a Checkpoint: see Resume.)
	Start int64

	// Last, if positive, begins with the file's last Last complete records, as
	// tail -n N -F does; it takes precedence over Start.
	Last int

	// Resume, if set, goes on where an earlier run stopped (see Checkpoint); it takes
	// precedence over Start and Last. Its Name is the name followed.
	Resume *Checkpoint

	// Poll is how often to look for growth, rotation and truncation when no
	// notification comes; 0 means DefaultPoll, and less than MinPoll means MinPoll.
	// Notifications wake the reader at once where the platform has them; the look every
	// Poll is the safety net for the file systems that send none (network file systems,
	// notification limits reached).
	Poll time.Duration

	// Idle, if set, is called each time the reader has read all there is and is about
	// to wait for the file to change, on the goroutine that iterates (within Next or the
	// iterator's step). A program that buffers its output flushes it there, so that each
	// record is written as soon as it is complete without a write per record.
	Idle func()

	// PollOnly makes the reader look only every Poll, without file-system
	// notifications: for file systems whose notifications cannot be trusted, and for a
	// writer that must not pay for them (while a watch is set, the kernel queues an event
	// for every write(2) to the directory's files).
	PollOnly bool

	// Moved, if set, is called each time reading moves to another file (the next one
	// of a rotation, an older one found late, a copy of the file holding what it had
	// before it was truncated in place, or the new start of a file truncated), before
	// any record of it is yielded, on the goroutine that iterates (within Next or the
	// iterator's step). Checkpoint then names the file moved to: a program that keeps
	// checkpoints stores one there, so that what it stored never names a file left
	// behind (which a rotation may delete).
	Moved func()

	// Flush, with linereader's Options.Multiline, is how long the file must have had
	// nothing new before the record in progress is yielded without the line that would
	// say whether it goes on (0 means DefaultFlush). Until then a record is held, whole:
	// lines that arrive in any number of writes, cut anywhere, even inside a line, join
	// it. A Checkpoint never points inside a record: it names the start of the one held,
	// so that a restart from it yields that record whole, once. A file rotated away
	// ends its last record at once. Without Multiline it changes nothing.
	Flush time.Duration
}

// DefaultFlush is Options.Flush when it is 0. A writer writes an entry's lines together,
// but not always in one write: a logger that buffers its file flushes it when the buffer
// fills or on a timer, commonly once a second, and may cut an entry anywhere. A quiet
// period of twice that keeps such an entry whole, where agents that wait less are known
// to split entries (the OpenTelemetry collector's filelog receiver, 500 ms by default),
// and it shows the last entry of a quiet file sooner than Filebeat's multiline timeout of
// 5 s does.
const DefaultFlush = 2 * time.Second

// Reader is a linereader.Reader that follows: every iterator and method of the embedded
// Reader works on it. Offset and EndOffset count from the start of the file being read
// now; LineNo counts across files. Close releases the files, the goroutine and the
// notifications; a Reader from Open must be closed, also after its loop ended.
type Reader struct {
	*linereader.Reader
	src  *source
	name string
}

// Open opens the named file and returns a Reader that does not end at the end of the
// data: like tail -F, it waits for the file to grow, and when the name is given to a
// new file (the file renamed away and created anew, as log rotation does, or deleted and
// created again) it reads the old file to its end and then goes on with the new one from
// its start; when the file is truncated in place (copytruncate), it goes on from the
// file's new start, after what its copy holds that was not read yet.
//
// The file is known by its identity (device and inode where the platform has them, and
// its content), not by its name: when the name is given to a new file, every file that
// had the name after the one being read is read in turn, to its end, before the file at
// the name now. Those files are found beside the name, under names that begin with the
// name's own (app.log.1, app.log-20261201, app.log.2.gz, read decompressed), and
// ordered by their last modification (which compressors keep), the file at the name
// last: files rotated apart in time come in the order they had the name; files last
// written within one tick of the file system's clock (a few milliseconds on Linux) are
// ordered by birth and inode number, a guess that fast rotation can prove wrong, and a
// file a listing finds late is read as soon as it is found. A file is taken for a copy
// of one read (and not read) only on evidence a shared beginning cannot give (see the
// project's docs/follow.md): a file that begins as another does, with a header or a
// banner, is read.
//
// While following, only complete records are yielded: bytes after the last separator
// are held until their separator arrives, or, for a file that has been rotated away,
// yielded as its last record. With Multiline, a record is held until the line that
// begins the next one arrives, or the file has been quiet for Options.Flush. Iteration ends when ctx is done (Err then reports nil:
// the stop was asked for), on Close, which may be called from any goroutine, or on an
// error: a name that became a directory, a new file that cannot be opened. What is never
// lost, and what can be, is said in the project's docs/follow.md. Checkpoint names the
// file and the offset from the moment Open returns; Options.Moved says when reading
// moves to another file.
//
// The reader waits on file-system notifications where the platform has them (one
// goroutine watches the name's directory; the notification library runs one of its
// own; not with PollOnly) and looks at the file every Poll in any case.
//
// Options that cannot be followed are invalid (the error wraps
// linereader.ErrInvalidOptions): Decompress (a compressed stream is not read as it
// grows) and Whole without a Limit (its one record would never end). With Whole and a
// Limit, records are Limit-sized pieces. Records from Pieces, and the pieces of Runs,
// are pieces of a record longer than the buffer, given out as they arrive; every other
// iterator, and Next, yields whole records only.
func Open(ctx context.Context, name string, opt linereader.Options, fo Options) (*Reader, error) {
	if fo.Resume != nil {
		name = fo.Resume.Name
	}
	if err := validate(name, opt, fo); err != nil {
		return nil, err
	}
	s, err := openSource(name, opt, fo, nil, nil)
	if err != nil {
		return nil, err
	}
	s.start(ctx, name, fo)
	return &Reader{Reader: linereader.NewInputs(s.inputs(), opt), src: s, name: name}, nil
}

// openSource opens the source of name as Open does, without its watcher: Open starts
// one of its own, and a Many watches for all its sources (env, nil for Open, says how
// a Many's source differs; scan: see begin).
func openSource(name string, opt linereader.Options, fo Options, env *manyEnv, scan os.FileInfo) (*source, error) {
	h := newHandles(env.fdCount())
	at, err := openFile(h, name)
	if err != nil {
		return nil, err
	}
	d, err := newDiscovery(name, h, env)
	if err != nil {
		h.closeAll()
		return nil, err
	}
	cur, start, err := begin(at, d, opt, fo, scan)
	if err != nil {
		h.closeAll()
		return nil, err
	}
	s := newSource(d, h, cur, start, opt, fo)
	s.nowait = env != nil
	s.look()
	return s, nil
}

// begin returns the file to read first and the offset to read it from, for Resume,
// Last or Start, with that file positioned there (and for Resume the files to read after
// it queued). scan, if it is at's file, is what at was when a Many first listed it:
// Last and Start -1 count from its size then, the moment OpenMany was called.
func begin(at *file, d *discovery, opt linereader.Options, fo Options, scan os.FileInfo) (*file, int64, error) {
	var start int64
	var err error
	size := at.id.Size()
	if scan != nil && os.SameFile(scan, at.id) && scan.Size() <= size {
		size = scan.Size()
	}
	switch {
	case fo.Resume != nil:
		cur, off := resume(fo.Resume, at, d)
		if cur != at {
			return cur, off, nil // positioned by resume
		}
		start = off
	case fo.Last > 0:
		start, err = lastStart(at.f, size, fo.Last, opt)
	case fo.Start == -1:
		start, err = linereader.LastBoundary(at.f, size, opt)
	case fo.Start > at.id.Size():
		start = 0 // truncated or replaced since
	default:
		start = fo.Start
	}
	if err == nil && fo.Resume == nil && start == 0 && at.id.Size() == 0 {
		if w, off := d.stillWritten(at, opt); w != nil {
			return w, off, nil
		}
	}
	if err == nil {
		_, err = at.f.Seek(start, io.SeekStart)
	}
	return at, start, err
}

// lastStart returns where the last n complete records of src[0:size) begin: where
// linereader.TailStart says they begin before the last boundary, or for options it
// refuses (records that depend on all before them), LastBoundary stepped back n times.
func lastStart(src io.ReaderAt, size int64, n int, opt linereader.Options) (int64, error) {
	end, err := linereader.LastBoundary(src, size, opt)
	if err != nil || opt.Splittable() != nil {
		for i := 0; i < n && end > 0 && err == nil; i++ {
			end, err = linereader.LastBoundary(src, end-1, opt)
		}
		return end, err
	}
	return linereader.TailStart(src, end, n, opt)
}

// validate reports options that Open cannot use, wrapping linereader.ErrInvalidOptions.
func validate(name string, opt linereader.Options, fo Options) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	var faults []string
	if opt.Decompress {
		faults = append(faults, "Decompress cannot be followed (a compressed stream is not read as it grows)")
	}
	if opt.Whole && opt.Limit == 0 {
		faults = append(faults, "Whole without Limit cannot be followed (its one record would never end)")
	}
	if fo.Start < -1 {
		faults = append(faults, fmt.Sprintf("Start %d is negative (-1 means the current end)", fo.Start))
	}
	if fo.Poll < 0 {
		faults = append(faults, fmt.Sprintf("Poll %v is negative", fo.Poll))
	}
	if fo.Flush < 0 {
		faults = append(faults, fmt.Sprintf("Flush %v is negative", fo.Flush))
	}
	if fo.Last < 0 {
		faults = append(faults, fmt.Sprintf("Last %d is negative", fo.Last))
	}
	if fo.Resume != nil && name == "" {
		faults = append(faults, "Resume has no name (the zero Checkpoint)")
	}
	if len(faults) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", linereader.ErrInvalidOptions, strings.Join(faults, "; "))
}

// pollPeriod is Options.Poll as used.
func pollPeriod(p time.Duration) time.Duration {
	if p == 0 {
		p = DefaultPoll
	}
	return max(p, MinPoll)
}

// Close ends iteration (from any goroutine) and releases the files, the goroutine and
// the notifications. It is idempotent. A loop in progress on another goroutine ends
// there, after the complete records already read: the source's Read returns
// linereader.ErrStop, and the embedded Reader, which only the iterating goroutine
// touches, ends on its own.
func (r *Reader) Close() error {
	r.src.close()
	return nil
}

// Reset stops following and releases the files, the goroutine and the notifications,
// then reads src as linereader.New would. Checkpoint then reports no file.
func (r *Reader) Reset(src io.Reader) {
	r.src.close()
	r.Reader.Reset(src)
}
