package main

import (
	"bufio"
	"bytes"
	"hash/fnv"
	"os"
	"regexp"

	"github.com/foreachio/foreach/linereader"
)

// summary is what a loop reports of the records it saw: their number and bytes, and
// with check a hash of each record's bytes and of where it ends, so that two loops that
// report the same summary saw the same records.
type summary struct {
	records, bytes int64
	sum            uint64
}

func (s *summary) add(rec []byte, check bool) {
	s.records++
	s.bytes += int64(len(rec))
	if check {
		h := fnv.New64a()
		h.Write(rec)
		s.sum = s.sum*31 + h.Sum64()
	}
}

// contender is one way of reading a file's records of many lines: run reads the named
// file with the record pattern re (a Start pattern) and summarizes what it saw.
type contender struct {
	name string
	run  func(path string, re *regexp.Regexp, check bool) (summary, error)
}

var (
	scanner = contender{"Scanner+regexp+Buffer", scanJoin}
	views   = contender{"Views+Multiline", viewsJoin}
	plain   = contender{"Views, lines", viewsPlain}
	count1  = contender{"Count+Multiline(1)", func(p string, re *regexp.Regexp, _ bool) (summary, error) { return countJoin(p, re, 1) }}
	count2  = contender{"Count+Multiline(2)", func(p string, re *regexp.Regexp, _ bool) (summary, error) { return countJoin(p, re, 2) }}
)

// loop: Scanner+regexp+Buffer
// What a program writes today: bufio.Scanner's lines, the regexp on each, the lines of
// a record joined in a bytes.Buffer (with the "\n" Scanner dropped put back).
func scanJoin(path string, re *regexp.Regexp, check bool) (summary, error) {
	var s summary
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<30)
	sc.Split(linesKeepCR)
	var rec bytes.Buffer
	for sc.Scan() {
		line := sc.Bytes()
		if rec.Len() > 0 && re.Match(line) {
			s.add(rec.Bytes(), check)
			rec.Reset()
		}
		rec.Write(line)
		rec.WriteByte('\n')
	}
	if rec.Len() > 0 {
		s.add(rec.Bytes(), check)
	}
	return s, sc.Err()
}

// end

// linesKeepCR is bufio.ScanLines without its dropping of a "\r" before the "\n": the Go
// sources hold a few lines that end "\r\n", and the records compared must be the file's
// bytes. It costs what ScanLines costs.
func linesKeepCR(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// loop: Views+Multiline
func viewsJoin(path string, re *regexp.Regexp, check bool) (summary, error) {
	var s summary
	r, err := linereader.Open(path, linereader.Options{Multiline: &linereader.Multiline{Start: re}})
	if err != nil {
		return s, err
	}
	defer r.Close()
	for rec := range r.Views() {
		s.add(rec, check)
	}
	return s, r.Err()
}

// end

// viewsPlain reads the same bytes as lines, without Multiline: the plain line reading
// the goal compares with.
func viewsPlain(path string, _ *regexp.Regexp, check bool) (summary, error) {
	var s summary
	r, err := linereader.Open(path, linereader.Options{})
	if err != nil {
		return s, err
	}
	defer r.Close()
	for rec := range r.Views() {
		s.add(rec, check)
	}
	return s, r.Err()
}

// countJoin counts the records of many lines with linereader.Count on workers cores.
func countJoin(path string, re *regexp.Regexp, workers int) (summary, error) {
	n, err := linereader.Count(path, linereader.Options{Multiline: &linereader.Multiline{Start: re}}, workers)
	return summary{records: n}, err
}
