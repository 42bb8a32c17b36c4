package main

import (
	"fmt"
	"math"
	"slices"

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
	withCPU := cs[0].cpuRatio() > 0
	l := versusLayersOf(cs, withCPU)
	p := newPlot()
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	grid.Vertical.Color = rule
	same, _ := plotter.NewLine(plotter.XYs{{X: 1, Y: -0.5}, {X: 1, Y: float64(len(cs)) - 0.5}})
	same.LineStyle = draw.LineStyle{Color: muted, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	p.Add(grid, l.wall, same)
	lg := legend{{entries: []legendEntry{{"wall time", l.wall}}}}
	if withCPU {
		p.Add(l.cpu)
		lg = append(lg, legendColumn{entries: []legendEntry{{"CPU time (user+system)", l.cpu}}})
	}
	if len(l.goals.at) > 0 {
		p.Add(l.goals)
		lg = append(lg, legendColumn{entries: []legendEntry{{"goal", l.goals}}})
	}
	lg = append(lg, legendColumn{entries: []legendEntry{{"the same time", same}}})
	p.Add(l.values)
	p.Y.Tick.Marker = plot.ConstantTicks(l.ticks)
	p.Y.Tick.Length = 0
	p.Y.Min, p.Y.Max = -0.5, float64(len(cs))-0.5
	p.X.Min, p.X.Max = 0, l.right*1.16
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

// versusLayers are what the chart of the command draws for its cases.
type versusLayers struct {
	wall, cpu *bars // cpu: empty without CPU times
	goals     *marks
	values    *valueLabels
	ticks     []plot.Tick // each case's name, on its place on Y
	right     float64     // the largest value drawn, 1 at least
}

// versusLayersOf places case i at y = len(cs)-1-i, so that the first is on top: its
// wall bar in the middle of its place, or in the upper half above its CPU bar.
func versusLayersOf(cs []comparison, withCPU bool) versusLayers {
	l := versusLayers{
		wall:   &bars{color: wallColor, horizontal: true},
		cpu:    &bars{color: cpuColor, horizontal: true},
		goals:  &marks{style: draw.LineStyle{Color: ink, Width: vg.Points(2.5)}},
		values: &valueLabels{style: textStyle(9, false, ink)},
		right:  1,
	}
	for i, c := range cs {
		y := float64(len(cs) - 1 - i)
		l.ticks = append(l.ticks, plot.Tick{Value: y, Label: fmt.Sprintf("%s  vs  %s\n%s", c.foreach, c.tool, c.data)})
		w := bar{lo: y - 0.32, hi: y + 0.32, value: c.ratio()}
		if withCPU {
			w = bar{lo: y, hi: y + 0.36, value: c.ratio()}
			k := bar{lo: y - 0.36, hi: y, value: c.cpuRatio()}
			l.cpu.bars = append(l.cpu.bars, k)
			l.values.bars = append(l.values.bars, k)
			l.right = math.Max(l.right, k.value)
		}
		l.wall.bars = append(l.wall.bars, w)
		l.values.bars = append(l.values.bars, w)
		l.right = math.Max(l.right, w.value)
		if c.goal > 0 {
			l.goals.at = append(l.goals.at, bar{lo: y - 0.42, hi: y + 0.42, value: c.goal})
			l.right = math.Max(l.right, c.goal)
		}
	}
	// The values keep clear of the goals and of the line at 1.
	l.values.avoid = slices.Concat(l.goals.at, []bar{{lo: -0.5, hi: float64(len(cs)) - 0.5, value: 1}})
	return l
}

func cpuNote(withCPU bool) string {
	if withCPU {
		return "; below each, the same by CPU time"
	}
	return ""
}

// valueLabels write each bar's value at its end ("0.61×"), past a mark that the text
// would otherwise cross.
type valueLabels struct {
	bars  []bar
	avoid []bar // the marks a label must not cross
	style text.Style
}

func (v *valueLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	pad := vg.Points(4)
	for _, b := range v.bars {
		s := fmt.Sprintf("%.2f×", b.value)
		mid := (b.lo + b.hi) / 2
		x := tx(b.value) + pad
		for _, g := range v.avoid {
			if gx := tx(g.value); g.lo <= mid && mid <= g.hi && gx > x-2*pad && gx < x+v.style.Width(s)+pad {
				x = gx + pad
			}
		}
		sty := v.style
		sty.YAlign = draw.YCenter
		c.FillText(sty, vg.Point{X: x, Y: ty(mid)}, s)
	}
}
