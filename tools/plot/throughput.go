package main

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// A contenderInfo says how the chart shows one of the suite's contenders.
type contenderInfo struct {
	family string // the legend's column: whose code it is
	label  string // beside its swatch
	color  color.Color
}

// The families: the engine's contenders in blues and greens, the standard library's in
// oranges, loops written by hand in greys, so that they read apart at a glance.
const (
	familyEngine = "foreach's linereader"
	familyStd    = "Go's bufio"
	familyHand   = "by hand"
	familyOther  = "other"
)

var knownContenders = map[string]contenderInfo{
	"Lines":          {familyEngine, "Lines: records owned", rgb(0x1f4e9a)},
	"Views":          {familyEngine, "Views: records borrowed", rgb(0x4c8fe0)},
	"Batches":        {familyEngine, "Batches: owned, in batches", rgb(0x2a9d8f)},
	"LinesChomp":     {familyEngine, "LinesChomp: Lines, Chomp", rgb(0x6f7fc4)},
	"LinesReader":    {familyEngine, "LinesReader: Lines on an io.Reader", rgb(0x153766)},
	"LinesFNV":       {familyEngine, "LinesFNV: Lines + FNV-1a", rgb(0x7fb8d4)},
	"ScannerCopy":    {familyStd, "ScannerCopy: Scanner + copy", rgb(0xd9622b)},
	"ScannerClone":   {familyStd, "ScannerClone: Scanner + bytes.Clone", rgb(0xe8875a)},
	"ScannerBytes":   {familyStd, "ScannerBytes: Scanner, borrowed", rgb(0xf2b06a)},
	"ScannerCopyFNV": {familyStd, "ScannerCopyFNV: ScannerCopy + FNV-1a", rgb(0xc9a227)},
	"ReadBytes":      {familyStd, "ReadBytes: Reader.ReadBytes", rgb(0x9c4f1e)},
	"Naive":          {familyHand, "Naive: a new buffer per line", rgb(0x8c8c8c)},
	"MinimalLines":   {familyHand, "MinimalLines: a minimal loop, owned", rgb(0x555555)},
	"MinimalViews":   {familyHand, "MinimalViews: a minimal loop, borrowed", rgb(0xb5b5b5)},
}

// otherColors are for contenders the chart does not know, in the order they come.
var otherColors = []color.Color{rgb(0x7b5ea7), rgb(0xc2478f), rgb(0x5d8c3a), rgb(0xb8a23a), rgb(0x6b4226)}

// infoOf returns how contender c, the i-th of the chart, is shown.
func infoOf(c string, i int) contenderInfo {
	if info, ok := knownContenders[c]; ok {
		return info
	}
	return contenderInfo{familyOther, c, otherColors[i%len(otherColors)]}
}

func rgb(v uint32) color.Color {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// shapeLabels say under each group what the shape's text is.
var shapeLabels = map[string]string{
	"tall":     "tall\nshort lines",
	"wide":     "wide\nlong lines",
	"verywide": "verywide\n~640 KiB lines",
	"mixed":    "mixed\nall lengths",
	"real":     "real\nGo sources",
}

// groupWidth is the share of a category's width that its widest group of bars fills,
// with bars no wider than maxBar, so that a chart of few bars does not draw slabs.
const (
	groupWidth = 0.82
	maxBar     = 0.15
)

// throughputFigure is the grouped bar chart of the median throughput, by wall time or
// by CPU time, of each contender on each shape.
func throughputFigure(tp throughput, byCPU bool, machine string) figure {
	tp.contenders = byFamily(tp.contenders)
	p := newPlot()
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = rule
	p.Add(grid)
	var lg legend
	values := &topLabels{style: textStyle(8, false, muted)}
	for i, c := range tp.contenders {
		info := infoOf(c, i)
		b := &bars{color: info.color, bars: tp.bars(c, byCPU)}
		p.Add(b)
		lg = lg.add(info.family, legendEntry{info.label, b})
		values.bars = append(values.bars, b.bars...)
	}
	p.Add(values)
	ticks := make([]plot.Tick, len(tp.shapes))
	for i, s := range tp.shapes {
		ticks[i] = plot.Tick{Value: float64(i), Label: shapeLabel(s)}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = -0.5, float64(len(tp.shapes))-0.5
	p.Y.Min = 0
	p.Y.Max *= 1.12 // Add set it to the highest bar; the rest is room for its value
	p.Y.Tick.Marker = niceTicks{}
	clock := "wall"
	if byCPU {
		clock = "CPU"
	}
	p.Y.Label.Text = fmt.Sprintf("MB/s by %s time (higher is faster)", clock)
	lines := []string{fmt.Sprintf("Each bar: the median over all runs of one contender on one shape, in millions of bytes of file per second of %s time.", clock)}
	if machine != "" {
		lines = append(lines, machine)
	}
	return figure{
		title:      "Reading a file line by line in Go: throughput by shape of text",
		lines:      lines,
		plot:       p,
		legend:     lg,
		width:      figWidth,
		plotHeight: 3.3 * vg.Inch,
	}
}

// bars returns contender c's bars, one on each shape it ran on. Every group is as wide
// as its bars, centred on its shape, and every bar as wide as in the widest group.
func (tp throughput) bars(c string, byCPU bool) []bar {
	widest := 0
	for _, s := range tp.shapes {
		widest = max(widest, len(tp.present(s)))
	}
	w := min(groupWidth/float64(widest), maxBar)
	var out []bar
	for i, s := range tp.shapes {
		present := tp.present(s)
		j := slices.Index(present, c)
		if j < 0 {
			continue
		}
		lo := float64(i) - w*float64(len(present))/2 + w*float64(j)
		v := tp.cells[[2]string{s, c}].wall
		if byCPU {
			v = tp.cells[[2]string{s, c}].cpu
		}
		out = append(out, bar{lo: lo, hi: lo + w*0.92, value: v})
	}
	return out
}

// byFamily orders the contenders as the legend shows them: foreach's first, then the
// standard library's, then the loops by hand and the others, each in the order given.
func byFamily(cs []string) []string {
	out := make([]string, 0, len(cs))
	for _, f := range []string{familyEngine, familyStd, familyHand, familyOther} {
		for i, c := range cs {
			if infoOf(c, i).family == f {
				out = append(out, c)
			}
		}
	}
	return out
}

// present returns the contenders that ran on shape s, in the chart's order.
func (tp throughput) present(s string) []string {
	var out []string
	for _, c := range tp.contenders {
		if _, ok := tp.cells[[2]string{s, c}]; ok {
			out = append(out, c)
		}
	}
	return out
}

func shapeLabel(s string) string {
	if l, ok := shapeLabels[s]; ok {
		return l
	}
	return s
}

// add puts the entry in the column of its family, a new column at the right for a family
// not seen yet.
func (l legend) add(family string, e legendEntry) legend {
	for i := range l {
		if l[i].header == family {
			l[i].entries = append(l[i].entries, e)
			return l
		}
	}
	return append(l, legendColumn{header: family, entries: []legendEntry{e}})
}
