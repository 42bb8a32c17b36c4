package main

import (
	"fmt"
	"io"
	"strconv"
)

// A comparison is one case of the command's timings: foreach and the tool it stands
// beside, each timed on the same input.
type comparison struct {
	foreach, tool, data string
	foreachS, toolS     float64 // median wall time, seconds
	goal                float64 // the ratio foreachS/toolS aimed at; 0: none
	foreachCPU, toolCPU float64 // CPU time (user+system), seconds; 0: not in the file
}

// ratio is foreach's wall time over the tool's: below 1, foreach is faster.
func (c comparison) ratio() float64 { return c.foreachS / c.toolS }

// cpuRatio is the same by CPU time, or 0 when the file has no CPU times.
func (c comparison) cpuRatio() float64 {
	if c.toolCPU == 0 {
		return 0
	}
	return c.foreachCPU / c.toolCPU
}

// cliColumns are the columns every file of the command's timings has; goal,
// foreach_cpu_s and tool_cpu_s may be there too (the CPU times both or neither).
var cliColumns = []string{"foreach", "tool", "data", "foreach_s", "tool_s"}

// readComparisons reads the command's timings: one case a line, in the chart's order.
func readComparisons(name string, r io.Reader) ([]comparison, error) {
	t, err := readTable(name, r, cliColumns)
	if err != nil {
		return nil, err
	}
	if t.has("foreach_cpu_s") != t.has("tool_cpu_s") {
		return nil, fmt.Errorf("%s: header: foreach_cpu_s and tool_cpu_s come together, or neither", name)
	}
	var cs []comparison
	first := map[[3]string]int{} // the line of each case, for the message on a repeat
	for _, rw := range t.rows {
		c, err := t.comparison(rw)
		if err != nil {
			return nil, err
		}
		k := [3]string{c.foreach, c.tool, c.data}
		if n, dup := first[k]; dup {
			return nil, t.errorf(rw.line, "%s vs %s on %s again (first on line %d): one line a case, with the medians", c.foreach, c.tool, c.data, n)
		}
		first[k] = rw.line
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%s: no cases, only the header", name)
	}
	return cs, nil
}

// A secondsField is a column of seconds and where its value goes.
type secondsField struct {
	col string
	to  *float64
}

func (t *table) comparison(r row) (comparison, error) {
	var c comparison
	var err error
	for _, f := range []struct {
		col string
		to  *string
	}{{"foreach", &c.foreach}, {"tool", &c.tool}, {"data", &c.data}} {
		if *f.to, err = t.text(r, f.col); err != nil {
			return c, err
		}
	}
	cols := []secondsField{{"foreach_s", &c.foreachS}, {"tool_s", &c.toolS}}
	if t.has("foreach_cpu_s") {
		cols = append(cols, secondsField{"foreach_cpu_s", &c.foreachCPU}, secondsField{"tool_cpu_s", &c.toolCPU})
	}
	for _, f := range cols {
		if *f.to, err = t.seconds(r, f.col); err != nil {
			return c, err
		}
	}
	c.goal, err = t.goal(r)
	return c, err
}

// goal returns the goal column of r: a positive ratio, or 0 where the column is absent,
// empty or "-".
func (t *table) goal(r row) (float64, error) {
	if !t.has("goal") {
		return 0, nil
	}
	s := r.fields[t.cols["goal"]]
	if s == "" || s == "-" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || v > 1e6 {
		return 0, t.errorf(r.line, "goal %q is not a positive ratio (or - for none)", s)
	}
	return v, nil
}
