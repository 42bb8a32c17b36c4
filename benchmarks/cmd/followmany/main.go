// Command followmany measures a follower of many files (issue 44): `foreach -f` over a
// pattern, or GNU `tail -F` over the same names, run as a process of its own beside
// writers in this one. Every record is "f=FILE seq=SEQ ts=NANOSECONDS", so that what the
// follower prints says which file it came from and when it was written; the latency of a
// record is from just before its write(2) to the moment its line is read from the
// follower's output. benchmarks/follow-many.sh runs it and makes the report.
//
//	followmany -scenario scale -follower foreach -foreach PATH -files 10000 -written 100
//	followmany -scenario fair -follower tail -seconds 10
//	followmany -scenario newfile -follower foreach -foreach PATH
//	followmany -scenario newfile-lib -poll-only
//
// Scenarios:
//   - scale: FILES files of one record each are followed (the follower prints them
//     first); then WRITTEN of them each get a record every INTERVAL for SECONDS; then
//     nothing is written for IDLE seconds. It reports every record delivered or not, the
//     most descriptors the follower held, its CPU at idle, its peak memory, and the
//     latency while written.
//   - fair: one file written as fast as the writer can (a write(2) per record) and QUIET
//     files each getting a record every 100 ms, for SECONDS: the latency of the quiet
//     files' records.
//   - newfile: a file made in the watched directory every 200 ms, with one record: the
//     latency of that record (tail -F is given names, not a pattern: it has none).
//   - newfile-lib: the same with follow.OpenMany in this process, with notifications or
//     with the poll alone (-poll-only, -poll).
//
// It prints one line of tab-separated "key=value" fields, and exits 1 if a record was
// not delivered.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// config is the command line.
type config struct {
	scenario, follower, foreach string
	files, written, quiet       int
	maxOpen                     int
	seconds, idle               float64
	interval, poll              time.Duration
	pollOnly                    bool
}

func main() {
	var c config
	flag.StringVar(&c.scenario, "scenario", "scale", "scale, fair, newfile or newfile-lib")
	flag.StringVar(&c.follower, "follower", "foreach", "foreach or tail")
	flag.StringVar(&c.foreach, "foreach", "foreach", "the foreach binary")
	flag.IntVar(&c.files, "files", 10000, "scale: files followed")
	flag.IntVar(&c.written, "written", 100, "scale: files written to")
	flag.IntVar(&c.quiet, "quiet", 50, "fair: quiet files")
	flag.IntVar(&c.maxOpen, "max-open", 256, "foreach's --max-open")
	flag.Float64Var(&c.seconds, "seconds", 10, "how long the files are written")
	flag.Float64Var(&c.idle, "idle", 10, "scale: how long nothing is written, for the CPU at idle")
	flag.DurationVar(&c.interval, "interval", 100*time.Millisecond, "scale: a record to each written file every interval")
	flag.DurationVar(&c.poll, "poll", 250*time.Millisecond, "newfile-lib: Poll")
	flag.BoolVar(&c.pollOnly, "poll-only", false, "newfile-lib: no notifications")
	flag.Parse()
	dir, err := os.MkdirTemp("", "followmany")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	var res result
	switch c.scenario {
	case "scale":
		res, err = scale(c, dir)
	case "fair":
		res, err = fair(c, dir)
	case "newfile":
		res, err = newFile(c, dir)
	case "newfile-lib":
		res, err = newFileLib(c, dir)
	default:
		err = fmt.Errorf("unknown scenario %q", c.scenario)
	}
	if err != nil {
		fail(err)
	}
	fmt.Println(res.String())
	if res.lost > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "followmany:", err)
	os.Exit(2)
}
