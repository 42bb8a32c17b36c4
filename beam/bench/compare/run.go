package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

// Outcome is one contender's run over one file, checked against the reference.
type Outcome struct {
	Verdict string // exact, differs (another rule, named in Detail), wrong, or failed
	Detail  string // what differs, or the error
	Got     Digest
	// Bytes is what the reader asked of the filesystem; -1 where it could not be measured.
	Bytes   int64
	Opens   int64         // files opened for reading, one per restriction processed and more
	Elapsed time.Duration // building and running the pipeline
}

// runContender builds and runs c's pipeline over path on the runner of Beam's flags
// (Prism unless --runner says otherwise), then checks its digest against ref. A pipeline
// that fails is an Outcome (failed), not an error: errors are for the harness itself.
func runContender(ctx context.Context, c contender, path string, ref Reference, tmp string) (Outcome, error) {
	glob, err := countedPath(path)
	if err != nil {
		return Outcome{}, err
	}
	out := filepath.Join(tmp, c.id+".digest")
	if err := os.Remove(out); err != nil && !errors.Is(err, os.ErrNotExist) {
		return Outcome{}, err
	}

	if c.build == nil {
		return runSequential(c, path, ref)
	}
	start := time.Now()
	bytes0, opens0 := fsStats.bytes.Load(), fsStats.opens.Load()
	rchar0 := processReadBytes()
	p, s := beam.NewPipelineWithRoot()
	digests, err := c.build(s, glob, path)
	rchar1 := processReadBytes()
	var o Outcome
	if err == nil {
		beam.ParDo0(s, &writeDigestFn{Path: out}, digests)
		err = beamx.Run(ctx, p)
	}
	o.Elapsed = time.Since(start)
	o.Bytes, o.Opens = fsStats.bytes.Load()-bytes0, fsStats.opens.Load()-opens0
	if c.immediate {
		// Immediate reads the file with os.Open while the pipeline is built, outside any
		// Beam filesystem: the process's own count of bytes read while it built stands in
		// (the runner has not started, nothing else reads).
		o.Bytes, o.Opens = -1, 1
		if rchar0 >= 0 && rchar1 >= 0 {
			o.Bytes = rchar1 - rchar0
		}
	}
	if err != nil {
		o.Verdict, o.Detail = "failed", oneLine(err.Error())
		return o, nil
	}
	if o.Got, err = readDigests(out); err != nil {
		return Outcome{}, err
	}
	if o.Bytes == 0 && o.Got.Records > 0 {
		o.Bytes = -1 // the workers ran in another process: their reads are not counted here
	}
	o.Verdict, o.Detail = verdict(c, o.Got, ref)
	return o, nil
}

// runSequential is the sequential read, timed like the pipelines and checked against the
// reference made before the runs (which it must equal: it is the same read).
func runSequential(c contender, path string, ref Reference) (Outcome, error) {
	start := time.Now()
	bytes0, opens0 := fsStats.bytes.Load(), fsStats.opens.Load()
	seq, err := reference(path)
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{Got: seq.LF, Elapsed: time.Since(start)}
	o.Bytes, o.Opens = fsStats.bytes.Load()-bytes0, fsStats.opens.Load()-opens0
	o.Verdict, o.Detail = verdict(c, o.Got, ref)
	return o, nil
}

// readDigests merges the digests the pipeline wrote; no file is no record.
func readDigests(path string) (Digest, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Digest{}, nil
	}
	if err != nil {
		return Digest{}, err
	}
	defer f.Close()
	var total Digest
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var d Digest
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return Digest{}, fmt.Errorf("%s: %v", path, err)
		}
		total = total.Merge(d)
	}
	return total, sc.Err()
}

// verdict compares a digest with the reference: exact when it equals the records under
// textio's rule; otherwise it names the rule it does follow, if one of the reference's,
// or how many records and bytes came out.
func verdict(c contender, got Digest, ref Reference) (string, string) {
	want := ref.LF
	switch {
	case c.countOnly && got.Records == want.Records, got == want:
		return "exact", ""
	case c.countOnly:
		return "wrong", fmt.Sprintf("%s records, want %s", thousands(got.Records), thousands(want.Records))
	case got == ref.CRLF:
		return "differs", `drops the "\r" of every "\r\n" (bufio.ScanLines)`
	case got == ref.Prefix && ref.Text > ref.Size:
		return "wrong", fmt.Sprintf("exactly the records that start before text offset %s, the compressed size", thousands(uint64(ref.Size)))
	}
	return "wrong", fmt.Sprintf("%s of %s records, %s of %s bytes", thousands(got.Records), thousands(want.Records), thousands(got.Bytes), thousands(want.Bytes))
}

// oneLine makes an error fit a cell of a table: Beam's errors carry the whole stage's
// plan over many lines, while the cause is in the first line or the last one that names
// a reader.
func oneLine(msg string) string {
	lines := strings.Split(msg, "\n")
	best := strings.TrimSpace(lines[0])
	for _, l := range lines {
		if strings.Contains(l, "token too long") || strings.Contains(l, "foreachio:") || strings.Contains(l, "TextIO") {
			best = strings.TrimSpace(l)
		}
	}
	best = strings.ReplaceAll(best, "\t", " ")
	if len(best) > 240 {
		best = best[:240] + "…"
	}
	return best
}
