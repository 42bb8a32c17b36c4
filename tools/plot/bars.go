package main

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A bar spans [lo, hi] across the category axis, in data units, and [0, value] along
// the value axis. Placing bars in data units, not in lengths as gonum's BarChart does,
// lets each group hold only the bars it has, centred on its category.
type bar struct {
	lo, hi, value float64
}

// bars is a plotter of bars of one colour: one series of a chart. Horizontal bars run
// along X (values) and are placed on Y (categories).
type bars struct {
	bars       []bar
	color      color.Color
	horizontal bool
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, r := range b.bars {
		x0, x1, y0, y1 := tx(r.lo), tx(r.hi), ty(0), ty(r.value)
		if b.horizontal {
			x0, x1, y0, y1 = tx(0), tx(r.value), ty(r.lo), ty(r.hi)
		}
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	}
}

// DataRange makes room for every bar and for the value axis's zero.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	cmin, cmax, vmax := math.Inf(1), math.Inf(-1), 0.0
	for _, r := range b.bars {
		cmin, cmax, vmax = math.Min(cmin, r.lo), math.Max(cmax, r.hi), math.Max(vmax, r.value)
	}
	if b.horizontal {
		return 0, vmax, cmin, cmax
	}
	return cmin, cmax, 0, vmax
}

// Thumbnail draws the series' swatch in a legend.
func (b *bars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	h := r.Size().Y
	pts := []vg.Point{
		{X: r.Min.X, Y: r.Min.Y + h*0.1}, {X: r.Max.X, Y: r.Min.Y + h*0.1},
		{X: r.Max.X, Y: r.Max.Y - h*0.1}, {X: r.Min.X, Y: r.Max.Y - h*0.1},
	}
	c.FillPolygon(b.color, pts)
}

// marks is a plotter of short strokes across horizontal bars, at a value on X, each
// as high as its bar: the goals of a chart of ratios.
type marks struct {
	at    []bar // value: where on X; lo, hi: across which stretch of Y
	style draw.LineStyle
}

func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, a := range m.at {
		c.StrokeLine2(m.style, tx(a.value), ty(a.lo), tx(a.value), ty(a.hi))
	}
}

func (m *marks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, a := range m.at {
		xmin, xmax = math.Min(xmin, a.value), math.Max(xmax, a.value)
		ymin, ymax = math.Min(ymin, a.lo), math.Max(ymax, a.hi)
	}
	return xmin, xmax, ymin, ymax
}

func (m *marks) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(m.style, x, c.Min.Y, x, c.Max.Y)
}

// topLabels write each vertical bar's value above it, turned a quarter to read upwards,
// so that a narrow bar carries a number of any width.
type topLabels struct {
	bars  []bar
	style text.Style
}

func (l *topLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	sty := l.style
	sty.Rotation = math.Pi / 2
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	for _, b := range l.bars {
		at := vg.Point{X: tx((b.lo + b.hi) / 2), Y: ty(b.value) + vg.Points(3)}
		c.FillText(sty, at, withCommas(int64(math.Round(b.value))))
	}
}
