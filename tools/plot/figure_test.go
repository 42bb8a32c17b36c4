package main

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func sampleThroughput(t *testing.T, contenders []string) throughput {
	t.Helper()
	runs, err := readRuns("sample", strings.NewReader(sampleSuite(1, 7)))
	if err != nil {
		t.Fatal(err)
	}
	tp, _, err := summarize(runs, contenders, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// pixels counts the pixels of each colour.
func pixels(img image.Image) map[color.RGBA]int {
	n := map[color.RGBA]int{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			n[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	return n
}

func rgba(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }

// checkSize says whether img is as large as the figure asks: its width and height in
// inches at dpi, whole pixels.
func checkSize(t *testing.T, img image.Image, f figure) {
	t.Helper()
	wantW := int(math.Round(f.width.Dots(dpi)))
	wantH := int(math.Round(f.height().Dots(dpi)))
	if math.Abs(f.height().Dots(dpi)-float64(wantH)) > 1e-6 {
		t.Errorf("height %v dots: not a whole number of pixels", f.height().Dots(dpi))
	}
	if got := img.Bounds().Size(); got.X != wantW || got.Y != wantH {
		t.Errorf("image %v, want %dx%d", got, wantW, wantH)
	}
	if wantW != 1600 {
		t.Errorf("width %d pixels, want 1600 (README width, twice over)", wantW)
	}
}

func TestThroughputPNG(t *testing.T) {
	tp := sampleThroughput(t, defaultContenders)
	f := throughputFigure(tp, false, "a machine")
	b, err := f.encode("png")
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	checkSize(t, img, f)
	n := pixels(img)
	total := img.Bounds().Dx() * img.Bounds().Dy()
	if white := n[color.RGBA{255, 255, 255, 255}]; white < total/3 || white > total*95/100 {
		t.Errorf("%d of %d pixels white: a blank or a filled picture", white, total)
	}
	for _, c := range defaultContenders {
		if got := n[rgba(knownContenders[c].color)]; got < 500 {
			t.Errorf("%s: %d pixels of its colour, want a bar's worth", c, got)
		}
	}
	if got := n[rgba(knownContenders["ScannerCopyFNV"].color)]; got != 0 {
		t.Errorf("ScannerCopyFNV is not charted, yet %d pixels have its colour", got)
	}
}

// The bars are as high as their values: with bars of 400, 200 and 100 MB/s, as wide as
// one another, the differences of their areas are in the ratio of the values' (the
// legend's swatches add the same to each).
func TestThroughputBarHeights(t *testing.T) {
	tp := throughput{
		shapes:     []string{"tall"},
		contenders: []string{"Lines", "Views", "Batches"},
		cells: map[[2]string]cell{
			{"tall", "Lines"}:   {wall: 400, cpu: 1, runs: 1},
			{"tall", "Views"}:   {wall: 200, cpu: 2, runs: 1},
			{"tall", "Batches"}: {wall: 100, cpu: 4, runs: 1},
		},
	}
	for _, byCPU := range []bool{false, true} {
		b, err := throughputFigure(tp, byCPU, "").encode("png")
		if err != nil {
			t.Fatal(err)
		}
		n := pixels(decodePNG(t, b))
		a, v, c := n[rgba(knownContenders["Lines"].color)], n[rgba(knownContenders["Views"].color)], n[rgba(knownContenders["Batches"].color)]
		want := 2.0 // (400-200)/(200-100)
		if byCPU {
			want = 0.5 // (1-2)/(2-4)
		}
		if got := float64(a-v) / float64(v-c); math.Abs(got-want) > 0.03*want {
			t.Errorf("by CPU %v: areas %d %d %d: ratio of differences %.3f, want %.1f", byCPU, a, v, c, got, want)
		}
	}
}

// The same input gives the same bytes, in both formats.
func TestDeterministic(t *testing.T) {
	cs, err := readComparisons("c", strings.NewReader(sampleCLI))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"png", "svg"} {
		for name, make := range map[string]func() figure{
			"throughput": func() figure { return throughputFigure(sampleThroughput(t, defaultContenders), false, "m") },
			"versus":     func() figure { return versusFigure(cs, "m") },
		} {
			a, err := make().encode(format)
			if err != nil {
				t.Fatal(err)
			}
			b, err := make().encode(format)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s %s: two encodings of the same input differ", name, format)
			}
		}
	}
}

func TestSVG(t *testing.T) {
	b, err := throughputFigure(sampleThroughput(t, defaultContenders), true, "the machine line").encode("svg")
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	var texts []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok && strings.TrimSpace(string(cd)) != "" {
			texts = append(texts, string(cd))
		}
	}
	for _, want := range []string{"Reading a file line by line in Go: throughput by shape of text", "the machine line", "MB/s by CPU time (higher is faster)", "Lines: records owned"} {
		if !slices.Contains(texts, want) {
			t.Errorf("no text %q in the SVG", want)
		}
	}
	if bytes.Contains(b, []byte("font-family:Liberation Sans;")) || !bytes.Contains(b, []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")) {
		t.Error("SVG fonts without the fallback of the same metrics")
	}
}

func TestVersusPNG(t *testing.T) {
	cs, err := readComparisons("c", strings.NewReader(sampleCLI))
	if err != nil {
		t.Fatal(err)
	}
	f := versusFigure(cs, "a machine")
	b, err := f.encode("png")
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	checkSize(t, img, f)
	n := pixels(img)
	if n[rgba(wallColor)] < 2000 || n[rgba(cpuColor)] < 2000 {
		t.Errorf("%d pixels of wall time, %d of CPU time: want eight bars of each", n[rgba(wallColor)], n[rgba(cpuColor)])
	}

	// Without CPU times, no CPU bars; a longer file makes a higher picture, not thinner bars.
	one := []comparison{{foreach: "foreach", tool: "cat", data: "real", foreachS: 1, toolS: 2}}
	g := versusFigure(one, "")
	b, err = g.encode("png")
	if err != nil {
		t.Fatal(err)
	}
	img = decodePNG(t, b)
	checkSize(t, img, g)
	if got := pixels(img)[rgba(cpuColor)]; got != 0 {
		t.Errorf("no CPU times, yet %d pixels of the CPU bars' colour", got)
	}
	if g.height() >= f.height() {
		t.Errorf("one case %v high, eight %v", g.height(), f.height())
	}
}

// Each bar is as long as its ratio: lengthening one bar or another by the same ratio
// adds the same area (the axis stays 0 to 1.16 while every ratio is below 1).
func TestVersusBarLengths(t *testing.T) {
	var cs []comparison
	for i, r := range []float64{0.2, 0.4, 0.8} {
		cs = append(cs, comparison{foreach: "foreach", tool: "cat", data: string(rune('a' + i)), foreachS: r, toolS: 1})
	}
	area := func(cs []comparison) int {
		b, err := versusFigure(cs, "").encode("png")
		if err != nil {
			t.Fatal(err)
		}
		return pixels(decodePNG(t, b))[rgba(wallColor)]
	}
	base := area(cs)
	longer := func(i int, r float64) int {
		c := slices.Clone(cs)
		c[i].foreachS = r
		return area(c) - base
	}
	d0, d1 := longer(0, 0.4), longer(1, 0.6) // 0.2 more, in two bars
	if math.Abs(float64(d0)-float64(d1)) > 0.03*float64(d0) || d0 <= 0 {
		t.Errorf("0.2 more of ratio adds %d pixels to one bar and %d to another", d0, d1)
	}
}

func TestWrap(t *testing.T) {
	s := "the median over every run of each contender, in millions of bytes of file per second of wall time"
	w := 1.5 * vg.Inch
	lines := wrap(lineText, s, w)
	if len(lines) < 3 {
		t.Errorf("%d lines: %q", len(lines), lines)
	}
	for _, l := range lines {
		if lineText.Width(l) > w {
			t.Errorf("line %q wider than %v", l, w)
		}
	}
	if got := strings.Join(lines, " "); got != s {
		t.Errorf("rejoined %q", got)
	}
	if got := wrap(lineText, "unbreakable-word-wider-than-anything", vg.Points(10)); !slices.Equal(got, []string{"unbreakable-word-wider-than-anything"}) {
		t.Errorf("a word wider than the line: %q", got)
	}
}

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 8100, "0 2,000 4,000 6,000 8,000"},
		{0, 4150, "0 1,000 2,000 3,000 4,000"},
		{0, 1.7, "0.0 0.5 1.0 1.5"},
		{0, 1.1, "0.00 0.25 0.50 0.75 1.00"},
		{0, 0.09, "0.00 0.02 0.04 0.06 0.08"},
		{0, 12000, "0 2,500 5,000 7,500 10,000"},
	} {
		var got []string
		for _, tk := range (niceTicks{}).Ticks(tc.lo, tc.hi) {
			got = append(got, tk.Label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("ticks %v–%v: %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := withCommas(n); got != want {
			t.Errorf("withCommas(%d) = %q, want %q", n, got, want)
		}
	}
}
