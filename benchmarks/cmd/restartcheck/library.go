package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/foreachio/foreach/follow"
	"github.com/foreachio/foreach/linereader"
)

// rotateConf is a logrotate configuration of the scenarios.
type rotateConf struct {
	name string
	body string // the directives, without the braces
	// dated: the rotated names carry the time to the second, so two rotations must be
	// a second apart.
	dated bool
}

var libraryConfs = []rotateConf{
	{"create, dateext, compress, delaycompress", "rotate 100\ncreate\ndateext\ndateformat -%Y%m%d-%s\ncompress\ndelaycompress\n", true},
	{"create, numbered, compress", "rotate 100\ncreate\ncompress\n", false},
	{"copytruncate, numbered", "rotate 100\ncopytruncate\n", false},
}

// rotate runs logrotate once on dir's configuration, forced.
func rotate(logrotate, dir string) error {
	out, err := exec.Command(logrotate, "--force", "--state", filepath.Join(dir, "lr.state"), filepath.Join(dir, "lr.conf")).CombinedOutput()
	if err != nil {
		return fmt.Errorf("logrotate: %v: %s", err, out)
	}
	return nil
}

// libraryScenario: 1,000 records, a follower stops after 400 keeping its checkpoint,
// then rotations with 100 records written before each and after the last, and the
// follower resumes from the checkpoint's text: it must yield records 400 to the end.
func libraryScenario(logrotate, dir string, conf rotateConf, rotations int) (result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return result{}, err
	}
	name := filepath.Join(dir, "app.log")
	if err := os.WriteFile(filepath.Join(dir, "lr.conf"), []byte(name+" {\n"+conf.body+"}\n"), 0o644); err != nil {
		return result{}, err
	}
	if err := appendRecords(name, 0, 1000); err != nil {
		return result{}, err
	}
	text, err := stopAfter(name, 400)
	if err != nil {
		return result{}, err
	}
	seq := 1000
	for i := range rotations {
		if i > 0 && conf.dated {
			time.Sleep(1100 * time.Millisecond)
		}
		if err := appendRecords(name, seq, seq+100); err != nil {
			return result{}, err
		}
		seq += 100
		if err := rotate(logrotate, dir); err != nil {
			return result{}, err
		}
	}
	if err := appendRecords(name, seq, seq+100); err != nil {
		return result{}, err
	}
	seq += 100
	out, err := resume(text, seq-400)
	if err != nil {
		return result{}, err
	}
	return tally([]string{out}, 400, seq), nil
}

// stopAfter follows name, takes n records and returns the checkpoint's text.
func stopAfter(name string, n int) ([]byte, error) {
	r, err := follow.Open(context.Background(), name, linereader.Options{}, follow.Options{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for range n {
		if !r.Next() {
			return nil, fmt.Errorf("the follower ended: %v", r.Err())
		}
	}
	return r.Checkpoint().MarshalText()
}

// resume resumes from the checkpoint's text and returns what it yields until n records
// came, or until nothing more comes for a while.
func resume(text []byte, n int) (string, error) {
	var cp follow.Checkpoint
	if err := cp.UnmarshalText(text); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := follow.Open(ctx, "", linereader.Options{}, follow.Options{Resume: &cp})
	if err != nil {
		return "", err
	}
	defer r.Close()
	var b strings.Builder
	for k := 0; k < n && r.Next(); k++ {
		b.Write(r.Bytes())
	}
	return b.String(), r.Err()
}
