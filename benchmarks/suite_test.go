package benchmarks

import (
	"regexp"
	"testing"
	"time"

	"github.com/foreachio/foreach/internal/measure/contend"
)

// Every row names two contenders that exist and a shape the suite makes.
func TestRowsNameContendersAndShapes(t *testing.T) {
	shapes := regexp.MustCompile("^(tall|wide|verywide|mixed|real)$")
	for _, r := range Rows {
		if _, ok := contend.Contenders[r.A]; !ok {
			t.Errorf("row %s %s/%s: no contender %s", r.Shape, r.A, r.B, r.A)
		}
		if _, ok := contend.Contenders[r.B]; !ok {
			t.Errorf("row %s %s/%s: no contender %s", r.Shape, r.A, r.B, r.B)
		}
		if !shapes.MatchString(r.Shape) {
			t.Errorf("row %s %s/%s: no such shape", r.Shape, r.A, r.B)
		}
	}
}

// The spread of ratios is their median and quartiles, B's time over A's.
func TestSummarise(t *testing.T) {
	var a, b []Run
	for _, x := range []time.Duration{1, 2, 3, 4, 5} {
		a = append(a, Run{Wall: 100, CPU: 100})
		b = append(b, Run{Wall: 100 * x, CPU: 50 * x})
	}
	s := Summarise(a, b)
	if s.Wall.Median != 3 || s.Wall.Q1 != 2 || s.Wall.Q3 != 4 || s.CPU.Median != 1.5 {
		t.Errorf("Summarise = %+v, want wall 3 [2-4], CPU 1.5", s)
	}
}
