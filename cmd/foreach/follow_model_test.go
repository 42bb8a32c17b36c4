//go:build unix

package main

// The model-based test of `foreach -f --state` (issue 38): a writer appends records, cut
// into writes anywhere, to a log that is rotated in every scheme logrotate has (create
// with numbered shifting, date suffixes, compress, delaycompress, copytruncate, and a
// mixture), while the command is stopped (SIGSTOP), killed (SIGKILL, at any moment, the
// first 100 ms after a start included) and started again. A reference model knows every
// record written, and which file holds it; against it the outputs of all runs together
// must lose nothing, print nothing in part, print each run's records in the order they
// were written, and print again at a kill no more than what came in the seconds before
// it. In the suite, a few schedules with fixed seeds; benchmarks/follow-model.sh runs
// many more (-model.schedules, -model.report).
//
// Issue 44 extends it to many files (TestFollowModelMany, -model.many): several logs in
// one directory followed by a pattern that also matches their rotated files, each log
// written, rotated in a scheme of its own at each rotation, logs created and deleted, with
// the same stops, kills and restarts; checked per log: every record printed under the
// name of the log it was written to, none lost or in part, each log's records in order
// within a run.

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	modelSchedules = flag.Int("model.schedules", 1, "schedules per rotation scheme in TestFollowModel")
	modelSeed      = flag.Uint64("model.seed", 1, "the first schedule's seed in TestFollowModel")
	modelSteps     = flag.Int("model.steps", 60, "steps of each schedule in TestFollowModel")
	modelReport    = flag.String("model.report", "", "TestFollowModel appends one tab-separated line per schedule to this file (see appendReport)")
	modelMany      = flag.Int("model.many", 1, "schedules of TestFollowModelMany")
)

// modelSchemes are the rotation schemes; "mixture" picks one of the others at each
// rotation.
var modelSchemes = []string{"create", "dateext", "compress", "delaycompress", "copytruncate", "mixture"}

func TestFollowModel(t *testing.T) {
	if testing.Short() {
		t.Skip("the model's schedules take seconds")
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("SIGSTOP and SIGKILL of the command: a Unix with /proc")
	}
	for _, scheme := range modelSchemes {
		for k := range *modelSchedules {
			seed := *modelSeed + uint64(k)
			t.Run(fmt.Sprintf("%s/seed=%d", scheme, seed), func(t *testing.T) {
				m := newModel(t, scheme, seed, false)
				m.run(*modelSteps)
				res := m.check()
				if *modelReport != "" {
					appendReport(t, *modelReport, res)
				}
			})
		}
	}
}

// TestFollowModelMany is the model over many files: `foreach -f -H --state STATE
// 'DIR/*.log*'` over logs written, rotated in every scheme (a scheme of its own at each
// rotation), created and deleted, while the command is stopped, killed and started again.
// The pattern matches the rotated files too: each is read once, under its log's name.
func TestFollowModelMany(t *testing.T) {
	if testing.Short() {
		t.Skip("the model's schedules take seconds")
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("SIGSTOP and SIGKILL of the command: a Unix with /proc")
	}
	for k := range *modelMany {
		seed := *modelSeed + uint64(k)
		t.Run(fmt.Sprintf("many/seed=%d", seed), func(t *testing.T) {
			m := newModel(t, "many", seed, true)
			m.run(*modelSteps)
			res := m.check()
			if *modelReport != "" {
				appendReport(t, *modelReport, res)
			}
		})
	}
}

// modelRecord is record seq: its number and a padding whose length its number gives,
// so that a record cut, or put together from two, shows.
func modelRecord(seq int) string {
	return fmt.Sprintf("seq=%08d %s\n", seq, modelPad[:seq*13%61])
}

var modelPad = strings.Repeat("abcdefghij", 7)

// modelLine is a line the command prints: with -H (many), the name first.
var modelLine = regexp.MustCompile(`^(?:(.*):)?seq=(\d{8}) [a-j]*$`)

// model is the reference: what was written, where it went, and what each run of the
// command printed.
type model struct {
	t     *testing.T
	rng   *rand.Rand
	res   modelResult
	dir   string
	state string
	many  bool        // several logs, followed by a pattern (TestFollowModelMany)
	logs  []*modelLog // the logs written to now
	gone  []*modelLog // the logs deleted
	seq   int         // counts the records begun, in all logs
	logOf []*modelLog // the log each record was written to, by seq
	made  int         // counts the logs made
	runs  []*modelRun
	cur   *modelRun // the run going on; nil while the command is down
	t0    time.Time
	log   []string // what the schedule did, shown when the check fails
}

// modelLog is one log: its name, the writer's file, and its rotated files.
type modelLog struct {
	m    *model
	name string
	w    *os.File // the writer's file: the log as the writer opened it
	// rest is the part of the last record begun in this log not written yet (a record
	// cut across writes).
	rest  string
	last  int          // the last record begun in this log; -1: none
	files []*modelFile // the rotated files, newest first
	dated int          // the last date suffix
	moved bool         // the log was renamed away and the writer has not reopened it yet
}

// note notes what the schedule did.
func (m *model) note(format string, args ...any) {
	m.log = append(m.log, fmt.Sprintf("%6d seq %5d: ", time.Since(m.t0).Milliseconds(), m.seq)+fmt.Sprintf(format, args...))
}

// modelFile is a rotated file: its name now, and the records it holds, whole: those of
// its log in [from, to), by seq.
type modelFile struct {
	path     string
	from, to int
}

// modelResult is what a schedule did and what its check found.
type modelResult struct {
	Scheme     string
	Seed       uint64
	Steps      int
	Records    int
	Printed    int
	Kills      int
	EarlyKills int // within 100 ms of a start
	Stops      int
	Rotations  map[string]int
	Lost       int
	Partial    int
	Duplicated int
	DupBound   int // what the kills allowed: records printed in the dupWindow before each
	OutOfOrder int
	Seconds    float64
}

func newModel(t *testing.T, scheme string, seed uint64, many bool) *model {
	dir := t.TempDir()
	m := &model{t: t, rng: rand.New(rand.NewPCG(seed, 38)), dir: dir, state: filepath.Join(dir, "state"), many: many,
		res: modelResult{Scheme: scheme, Seed: seed, Rotations: map[string]int{}}, t0: time.Now()}
	if !many {
		m.newLog("app.log")
		return m
	}
	for range 3 {
		m.newLog(fmt.Sprintf("l%02d.log", m.made))
	}
	return m
}

// newLog makes a log called base in the directory, its writer's file open.
func (m *model) newLog(base string) *modelLog {
	l := &modelLog{m: m, name: filepath.Join(m.dir, base), last: -1}
	m.made++
	l.reopen()
	m.logs = append(m.logs, l)
	return l
}

// run runs a schedule of steps random steps, then lets the command print the rest.
func (m *model) run(steps int) {
	start := time.Now()
	m.start()
	m.waitState() // a first run killed before it saved anything is no restart
	for range steps {
		m.step()
	}
	m.finish()
	m.res.Steps, m.res.Seconds = steps, time.Since(start).Seconds()
}

// step is one random step of the schedule.
func (m *model) step() {
	switch r := m.rng.IntN(100); {
	case r < 45:
		m.pick().write(1 + m.rng.IntN(40))
	case r < 60:
		m.pick().rotate()
	case r < 70 && m.cur != nil && !m.cur.stopped:
		m.kill()
	case r < 76 && m.cur != nil && !m.cur.stopped:
		m.note("stop")
		m.cur.stop()
		m.res.Stops++
	case r < 85 && m.cur != nil && m.cur.stopped:
		m.note("cont")
		m.cur.cont()
	case r < 92 && m.cur == nil:
		m.start()
		if m.rng.IntN(3) == 0 { // at once or within 100 ms
			time.Sleep(time.Duration(m.rng.IntN(100)) * time.Millisecond)
			m.kill()
			m.res.EarlyKills++
		}
	case r < 95 && m.many && len(m.logs) < 6:
		l := m.newLog(fmt.Sprintf("l%02d.log", m.made))
		m.note("create %s", filepath.Base(l.name))
	case r < 97 && m.many && len(m.logs) > 1:
		m.pick().remove()
	default:
		time.Sleep(time.Duration(m.rng.IntN(300)) * time.Millisecond)
	}
	time.Sleep(time.Duration(m.rng.IntN(20)) * time.Millisecond)
}

// pick picks a log at random.
func (m *model) pick() *modelLog { return m.logs[m.rng.IntN(len(m.logs))] }

// write writes n records, each cut into one to three writes anywhere; the last may be
// left unfinished, to be finished by the next write.
func (l *modelLog) write(n int) {
	m := l.m
	var b strings.Builder
	b.WriteString(l.rest)
	for range n {
		b.WriteString(modelRecord(m.seq))
		m.logOf = append(m.logOf, l)
		l.last = m.seq
		m.seq++
	}
	data := b.String()
	m.note("write %s %d..%d", filepath.Base(l.name), m.seq-n, m.seq-1)
	l.rest = ""
	if m.rng.IntN(3) == 0 {
		cut := len(data) - 1 - m.rng.IntN(len(modelRecord(l.last))-1)
		data, l.rest = data[:cut], data[cut:]
	}
	for len(data) > 0 {
		k := min(len(data), 1+m.rng.IntN(120))
		if _, err := l.w.WriteString(data[:k]); err != nil {
			m.t.Fatal(err)
		}
		data = data[k:]
	}
}

// boundary finishes the record being written.
func (l *modelLog) boundary() {
	if l.rest != "" {
		if _, err := l.w.WriteString(l.rest); err != nil {
			l.m.t.Fatal(err)
		}
		l.rest = ""
	}
}

// reopen has the writer open the name again, as a logger told to reopen does, at a
// record boundary.
func (l *modelLog) reopen() {
	l.boundary()
	if l.w != nil {
		l.w.Close()
	}
	f, err := os.OpenFile(l.name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		l.m.t.Fatal(err)
	}
	if l.moved {
		l.files[0].to = l.m.seq // the file renamed away holds no more
	}
	l.w, l.moved = f, false
}

// rotate rotates the log in the schedule's scheme, a tick of the file system's clock
// after the last write, so that the files are rotated apart in time.
func (l *modelLog) rotate() {
	m := l.m
	scheme := m.res.Scheme
	if scheme == "mixture" || scheme == "many" {
		scheme = modelSchemes[m.rng.IntN(len(modelSchemes)-1)]
	}
	if l.moved {
		l.reopen() // a rename before the writer reopened would make two files at once
	}
	time.Sleep(12 * time.Millisecond)
	m.res.Rotations[scheme]++
	m.note("rotate %s %s", filepath.Base(l.name), scheme)
	defer func() {
		var names []string
		for _, f := range l.files {
			names = append(names, fmt.Sprintf("%s[%d,%d)#%d", filepath.Base(f.path), f.from, f.to, inode(f.path)))
		}
		m.note("files %s, %s#%d", strings.Join(names, " "), filepath.Base(l.name), inode(l.name))
	}()
	switch scheme {
	case "copytruncate":
		l.boundary()
		l.shift()
		data, err := os.ReadFile(l.name)
		m.must(err)
		m.must(os.WriteFile(l.name+".1", data, 0o644))
		m.must(os.Truncate(l.name, 0))
		l.files = slices.Insert(l.files, 0, &modelFile{path: l.name + ".1", from: l.lastTo(), to: m.seq})
	case "dateext":
		l.dated++
		l.renameAway(fmt.Sprintf("%s-%08d", l.name, l.dated))
	default:
		l.shift()
		l.renameAway(l.name + ".1")
		switch scheme {
		case "compress":
			l.reopen() // postrotate, then compress
			l.compress(l.files[0])
		case "delaycompress":
			if len(l.files) > 1 && !strings.HasSuffix(l.files[1].path, ".gz") {
				l.compress(l.files[1])
			}
		}
	}
	l.prune()
	time.Sleep(12 * time.Millisecond)
}

// renameAway renames the log to path and creates it anew; the writer goes on with the
// old file for a while (it reopens at a later step, or before the next rotation).
func (l *modelLog) renameAway(path string) {
	m := l.m
	m.must(os.Rename(l.name, path))
	f, err := os.OpenFile(l.name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	m.must(err)
	f.Close()
	l.files = slices.Insert(l.files, 0, &modelFile{path: path, from: l.lastTo(), to: -1}) // to: set by reopen
	l.moved = true
	if m.rng.IntN(2) == 0 {
		l.write(1 + m.rng.IntN(3)) // late records, to the old file
		l.reopen()
	}
}

// lastTo is where the records of the file rotated last end: where the next one's
// begin.
func (l *modelLog) lastTo() int {
	if len(l.files) == 0 {
		return 0
	}
	return l.files[0].to
}

// shift renames name.k (or name.k.gz) to name.k+1, oldest first.
func (l *modelLog) shift() {
	for _, f := range l.files {
		if !strings.HasPrefix(f.path, l.name+".") {
			continue
		}
		rest := strings.TrimPrefix(f.path, l.name+".")
		num, ext, _ := strings.Cut(rest, ".")
		k, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		next := fmt.Sprintf("%s.%d", l.name, k+1)
		if ext != "" {
			next += "." + ext
		}
		f.path = next
	}
	// Renamed oldest first, so that none is renamed over another.
	for i := len(l.files) - 1; i >= 0; i-- {
		f := l.files[i]
		if !strings.HasPrefix(f.path, l.name+".") {
			continue
		}
		old := l.previous(f.path)
		if old != "" {
			l.m.must(os.Rename(old, f.path))
		}
	}
}

// previous is the name path had before shift gave it the next number.
func (l *modelLog) previous(path string) string {
	rest := strings.TrimPrefix(path, l.name+".")
	num, ext, _ := strings.Cut(rest, ".")
	k, err := strconv.Atoi(num)
	if err != nil || k < 2 {
		return ""
	}
	old := fmt.Sprintf("%s.%d", l.name, k-1)
	if ext != "" {
		old += "." + ext
	}
	return old
}

// compress compresses f's file to f.path.gz, keeping its time, and removes it, as gzip
// does.
func (l *modelLog) compress(f *modelFile) {
	m := l.m
	data, err := os.ReadFile(f.path)
	m.must(err)
	fi, err := os.Stat(f.path)
	m.must(err)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	m.must(os.WriteFile(f.path+".gz", b.Bytes(), 0o644))
	m.must(os.Chtimes(f.path+".gz", fi.ModTime(), fi.ModTime()))
	m.must(os.Remove(f.path))
	f.path += ".gz"
}

// keep is how many rotated files are kept; an older one is deleted once every record in
// it has been printed (the model's guarantee holds for what is on disk).
const keep = 4

func (l *modelLog) prune() {
	for len(l.files) > keep {
		f := l.files[len(l.files)-1]
		if f.to < 0 || !l.m.printedAll(l, f.from, f.to) {
			return
		}
		l.m.must(os.Remove(f.path))
		l.files = l.files[:len(l.files)-1]
	}
}

// remove deletes the log and its rotated files, once every record written to it has
// been printed (a log deleted with records no run could print yet would lose them by
// the schedule, not by the command): a service gone, its logs with it.
func (l *modelLog) remove() {
	m := l.m
	l.boundary()
	if !m.printedAll(l, 0, m.seq) {
		return
	}
	m.note("remove %s", filepath.Base(l.name))
	l.w.Close()
	m.must(os.Remove(l.name))
	for _, f := range l.files {
		m.must(os.Remove(f.path))
	}
	m.logs = slices.DeleteFunc(m.logs, func(o *modelLog) bool { return o == l })
	m.gone = append(m.gone, l)
}

// printedAll reports whether some run printed every record of l in [from, to) (nil:
// of any log).
func (m *model) printedAll(l *modelLog, from, to int) bool {
	seen := make([]bool, to-from)
	for _, r := range m.runs {
		for _, s := range r.seqs() {
			if s >= from && s < to {
				seen[s-from] = true
			}
		}
	}
	for i, ok := range seen {
		if !ok && (l == nil || m.logOf[from+i] == l) {
			return false
		}
	}
	return true
}

func (m *model) must(err error) {
	m.t.Helper()
	if err != nil {
		m.t.Fatal(err)
	}
}

// start starts a run of the command: over the log by its name, or, with many logs, over
// the pattern that matches them and their rotated files.
func (m *model) start() {
	args := []string{"-f", "--state", m.state, filepath.Join(m.dir, "app.log")}
	if m.many {
		args = []string{"-f", "-H", "--state", m.state, filepath.Join(m.dir, "*.log*")}
	}
	r := startModelRun(m.t, args)
	m.note("start run %d, pid %d", len(m.runs), r.cmd.Process.Pid)
	m.runs = append(m.runs, r)
	m.cur = r
}

// kill kills the run going on with SIGKILL.
func (m *model) kill() {
	m.note("kill; state %q", readFile(m.state))
	m.cur.kill()
	m.cur = nil
	m.res.Kills++
}

// waitState waits until the run going on has saved its state once.
func (m *model) waitState() {
	deadline := time.Now().Add(outputDeadline)
	for {
		if _, err := os.Stat(m.state); err == nil {
			return
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("no state within %v", outputDeadline)
		}
		time.Sleep(time.Millisecond)
	}
}

// finish lets a run go on until every record written has been printed by some run (or
// a deadline passes), and ends it with SIGTERM.
func (m *model) finish() {
	for _, l := range m.logs {
		l.boundary()
	}
	if m.cur == nil {
		m.start()
	}
	if m.cur.stopped {
		m.cur.cont()
	}
	deadline := time.Now().Add(4 * outputDeadline)
	for !m.printedAll(nil, 0, m.seq) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	m.cur.term()
	m.cur = nil
}

// dupWindow is how long before a kill the records a run printed may be printed again
// by the next run: the state is saved at least once a second while records arrive
// (saveEvery), and a loaded machine delays a save by a while more.
const dupWindow = 2500 * time.Millisecond

// check checks the outputs against the model, and returns what it found.
func (m *model) check() modelResult {
	t, res := m.t, &m.res
	res.Records = m.seq
	seen := make([]int, m.seq)
	for i, r := range m.runs {
		m.checkRun(i, r, seen)
		if i+1 < len(m.runs) && r.killed {
			res.DupBound += r.printedWithin(dupWindow)
		}
	}
	for seq, n := range seen {
		if n == 0 {
			res.Lost++
			if res.Lost <= 5 {
				t.Errorf("record %d was never printed", seq)
			}
		}
	}
	if t.Failed() {
		for i, r := range m.runs {
			seqs := r.seqs()
			if len(seqs) > 0 {
				t.Logf("run %d printed %d..%d (%d lines)", i, seqs[0], seqs[len(seqs)-1], len(seqs))
			}
		}
		t.Logf("the schedule:\n%s", strings.Join(m.log, "\n"))
	}
	if res.Duplicated > res.DupBound {
		t.Errorf("%d records printed again after kills, more than the %d printed in the %v before them", res.Duplicated, res.DupBound, dupWindow)
	}
	t.Logf("%+v", *res)
	return *res
}

// checkRun checks the lines of run i: each a whole record, under the name of the log it
// was written to (with many logs), each log's in the order written; seen counts the
// records printed by the runs so far.
func (m *model) checkRun(i int, r *modelRun, seen []int) {
	t, res := m.t, &m.res
	prev := map[*modelLog]int{}
	lines := r.lines()
	res.Printed += len(lines)
	for _, line := range lines {
		mm := modelLine.FindStringSubmatch(line.text)
		seq := -1
		if mm != nil {
			seq, _ = strconv.Atoi(mm[2])
		}
		rec := line.text
		if mm != nil && mm[1] != "" {
			rec = strings.TrimPrefix(rec, mm[1]+":")
		}
		if seq < 0 || seq >= m.seq || rec+"\n" != modelRecord(seq) || m.many && mm[1] != m.logOf[seq].name {
			res.Partial++
			t.Errorf("run %d printed %q: not a record of the log it names", i, line.text)
			continue
		}
		l := m.logOf[seq]
		if p, ok := prev[l]; ok && seq <= p {
			res.OutOfOrder++
			t.Errorf("run %d printed record %d of %s after %d", i, seq, filepath.Base(l.name), p)
		}
		prev[l] = seq
		if i > 0 && seen[seq] > 0 {
			res.Duplicated++
		}
		seen[seq]++
	}
}

func inode(path string) uint64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// appendReport appends res to path as one line of tab-separated fields: scheme, seed,
// steps, records, printed, kills, early kills, stops, rotations (scheme=count,...),
// lost, partial, duplicated, the bound on duplicates, out of order, seconds, and pass
// or fail.
func appendReport(t *testing.T, path string, res modelResult) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rot []string
	for _, s := range modelSchemes {
		if n := res.Rotations[s]; n > 0 {
			rot = append(rot, fmt.Sprintf("%s=%d", s, n))
		}
	}
	verdict := "pass"
	if t.Failed() {
		verdict = "fail"
	}
	fmt.Fprintf(f, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%.1f\t%s\n", res.Scheme, res.Seed, res.Steps,
		res.Records, res.Printed, res.Kills, res.EarlyKills, res.Stops, strings.Join(rot, ","),
		res.Lost, res.Partial, res.Duplicated, res.DupBound, res.OutOfOrder, res.Seconds, verdict)
}

// modelRun is one run of `foreach -f --state STATE NAME`, its output read as it comes,
// each line with the time it came (less the time the run was stopped).
type modelRun struct {
	cmd     *exec.Cmd
	mu      sync.Mutex
	out     []timedLine
	partial string
	stopped bool
	since   time.Time     // when stopped
	idle    time.Duration // stopped so far
	killed  bool
	ended   chan struct{}
	endedAt time.Duration // its running time when it ended
	t0      time.Time
}

type timedLine struct {
	text string
	at   time.Duration // running time
}

func startModelRun(t *testing.T, args []string) *modelRun {
	t.Helper()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &modelRun{ended: make(chan struct{}), t0: time.Now()}
	r.cmd = exec.Command(os.Args[0], args...)
	r.cmd.Env = append(os.Environ(), runMainEnv+"=1", "GORACE=atexit_sleep_ms=0")
	r.cmd.Stdout = outW
	var stderr bytes.Buffer
	r.cmd.Stderr = &stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	go r.read(outR)
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		// The name is missing for a moment while it is renamed away and created anew.
		name := args[len(args)-1]
		s := strings.ReplaceAll(stderr.String(), "foreach: "+quoteName(name)+": No such file or directory; waiting for it to appear\n", "")
		if s != "" && !r.killed {
			t.Errorf("the command's standard error: %q", s)
		}
	})
	return r
}

// read reads the run's output until it ends.
func (r *modelRun) read(out *os.File) {
	defer close(r.ended)
	defer out.Close()
	buf := make([]byte, 1<<16)
	for {
		n, err := out.Read(buf)
		r.mu.Lock()
		at := r.running()
		text := r.partial + string(buf[:n])
		for {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				break
			}
			r.out = append(r.out, timedLine{text[:i], at})
			text = text[i+1:]
		}
		r.partial = text
		r.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// running is the run's running time now (called with mu held).
func (r *modelRun) running() time.Duration {
	d := time.Since(r.t0) - r.idle
	if r.stopped {
		d -= time.Since(r.since)
	}
	return d
}

func (r *modelRun) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cmd.Process.Signal(syscall.SIGSTOP)
	r.stopped, r.since = true, time.Now()
}

func (r *modelRun) cont() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cmd.Process.Signal(syscall.SIGCONT)
	r.idle += time.Since(r.since)
	r.stopped = false
}

// kill kills the run and waits until its output is read.
func (r *modelRun) kill() {
	r.mu.Lock()
	r.endedAt = r.running()
	r.killed = true
	r.mu.Unlock()
	r.cmd.Process.Kill()
	r.cmd.Wait()
	<-r.ended
}

// term ends the run with SIGTERM and waits until its output is read.
func (r *modelRun) term() {
	r.cmd.Process.Signal(syscall.SIGTERM)
	r.cmd.Wait()
	<-r.ended
}

// lines is the run's output, whole lines and a last one cut, if any.
func (r *modelRun) lines() []timedLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.out)
	if r.partial != "" {
		out = append(out, timedLine{r.partial, r.running()})
	}
	return out
}

// seqs are the records the run printed so far.
func (r *modelRun) seqs() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for _, l := range r.out {
		if mm := modelLine.FindStringSubmatch(l.text); mm != nil {
			n, _ := strconv.Atoi(mm[2])
			out = append(out, n)
		}
	}
	return out
}

// printedWithin counts the lines the run printed within d of its end.
func (r *modelRun) printedWithin(d time.Duration) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, l := range r.out {
		if l.at >= r.endedAt-d {
			n++
		}
	}
	return n
}
