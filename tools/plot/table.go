package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// maxLine bounds one line of an input file: both formats have short lines, so a longer
// one is a file of some other kind, said as such rather than read whole.
const maxLine = 64 << 10

// A table is a tab-separated file with a header line, read whole. Columns are found by
// their header names, so that a writer may add columns, or reorder them, without
// breaking this reader.
type table struct {
	name  string         // the file's name, first in every message
	cols  map[string]int // index of each header name in a line's fields
	width int            // fields in the header, and so in every data line
	rows  []row          // the data lines, in file order
}

// A row is one data line: its fields and its line number in the file (1 is the header).
type row struct {
	line   int
	fields []string
}

// readTable reads a table whose header has at least the columns named by required.
// Empty lines and lines starting with "#" are skipped anywhere; every other line must
// have as many fields as the header.
func readTable(name string, r io.Reader, required []string) (*table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	t := &table{name: name}
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if t.cols == nil {
			if err := t.setHeader(n, fields, required); err != nil {
				return nil, err
			}
			continue
		}
		if len(fields) != t.width {
			return nil, t.errorf(n, "%d fields, want %d as in the header (fields are separated by tabs)", len(fields), t.width)
		}
		t.rows = append(t.rows, row{line: n, fields: fields})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: a line longer than %d bytes: not a results file", name, maxLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if t.cols == nil {
		return nil, fmt.Errorf("%s: empty: no header line", name)
	}
	return t, nil
}

func (t *table) setHeader(n int, fields, required []string) error {
	t.cols = make(map[string]int, len(fields))
	t.width = len(fields)
	for i, f := range fields {
		if _, dup := t.cols[f]; dup {
			return t.errorf(n, "header: column %q twice", f)
		}
		t.cols[f] = i
	}
	var missing []string
	for _, c := range required {
		if _, ok := t.cols[c]; !ok {
			missing = append(missing, c)
		}
	}
	if missing != nil {
		return t.errorf(n, "header: no column %s (want the columns %s, tab-separated)",
			strings.Join(missing, ", "), strings.Join(required, " "))
	}
	return nil
}

func (t *table) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", t.name, line, fmt.Sprintf(format, args...))
}

// has says whether the header names column c.
func (t *table) has(c string) bool {
	_, ok := t.cols[c]
	return ok
}

// text returns the field of column c in r, which must not be empty.
func (t *table) text(r row, c string) (string, error) {
	s := r.fields[t.cols[c]]
	if s == "" {
		return "", t.errorf(r.line, "%s is empty", c)
	}
	return s, nil
}

// count returns the field of column c in r as a whole number of at least least.
func (t *table) count(r row, c string, least int64) (int64, error) {
	s := r.fields[t.cols[c]]
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, t.errorf(r.line, "%s %q is not a whole number", c, s)
	}
	if v < least {
		return 0, t.errorf(r.line, "%s %d is less than %d", c, v, least)
	}
	return v, nil
}

// seconds returns the field of column c in r as a positive, finite number.
func (t *table) seconds(r row, c string) (float64, error) {
	s := r.fields[t.cols[c]]
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, t.errorf(r.line, "%s %q is not a number of seconds", c, s)
	}
	if v <= 0 {
		return 0, t.errorf(r.line, "%s %s is not positive", c, s)
	}
	return v, nil
}
