package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// rawLine is one run as compare run prints it: tab-separated, in this order, then (added
// by compare.sh) the process's wall, user and system seconds and its peak RSS in KiB.
type rawLine struct {
	Case, Contender string
	Outcome         Outcome
	Ref             Reference
	// From the process's measurement, when read back.
	Wall, User, Sys float64
	RSSKiB          int64
}

func (l rawLine) String() string {
	o := l.Outcome
	return strings.Join([]string{
		l.Case, l.Contender, o.Verdict,
		strconv.FormatUint(o.Got.Records, 10), strconv.FormatUint(l.Ref.LF.Records, 10),
		strconv.FormatInt(o.Bytes, 10), strconv.FormatInt(l.Ref.Size, 10), strconv.FormatInt(l.Ref.Text, 10),
		strconv.FormatInt(o.Opens, 10), strconv.FormatFloat(o.Elapsed.Seconds(), 'f', 3, 64),
		strings.ReplaceAll(o.Detail, "\t", " "),
	}, "\t")
}

const rawFields = 11 + 4

func parseRawLine(s string) (rawLine, error) {
	f := strings.Split(s, "\t")
	if len(f) != rawFields {
		return rawLine{}, fmt.Errorf("%d fields, want %d", len(f), rawFields)
	}
	var l rawLine
	var errs []error
	u := func(s string) uint64 {
		n, err := strconv.ParseUint(s, 10, 64)
		errs = append(errs, err)
		return n
	}
	i := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		errs = append(errs, err)
		return n
	}
	fl := func(s string) float64 {
		n, err := strconv.ParseFloat(s, 64)
		errs = append(errs, err)
		return n
	}
	l.Case, l.Contender, l.Outcome.Verdict = f[0], f[1], f[2]
	l.Outcome.Got.Records, l.Ref.LF.Records = u(f[3]), u(f[4])
	l.Outcome.Bytes, l.Ref.Size, l.Ref.Text, l.Outcome.Opens = i(f[5]), i(f[6]), i(f[7]), i(f[8])
	l.Outcome.Elapsed = time.Duration(fl(f[9]) * float64(time.Second))
	l.Outcome.Detail = f[10]
	l.Wall, l.User, l.Sys, l.RSSKiB = fl(f[11]), fl(f[12]), fl(f[13]), i(f[14])
	for _, err := range errs {
		if err != nil {
			return rawLine{}, err
		}
	}
	return l, nil
}

// group is every run of one contender over one case.
type group struct {
	c    contender
	runs []rawLine
}

func (g *group) median(f func(rawLine) float64) float64 {
	v := make([]float64, len(g.runs))
	for i, r := range g.runs {
		v[i] = f(r)
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

func (g *group) wall() float64 { return g.median(func(r rawLine) float64 { return r.Wall }) }
func (g *group) cpu() float64  { return g.median(func(r rawLine) float64 { return r.User + r.Sys }) }

// result is the verdict of every run, once if they all agree.
func (g *group) result() string {
	var seen []string
	for _, r := range g.runs {
		v := r.Outcome.Verdict
		if r.Outcome.Detail != "" {
			v += ": " + r.Outcome.Detail
		}
		if !slices.Contains(seen, v) {
			seen = append(seen, v)
		}
	}
	return strings.Join(seen, "; ")
}

// opens is the number of files opened, or its range when the runner split differently
// from one run to the next.
func (g *group) opens() string {
	lo, hi := g.runs[0].Outcome.Opens, g.runs[0].Outcome.Opens
	for _, r := range g.runs {
		lo, hi = min(lo, r.Outcome.Opens), max(hi, r.Outcome.Opens)
	}
	if lo == hi {
		return strconv.FormatInt(lo, 10)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// read is the bytes read and their ratio to the file's size: the median, and the range
// when runs differ (a runner's dynamic splits make textio read more).
func (g *group) read(size int64) (string, string) {
	lo, hi := g.runs[0].Outcome.Bytes, g.runs[0].Outcome.Bytes
	for _, r := range g.runs {
		lo, hi = min(lo, r.Outcome.Bytes), max(hi, r.Outcome.Bytes)
	}
	if lo < 0 {
		return "not measured", "—"
	}
	med := g.median(bytesRead)
	ratio := func(n float64) string { return fmt.Sprintf("%.2f", n/float64(size)) }
	if hi-lo <= hi/1000 { // a few bytes' difference, from the process's own reads
		return mb(int64(med)), ratio(med)
	}
	return fmt.Sprintf("%s (%s to %s)", mb(int64(med)), mb(lo), mb(hi)),
		fmt.Sprintf("%s (%s to %s)", ratio(med), ratio(float64(lo)), ratio(float64(hi)))
}

// failed reports whether any run failed: its times are not those of reading the file.
func (g *group) failed() bool {
	return slices.ContainsFunc(g.runs, func(r rawLine) bool { return r.Outcome.Verdict == "failed" })
}

// readRaw reads the raw results, grouped by case and contender in the order of cases and
// contenders.
func readRaw(path string) (map[string]map[string]*group, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	groups := map[string]map[string]*group{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l, err := parseRawLine(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		c, ok := contenderByID(l.Contender)
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown contender %q", path, n, l.Contender)
		}
		if groups[l.Case] == nil {
			groups[l.Case] = map[string]*group{}
		}
		g := groups[l.Case][c.id]
		if g == nil {
			g = &group{c: c}
			groups[l.Case][c.id] = g
		}
		g.runs = append(g.runs, l)
	}
	return groups, sc.Err()
}

func writeTable(w io.Writer, path string) error {
	groups, err := readRaw(path)
	if err != nil {
		return err
	}
	writeClaims(w, groups)
	for _, tc := range cases {
		gs := groups[tc.name]
		if gs == nil {
			continue
		}
		writeCase(w, tc, gs)
	}
	return nil
}

func writeCase(w io.Writer, tc testCase, gs map[string]*group) {
	var any rawLine // a run that was checked, for the reference's figures
	for _, g := range gs {
		for _, r := range g.runs {
			if r.Ref.Size > 0 {
				any = r
			}
		}
	}
	text := ""
	if any.Ref.Text != any.Ref.Size {
		text = fmt.Sprintf(", %s of text", mb(any.Ref.Text))
	}
	fmt.Fprintf(w, "\n**%s** (`%s`, %s%s, %s records): %s.\n\n", tc.name, tc.file, mb(any.Ref.Size), text, thousands(any.Ref.LF.Records), tc.about)
	fmt.Fprintln(w, "| reader | result | records | read | read ÷ file | opens | wall s | CPU s | peak RSS | ÷ textio: wall | CPU |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range contenders {
		g := gs[c.id]
		if g == nil {
			continue
		}
		base := gs["textio-read"]
		if c.countOnly {
			base = gs["textio-count"]
		}
		ratio, cpuRatio := "—", "—"
		if base != nil && base.wall() > 0 && base.cpu() > 0 && c.build != nil && !g.failed() && !base.failed() {
			ratio, cpuRatio = fmt.Sprintf("%.2f×", g.wall()/base.wall()), fmt.Sprintf("%.2f×", g.cpu()/base.cpu())
		}
		read, readRatio := g.read(any.Ref.Size)
		first := g.runs[0].Outcome
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %.2f | %.2f | %.0f MiB | %s | %s |\n",
			c.title, g.result(), thousands(first.Got.Records), read, readRatio, g.opens(),
			g.wall(), g.cpu(), g.median(func(r rawLine) float64 { return float64(r.RSSKiB) / 1024 }), ratio, cpuRatio)
	}
}

// writeClaims checks, one by one, what the issue reported from an earlier side run.
func writeClaims(w io.Writer, groups map[string]map[string]*group) {
	get := func(cs, id string) *group {
		if groups[cs] == nil {
			return nil
		}
		return groups[cs][id]
	}
	fmt.Fprintln(w, "| reported | measured here |")
	fmt.Fprintln(w, "|---|---|")
	var checked, notExact []string
	for _, cs := range []string{"plain", "crlf", "long", "nofinal", "straddle"} {
		for _, id := range []string{"foreachio-read", "textio-read", "textio-readall", "textio-readsdf"} {
			if g := get(cs, id); g != nil {
				checked = append(checked, cs)
				if res := g.result(); res != "exact" {
					notExact = append(notExact, fmt.Sprintf("%s on %s: %s", g.c.title, cs, res))
				}
			}
		}
	}
	if checked != nil {
		verdict := "every run of foreachio.ReadRecords, textio.Read, ReadAll and ReadSdf exact on " + strings.Join(slices.Compact(checked), ", ")
		if notExact != nil {
			verdict = strings.Join(notExact, "; ")
		}
		fmt.Fprintf(w, "| both exact on plain text, CRLF, lines of 1 MB, no final newline, records across the 64 MiB split points | %s |\n", verdict)
	}
	if g := get("gzip", "textio-read"); g != nil {
		r := g.runs[0]
		fmt.Fprintf(w, "| on gzip, textio delivers 1,139,995 of 3,225,904 records (74 MB .gz of 200 MB text), dropping every record that starts past the compressed size | %s of %s records (%s .gz of %s of text): %s |\n",
			thousands(r.Outcome.Got.Records), thousands(r.Ref.LF.Records), mb(r.Ref.Size), mb(r.Ref.Text), g.result())
	}
	if g := get("gzip", "foreachio-read"); g != nil {
		fmt.Fprintf(w, "| foreachio exact on gzip | %s |\n", g.result())
	}
	if t, f := get("plain", "textio-read"), get("plain", "foreachio-read"); t != nil && f != nil {
		size := t.runs[0].Ref.Size
		tr, _ := t.read(size)
		fr, _ := f.read(size)
		fmt.Fprintf(w, "| textio reads every split from byte 0: 411 MB read for a 210 MB file, foreachio 210 MB | textio.Read %s, foreachio.ReadRecords %s, for a %s file |\n", tr, fr, mb(size))
	}
	if g := get("long", "textio-immediate"); g != nil {
		var others []string
		for _, tc := range cases {
			if o := get(tc.name, "textio-immediate"); o != nil && tc.name != "long" && o.failed() {
				others = append(others, tc.name)
			}
		}
		also := ""
		if others != nil {
			also = "; it fails on " + strings.Join(others, ", ") + " too, whose text has a line of over 64 KiB"
		}
		fmt.Fprintf(w, "| `textio.Immediate` fails on lines over 64 KiB | on lines of 1,000,000 bytes: %s%s |\n", g.result(), also)
	}
	if f, t := get("plain", "foreachio-count"), get("plain", "textio-count"); f != nil && t != nil {
		fmt.Fprintf(w, "| `CountRecords` took 0.08× textio's wall time | on plain: %.2f× the wall time of textio.Read → count (%.2f s against %.2f s), %.2f× its CPU time |\n",
			f.wall()/t.wall(), f.wall(), t.wall(), f.cpu()/t.cpu())
	}
}

func bytesRead(r rawLine) float64 { return float64(r.Outcome.Bytes) }

// mb writes a size in decimal megabytes, as the issue does.
func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// thousands writes n with commas between groups of three digits.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
