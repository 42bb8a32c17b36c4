package main

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var (
	wallColor = rgb(0x1f4e9a)
	cpuColor  = rgb(0x8fb4e8)
)

// versusFigure is the chart of the command against the tools it stands beside: one
// horizontal bar per case, from the top in the file's order, as long as foreach's time
// over the tool's, with a line at 1 (the same time) and each case's goal marked.
func versusFigure(cs []comparison, machine string) figure {
	p := newPlot()
	withCPU := cs[0].cpuRatio() > 0
	wall, cpu := &bars{color: wallColor, horizontal: true}, &bars{color: cpuColor, horizontal: true}
	goals := &marks{style: draw.LineStyle{Color: ink, Width: vg.Points(2.5)}}
	vals := &valueLabels{style: textStyle(9, false, ink)}
	ticks := make([]plot.Tick, len(cs))
	right := 1.0
	for i, c := range cs {
		y := float64(len(cs) - 1 - i)
		ticks[i] = plot.Tick{Value: y, Label: fmt.Sprintf("%s  vs  %s\n%s", c.foreach, c.tool, c.data)}
		w := bar{lo: y - 0.32, hi: y + 0.32, value: c.ratio()}
		if withCPU {
			w = bar{lo: y, hi: y + 0.36, value: c.ratio()}
			k := bar{lo: y - 0.36, hi: y, value: c.cpuRatio()}
			cpu.bars = append(cpu.bars, k)
			vals.bars = append(vals.bars, k)
			right = math.Max(right, k.value)
		}
		wall.bars = append(wall.bars, w)
		vals.bars = append(vals.bars, w)
		right = math.Max(right, w.value)
		if c.goal > 0 {
			goals.at = append(goals.at, bar{lo: y - 0.42, hi: y + 0.42, value: c.goal})
			right = math.Max(right, c.goal)
		}
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	grid.Vertical.Color = rule
	same, _ := plotter.NewLine(plotter.XYs{{X: 1, Y: -0.5}, {X: 1, Y: float64(len(cs)) - 0.5}})
	same.LineStyle = draw.LineStyle{Color: muted, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	p.Add(grid, wall, same)
	lg := legend{{entries: []legendEntry{{"wall time", wall}}}}
	if withCPU {
		p.Add(cpu)
		lg = append(lg, legendColumn{entries: []legendEntry{{"CPU time (user+system)", cpu}}})
	}
	if len(goals.at) > 0 {
		p.Add(goals)
		lg = append(lg, legendColumn{entries: []legendEntry{{"goal", goals}}})
	}
	lg = append(lg, legendColumn{entries: []legendEntry{{"the same time", same}}})
	// The labels keep clear of the goals and of the line at 1.
	vals.goals = append(goals.at, bar{lo: -0.5, hi: float64(len(cs)) - 0.5, value: 1})
	p.Add(vals)
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Length = 0
	p.Y.Min, p.Y.Max = -0.5, float64(len(cs))-0.5
	p.X.Min, p.X.Max = 0, right*1.16
	p.X.Tick.Marker = niceTicks{}
	p.X.Label.Text = "foreach's time ÷ the tool's (below 1: foreach is faster)"
	lines := []string{"For each case, foreach's median wall time over the tool's, both timed on the same file" + cpuNote(withCPU) + "."}
	if machine != "" {
		lines = append(lines, machine)
	}
	return figure{
		title:      "The foreach command beside the tools it stands in for",
		lines:      lines,
		plot:       p,
		legend:     lg,
		width:      figWidth,
		plotHeight: vg.Inch * (0.7 + 0.5*vg.Length(len(cs))),
	}
}

func cpuNote(withCPU bool) string {
	if withCPU {
		return "; below each, the same by CPU time"
	}
	return ""
}

// valueLabels write each bar's value at its end ("0.61×"), past a goal mark that the text
// would otherwise cross.
type valueLabels struct {
	bars  []bar
	goals []bar // the marks a label must not cross
	style text.Style
}

func (v *valueLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	pad := vg.Points(4)
	for _, b := range v.bars {
		s := fmt.Sprintf("%.2f×", b.value)
		mid := (b.lo + b.hi) / 2
		x := tx(b.value) + pad
		for _, g := range v.goals {
			if gx := tx(g.value); g.lo <= mid && mid <= g.hi && gx > x-2*pad && gx < x+v.style.Width(s)+pad {
				x = gx + pad
			}
		}
		sty := v.style
		sty.YAlign = draw.YCenter
		c.FillText(sty, vg.Point{X: x, Y: ty(mid)}, s)
	}
}
