package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// record is record seq of the scenarios: its number and a padding that varies with it.
func record(seq int) string {
	return fmt.Sprintf("seq=%06d %s\n", seq, strings.Repeat("x", seq*7%41))
}

// appendRecords appends records from..to-1 to the file at name, opening and closing it
// for each, as a logger that reopens its file does (so a rotation's new file is used at
// once).
func appendRecords(name string, from, to int) error {
	for seq := from; seq < to; seq++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		_, err = f.WriteString(record(seq))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// result counts what a scenario printed against the records it should have.
type result struct {
	want, printed, lost, partial, dup int
	// outOfOrder counts the records printed after a later one by the same run (a
	// restart may print again what came before: that is a duplicate, not disorder).
	outOfOrder       int
	kills, rotations int
	// lostSeqs are the records lost; onNoFile counts those that no file of the log's
	// directory holds at the end (copytruncate's window: a record appended between
	// logrotate's copy and its truncation is in neither file).
	lostSeqs []int
	onNoFile int
}

var recordLine = regexp.MustCompile(`^seq=(\d{6}) (x*)$`)

// tally counts the lines of the outputs of a scenario's runs (whole lines) against
// records from..to-1.
func tally(outs []string, from, to int) result {
	res := result{want: to - from}
	seen := map[int]int{}
	for _, out := range outs {
		res.run(out, seen)
	}
	for seq := from; seq < to; seq++ {
		switch c := seen[seq]; {
		case c == 0:
			res.lost++
			res.lostSeqs = append(res.lostSeqs, seq)
		case c > 1:
			res.dup += c - 1
		}
	}
	return res
}

// run counts the lines of one run's output into res and seen.
func (res *result) run(out string, seen map[int]int) {
	if out != "" && !strings.HasSuffix(out, "\n") {
		res.partial++ // a last line cut
	}
	prev := -1
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		res.printed++
		m := recordLine.FindStringSubmatch(line)
		if m == nil {
			res.partial++
			continue
		}
		seq, _ := strconv.Atoi(m[1])
		if line+"\n" != record(seq) {
			res.partial++
			continue
		}
		if seq <= prev {
			res.outOfOrder++
		}
		prev = seq
		seen[seq]++
	}
}

// countOnNoFile returns how many of the records seqs no file of dir named base* holds
// (a .gz read decompressed).
func countOnNoFile(dir, base string, seqs []int) (int, error) {
	if len(seqs) == 0 {
		return 0, nil
	}
	names, err := filepath.Glob(filepath.Join(dir, base+"*"))
	if err != nil {
		return 0, err
	}
	var all strings.Builder
	for _, name := range names {
		b, err := readLog(name)
		if err != nil {
			return 0, err
		}
		all.Write(b)
	}
	text, n := all.String(), 0
	for _, seq := range seqs {
		if !strings.Contains(text, record(seq)) {
			n++
		}
	}
	return n, nil
}

// readLog returns the bytes of a log file, decompressed when its name ends in .gz.
func readLog(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !strings.HasSuffix(name, ".gz") {
		return io.ReadAll(f)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}
