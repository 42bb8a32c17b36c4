package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/foreachio/foreach/follow"
	"github.com/foreachio/foreach/linereader"
)

// result is what a scenario measured.
type result struct {
	fields []string // "key=value", in order
	lost   int      // records written and not printed
}

func (r *result) add(key string, format string, args ...any) {
	r.fields = append(r.fields, key+"="+fmt.Sprintf(format, args...))
}

func (r *result) String() string { return strings.Join(r.fields, "\t") }

// latencies adds the latency figures of sorted, in milliseconds.
func (r *result) latencies(prefix string, sorted []time.Duration) {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	r.add(prefix+"n", "%d", len(sorted))
	r.add(prefix+"p50-ms", "%.1f", ms(percentile(sorted, 0.50)))
	r.add(prefix+"p99-ms", "%.1f", ms(percentile(sorted, 0.99)))
	r.add(prefix+"max-ms", "%.1f", ms(percentile(sorted, 1)))
}

// makeFiles makes n files in dir, each with one record, and returns their names and
// their writers' files (open for appending, as loggers hold them).
func makeFiles(dir string, n int) ([]string, []*os.File, error) {
	names := make([]string, n)
	files := make([]*os.File, n)
	for i := range n {
		names[i] = filepath.Join(dir, fmt.Sprintf("f%05d.log", i))
		f, err := os.OpenFile(names[i], os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, err
		}
		if _, err := f.Write(record(i, 0, time.Now())); err != nil {
			return nil, nil, err
		}
		files[i] = f
	}
	return names, files, nil
}

// scale: FILES files, WRITTEN of them written to, then idle (see the package's doc).
func scale(c config, dir string) (result, error) {
	var res result
	names, files, err := makeFiles(dir, c.files)
	if err != nil {
		return res, err
	}
	start := time.Now()
	f, err := startFollower(c, dir, names)
	if err != nil {
		return res, err
	}
	defer f.stop()
	use := sample(f.cmd.Process.Pid)
	ok := f.waitFor(c.files, 10*time.Minute)
	res.add("follower", "%s", c.follower)
	res.add("files", "%d", c.files)
	res.add("start-s", "%.2f", time.Since(start).Seconds())
	if !ok {
		res.lost = c.files - f.count()
		res.add("lost", "%d", res.lost)
		return res, nil
	}
	f.takeLatencies()
	total := c.files + writeSpread(files, c)
	ok = f.waitFor(total, time.Minute)
	res.lost = total - f.count()
	res.add("written", "%d", c.written)
	res.add("records", "%d", total)
	res.add("lost", "%d", res.lost)
	res.latencies("", f.takeLatencies())
	cpu, err := idleCPU(f.cmd.Process.Pid, time.Duration(c.idle*float64(time.Second)))
	if err != nil {
		return res, err
	}
	res.add("idle-cpu-pct", "%.2f", cpu*100)
	res.add("max-fds", "%d", use.stop())
	res.add("peak-mib", "%.1f", float64(peakKiB(f.cmd.Process.Pid))/1024)
	return res, nil
}

// writeSpread writes a record to each of c.written files spread over files, every
// c.interval, for c.seconds, and returns how many it wrote.
func writeSpread(files []*os.File, c config) int {
	step := max(1, len(files)/max(1, c.written))
	end := time.Now().Add(time.Duration(c.seconds * float64(time.Second)))
	n, seq := 0, 1
	for next := time.Now(); time.Now().Before(end); next = next.Add(c.interval) {
		time.Sleep(time.Until(next))
		for k := 0; k < c.written && k*step < len(files); k++ {
			files[k*step].Write(record(k*step, seq, time.Now()))
			n++
		}
		seq++
	}
	return n
}

// fair: one file written flat out, QUIET files a record every 100 ms each.
func fair(c config, dir string) (result, error) {
	var res result
	names, files, err := makeFiles(dir, c.quiet+1)
	if err != nil {
		return res, err
	}
	f, err := startFollower(c, dir, names)
	if err != nil {
		return res, err
	}
	defer f.stop()
	if !f.waitFor(len(files), time.Minute) {
		return res, fmt.Errorf("the follower did not print the files' first records")
	}
	f.takeLatencies()
	hot := make(chan int)
	stop := make(chan struct{})
	go func() { hot <- writeFlatOut(files[0], stop) }()
	quiet := writeQuiet(files[1:], c.seconds)
	close(stop)
	hotN := <-hot
	total := len(files) + quiet + hotN
	caught := f.waitFor(total, 5*time.Minute)
	res.add("follower", "%s", c.follower)
	res.add("hot-records", "%d", hotN)
	res.add("quiet-records", "%d", quiet)
	res.lost = total - f.count()
	res.add("lost", "%d", res.lost)
	res.add("caught-up", "%v", caught)
	res.latencies("quiet-", f.quietLatencies())
	return res, nil
}

// writeFlatOut writes records to f as fast as it can, one write(2) each, until stop.
func writeFlatOut(f *os.File, stop chan struct{}) int {
	for seq := 1; ; seq++ {
		select {
		case <-stop:
			return seq - 1
		default:
		}
		f.Write(record(0, seq, time.Now()))
	}
}

// writeQuiet writes a record to each of files every 100 ms, spread over the 100 ms, for
// seconds; it returns how many it wrote.
func writeQuiet(files []*os.File, seconds float64) int {
	const period = 100 * time.Millisecond
	gap := period / time.Duration(len(files))
	end := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	n := 0
	for seq, next := 1, time.Now(); time.Now().Before(end); seq++ {
		for i, fl := range files {
			time.Sleep(time.Until(next.Add(time.Duration(i) * gap)))
			fl.Write(record(i+1, seq, time.Now()))
			n++
		}
		next = next.Add(period)
	}
	return n
}

// newFile: a file made every 200 ms in the watched directory, with one record.
func newFile(c config, dir string) (result, error) {
	var res result
	names, _, err := makeFiles(dir, 10)
	if err != nil {
		return res, err
	}
	f, err := startFollower(c, dir, names)
	if err != nil {
		return res, err
	}
	defer f.stop()
	if !f.waitFor(len(names), time.Minute) {
		return res, fmt.Errorf("the follower did not print the files' first records")
	}
	f.takeLatencies()
	made := makeLater(dir, 20, 200*time.Millisecond)
	f.waitFor(len(names)+made, 10*time.Second)
	res.add("follower", "%s", c.follower)
	res.lost = len(names) + made - f.count()
	res.add("lost", "%d", res.lost)
	res.latencies("new-", f.takeLatencies())
	return res, nil
}

// makeLater makes n files in dir, one every gap, each with one record.
func makeLater(dir string, n int, gap time.Duration) int {
	for i := range n {
		time.Sleep(gap)
		name := filepath.Join(dir, fmt.Sprintf("new%05d.log", i))
		os.WriteFile(name, record(1000+i, 0, time.Now()), 0o644)
	}
	return n
}

// newFileLib is newFile with follow.OpenMany in this process.
func newFileLib(c config, dir string) (result, error) {
	var res result
	m, err := follow.OpenMany(context.Background(), []string{filepath.Join(dir, "*.log")}, linereader.Options{},
		follow.ManyOptions{Options: follow.Options{Poll: c.poll, PollOnly: c.pollOnly}})
	if err != nil {
		return res, err
	}
	lat := make(chan time.Duration, 100)
	go func() {
		for rec := range m.Views() {
			if _, _, at, ok := parse(string(rec.Data)); ok {
				lat <- time.Since(time.Unix(0, at))
			}
		}
		close(lat)
	}()
	made := makeLater(dir, 20, 200*time.Millisecond)
	var got []time.Duration
	for deadline := time.After(10 * time.Second); len(got) < made; {
		select {
		case d := <-lat:
			got = append(got, d)
		case <-deadline:
			made = len(got) // the rest are lost
		}
	}
	m.Close()
	for range lat {
	}
	res.add("follower", "library")
	res.add("poll-only", "%v", c.pollOnly)
	res.add("poll-ms", "%d", c.poll.Milliseconds())
	res.lost = 20 - len(got)
	res.add("lost", "%d", res.lost)
	slices.Sort(got)
	res.latencies("new-", got)
	return res, nil
}
