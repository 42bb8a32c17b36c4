package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The pictures are drawn for a README: 8 inches wide at 200 dots per inch is 1600
// pixels, shown at about half that, where a 9.5-point label is about 13 pixels high.
const (
	figWidth = 8 * vg.Inch
	dpi      = 200
	margin   = 0.18 * vg.Inch
)

var (
	ink   = color.Gray{Y: 0x20}
	muted = color.Gray{Y: 0x5a}
	rule  = color.Gray{Y: 0xdd}
)

// textStyle is the sans-serif face of every text in the pictures, its top left corner
// at the point it is drawn at.
func textStyle(size vg.Length, bold bool, clr color.Color) text.Style {
	f := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{
		Color:   clr,
		Font:    font.From(f, size),
		XAlign:  draw.XLeft,
		YAlign:  draw.YTop,
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a plot with the pictures' axes and fonts, and no title or legend (the
// figure draws its own).
func newPlot() *plot.Plot {
	p := plot.New()
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = textStyle(10, false, ink)
		a.Label.TextStyle.XAlign, a.Label.TextStyle.YAlign = draw.XCenter, draw.YBottom
		a.Tick.Label = textStyle(9.5, false, ink)
		a.Tick.Label.XAlign = draw.XCenter
		a.Color, a.Tick.Color = muted, muted
	}
	p.Y.Tick.Label.XAlign, p.Y.Tick.Label.YAlign = draw.XRight, draw.YCenter
	return p
}

// A legendEntry is one swatch and what it stands for.
type legendEntry struct {
	label string
	thumb plot.Thumbnailer
}

// A legendColumn is a column of entries under an optional bold header.
type legendColumn struct {
	header  string
	entries []legendEntry
}

// A legend is drawn as columns side by side, above the plot.
type legend []legendColumn

var (
	legendText   = textStyle(9.5, false, ink)
	legendHeader = textStyle(9.5, true, ink)
	swatch       = 0.2 * vg.Inch
	swatchGap    = 0.07 * vg.Inch // between a swatch and its label
	legendGap    = 0.3 * vg.Inch  // between columns
)

func (l legend) lineHeight() vg.Length { return legendText.Height("Xg") * 1.25 }

// rows returns the lines a column takes: its entries and its header.
func (col legendColumn) rows() int {
	if col.header != "" {
		return len(col.entries) + 1
	}
	return len(col.entries)
}

// width returns how wide a column is drawn.
func (col legendColumn) width() vg.Length {
	w := legendHeader.Width(col.header)
	for _, e := range col.entries {
		w = max(w, swatch+swatchGap+legendText.Width(e.label))
	}
	return w
}

// layout places the columns left to right, a column that would pass width starting a
// new band below the others: the offset of each column's top left corner from the
// legend's, and the legend's height.
func (l legend) layout(width vg.Length) ([]vg.Point, vg.Length) {
	at := make([]vg.Point, len(l))
	var x, band, bandRows vg.Length
	for i, col := range l {
		w := col.width()
		if x > 0 && x+w > width {
			band += bandRows*l.lineHeight() + l.lineHeight()/2
			x, bandRows = 0, 0
		}
		at[i] = vg.Point{X: x, Y: -band}
		x += w + legendGap
		bandRows = max(bandRows, vg.Length(col.rows()))
	}
	return at, band + bandRows*l.lineHeight()
}

// draw draws the legend with its top left corner at (x, top), no wider than width.
func (l legend) draw(c draw.Canvas, x, top, width vg.Length) {
	lh := l.lineHeight()
	at, _ := l.layout(width)
	for i, col := range l {
		x, y := x+at[i].X, top+at[i].Y
		if col.header != "" {
			c.FillText(legendHeader, vg.Point{X: x, Y: y}, col.header)
			y -= lh
		}
		for _, e := range col.entries {
			th := legendText.Height(e.label)
			box := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - th},
				Max: vg.Point{X: x + swatch, Y: y},
			}}
			e.thumb.Thumbnail(&box)
			c.FillText(legendText, vg.Point{X: x + swatch + swatchGap, Y: y}, e.label)
			y -= lh
		}
	}
}

// A figure is one picture: a title, lines under it (what is measured, the machine), a
// legend, and the plot, plotHeight high with its axes. The picture is as high as they
// need: a longer legend or a wrapped line makes it higher, never the plot smaller.
type figure struct {
	title      string
	lines      []string
	legend     legend
	plot       *plot.Plot
	width      vg.Length
	plotHeight vg.Length
}

var (
	titleText = textStyle(14, true, ink)
	lineText  = textStyle(9.5, false, muted)
)

// height is the whole picture's height, margins included, rounded up to a whole pixel.
func (f figure) height() vg.Length {
	h := 2*margin + f.head(nil, f.width-2*margin) + f.plotHeight
	return vg.Length(math.Ceil(h.Dots(dpi)-1e-6)) * vg.Inch / dpi
}

// head draws the title, the lines and the legend from the top of c, when c is not nil,
// and returns the height they take, the space above the plot included.
func (f figure) head(c *draw.Canvas, width vg.Length) vg.Length {
	var at vg.Point
	if c != nil {
		at = vg.Point{X: c.Min.X, Y: c.Max.Y}
	}
	var h vg.Length
	text := func(sty text.Style, s string) {
		for _, l := range wrap(sty, s, width) {
			if c != nil {
				c.FillText(sty, vg.Point{X: at.X, Y: at.Y - h}, l)
			}
			h += sty.Height(l)
		}
	}
	text(titleText, f.title)
	h += 0.05 * vg.Inch
	for _, l := range f.lines {
		text(lineText, l)
	}
	if len(f.legend) > 0 {
		h += 0.14 * vg.Inch
		if c != nil {
			f.legend.draw(*c, at.X, at.Y-h, width)
		}
		_, lh := f.legend.layout(width)
		h += lh
	}
	return h + 0.12*vg.Inch
}

func (f figure) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)
	h := f.head(&c, c.Size().X)
	f.plot.Draw(draw.Crop(c, 0, 0, 0, -h))
}

// wrap breaks s into lines no wider than width, between words.
func wrap(sty text.Style, s string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && sty.Width(line+" "+w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// niceTicks are ticks at a round step (1, 2, 2.5 or 5 times a power of ten) giving
// about five labelled ticks, with labels as whole numbers with thousands separated
// by commas ("7,500") or, below 10, with the decimals the step needs.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	step := niceStep((hi - lo) / 5)
	var ts []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi+step*1e-9; i++ {
		v := i * step
		ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v, step)})
	}
	return ts
}

func niceStep(raw float64) float64 {
	if !(raw > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func tickLabel(v, step float64) string {
	if step >= 1 {
		return withCommas(int64(math.Round(v)))
	}
	d := int(-math.Floor(math.Log10(step) + 1e-9))
	if m := step * math.Pow10(d); math.Abs(m-math.Round(m)) > 1e-9 {
		d++ // 2.5 times a power of ten
	}
	return fmt.Sprintf("%.*f", d, v)
}

func withCommas(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// formatOf is the picture format a file name asks for by its extension.
func formatOf(name string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("%s: want a .png or .svg file name", name)
	}
}

// encode draws the figure as a PNG or SVG file. The same figure gives the same bytes:
// neither encoder writes a time or anything else that changes from run to run.
func (f figure) encode(format string) ([]byte, error) {
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.width, f.height()), vgimg.UseDPI(dpi))}
	case "svg":
		cw = vgsvg.New(f.width, f.height())
	default:
		return nil, fmt.Errorf("format %q: want png or svg", format)
	}
	f.draw(draw.New(cw))
	var b bytes.Buffer
	if _, err := cw.WriteTo(&b); err != nil {
		return nil, err
	}
	if format == "svg" {
		return svgFallback(b.Bytes()), nil
	}
	return b.Bytes(), nil
}

// svgFallback names fonts to use where Liberation Sans is not installed: Arial and
// Helvetica have its metrics (it was drawn to match them), so every label keeps the width
// it was laid out with. Embedding the fonts instead would make each picture about 1 MB.
func svgFallback(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
}
