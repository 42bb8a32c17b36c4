package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
)

// result is every run of every command.
type result struct {
	cmds    []*measured
	agree   float64 // the largest relative difference allowed between the medians
	checked bool    // hyperfine timed every run too
}

// measured is one command and its runs, in round order: runs[i] and hf[i] are round i's.
type measured struct {
	command string   // as given
	name    string   // for the report
	argv    []string // command split into words
	runs    []sample // timeit's
	hf      []sample // hyperfine's (wall and CPU only); empty without the check
}

// median returns the median of f over ss.
func median(ss []sample, f func(sample) float64) float64 {
	if len(ss) == 0 {
		return math.NaN()
	}
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}

func wall(s sample) float64 { return s.Wall }

// agreement is timeit's median wall time over hyperfine's.
func (m *measured) agreement() float64 { return median(m.runs, wall) / median(m.hf, wall) }

// ratios are the per-round ratios of m's wall time to base's: their median, least and
// greatest.
func ratios(m, base *measured) (mid, least, greatest float64) {
	r := make([]sample, len(m.runs))
	for i := range r {
		r[i].Wall = m.runs[i].Wall / base.runs[i].Wall
	}
	least, greatest = math.Inf(1), math.Inf(-1)
	for _, s := range r {
		least, greatest = min(least, s.Wall), max(greatest, s.Wall)
	}
	return median(r, wall), least, greatest
}

// disagreements names the commands whose medians by timeit and by hyperfine differ by
// more than the allowed share.
func (res *result) disagreements() []string {
	var bad []string
	for _, m := range res.cmds {
		if !res.checked {
			break
		}
		if a := m.agreement(); math.Abs(a-1) > res.agree {
			bad = append(bad, fmt.Sprintf("%s: %.1f ms against hyperfine's %.1f ms (%.2fx)",
				m.name, 1e3*median(m.runs, wall), 1e3*median(m.hf, wall), a))
		}
	}
	return bad
}

// table is the report: one row per command.
func (res *result) table() string {
	var b strings.Builder
	base := res.cmds[0]
	fmt.Fprintf(&b, "| command | wall [ms] | hyperfine [ms] | timeit / hyperfine | CPU [ms] | hyperfine CPU [ms] | page faults | context switches (vol./invol.) | wall / `%s` [least–greatest] |\n", cell(base.name))
	b.WriteString("|:---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, m := range res.cmds {
		hf, hfCPU, agree := "–", "–", "–"
		if res.checked {
			hf = fmt.Sprintf("%.1f", 1e3*median(m.hf, wall))
			hfCPU = fmt.Sprintf("%.1f", 1e3*median(m.hf, sample.cpu))
			a := m.agreement()
			agree = fmt.Sprintf("%.2f", a)
			if math.Abs(a-1) > res.agree {
				agree += " **disagree**"
			}
		}
		vs := "1.00×"
		if m != base {
			mid, lo, hi := ratios(m, base)
			vs = fmt.Sprintf("%.2f× [%.2f–%.2f]", mid, lo, hi)
		}
		fmt.Fprintf(&b, "| `%s` | %.1f | %s | %s | %.1f | %s | %.0f | %.0f / %.0f | %s |\n",
			cell(m.name), 1e3*median(m.runs, wall), hf, agree, 1e3*median(m.runs, sample.cpu), hfCPU,
			median(m.runs, func(s sample) float64 { return float64(s.MinFlt) }),
			median(m.runs, func(s sample) float64 { return float64(s.VCSw) }),
			median(m.runs, func(s sample) float64 { return float64(s.IVCSw) }), vs)
	}
	return b.String()
}

// cell escapes what would end a Markdown table's cell: a pipeline's "|".
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// writeJSON writes every run to name, for scripts that make tables of their own.
func (res *result) writeJSON(name string) error {
	type cmdJSON struct {
		Command   string   `json:"command"`
		Name      string   `json:"name"`
		Runs      []sample `json:"runs"`
		Hyperfine []sample `json:"hyperfine"`
	}
	out := struct {
		Agree    float64   `json:"agree"`
		Checked  bool      `json:"checked"`
		Commands []cmdJSON `json:"commands"`
	}{Agree: res.agree, Checked: res.checked}
	for _, m := range res.cmds {
		out.Commands = append(out.Commands, cmdJSON{m.command, m.name, m.runs, m.hf})
	}
	data, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o644)
}
