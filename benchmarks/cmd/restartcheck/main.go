// Command restartcheck runs the restart scenarios of following with the real logrotate,
// and counts the records lost, printed in part and printed twice:
//
//   - library: a program follows the log with follow.Open, stops after some records
//     keeping its Checkpoint's text, the log is written and rotated by logrotate once or
//     several times while it is stopped (create with a date suffix, compress and
//     delaycompress; numbered with compress; copytruncate), and it resumes from the
//     checkpoint: every record after it must come exactly once, whole, in order.
//
//   - command: `foreach -f --state FILE` follows the log while a writer appends to it and
//     logrotate rotates it (create, date suffix, compress, delaycompress; and
//     copytruncate), and is killed with SIGKILL at random moments (0.2 to 1.5 s after a
//     start, and within 0.6 s) and started again, sometimes after a rotation made while
//     it was down: every record must be printed, none in part, each run's in order; the
//     records printed twice are counted.
//
//     go run ./benchmarks/cmd/restartcheck -foreach ./foreach -kills 12
//
// benchmarks/follow-restart.sh runs it and writes benchmarks/results/follow-restart.md.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

func main() {
	foreach := flag.String("foreach", "foreach", "the foreach command to kill and restart")
	kills := flag.Int("kills", 12, "SIGKILLs in the command scenario")
	seed := flag.Uint64("seed", 1, "seed of the kill times")
	flag.Parse()
	logrotate, err := exec.LookPath("logrotate")
	if err != nil {
		fail(fmt.Errorf("logrotate is not installed (Debian: apt-get install logrotate)"))
	}
	dir, err := os.MkdirTemp("", "restartcheck")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	fmt.Println("| scenario | rotations while stopped | records after the checkpoint | lost | partial | out of order | duplicated |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for i, conf := range libraryConfs {
		for rotations := 1; rotations <= 3; rotations++ {
			sub := filepath.Join(dir, fmt.Sprintf("conf%d-%d", i, rotations))
			res, err := libraryScenario(logrotate, sub, conf, rotations)
			if err != nil {
				fail(fmt.Errorf("library %s, %d rotations: %w", conf.name, rotations, err))
			}
			fmt.Printf("| library, %s | %d | %d | %d | %d | %d | %d |\n", conf.name, rotations, res.want, res.lost, res.partial, res.outOfOrder, res.dup)
		}
	}
	fmt.Println()
	fmt.Println("| scenario | killed after | SIGKILLs | rotations | records written | lines printed | lost (of them on no file) | partial | out of order | duplicated |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, sc := range commandScenarios {
		res, err := commandScenario(*foreach, logrotate, filepath.Join(dir, fmt.Sprintf("command%d", i)), sc.conf, *kills, sc.after, *seed)
		if err != nil {
			fail(fmt.Errorf("command, %s: %w", sc.conf.name, err))
		}
		fmt.Printf("| foreach -f --state, %s | %v to %v | %d | %d | %d | %d | %d (%d) | %d | %d | %d |\n", sc.conf.name, sc.after.min, sc.after.min+sc.after.span,
			res.kills, res.rotations, res.want, res.printed, res.lost, res.onNoFile, res.partial, res.outOfOrder, res.dup)
	}
}

// commandScenarios are the command's scenarios: round 4's, then with every kill within
// 0.6 s of a start (issue 38: before the first periodic save, and a rotation while
// down, lost records), then with copytruncate.
var commandScenarios = []struct {
	conf  rotateConf
	after killRange
}{
	{libraryConfs[0], killRange{200 * time.Millisecond, 1300 * time.Millisecond}},
	{libraryConfs[0], killRange{0, 600 * time.Millisecond}},
	{libraryConfs[2], killRange{0, 1500 * time.Millisecond}},
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "restartcheck:", err)
	os.Exit(1)
}
