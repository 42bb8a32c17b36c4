package benchmarks

import (
	"regexp"
	"testing"
	"time"
)

// Every contender reads every shape exactly: the reference check that guards every timed
// run accepts what it sees, on small files of each shape.
func TestContendersReadEveryShapeExactly(t *testing.T) {
	dir := t.TempDir()
	for _, shape := range Shapes {
		f, err := MakeFile(dir, shape, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range Contenders {
			if _, err := Time(c, f); err != nil {
				t.Error(err)
			}
		}
	}
}

// The check catches a contender that loses a record, a byte, or the last record.
func TestCheckCatchesWrongResults(t *testing.T) {
	f, err := MakeFile(t.TempDir(), "tall", 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	c := Contenders["Lines"]
	good := f.Want.Keep
	for name, bad := range map[string]func(*Result){
		"a record lost": func(r *Result) { r.Records-- },
		"a byte lost":   func(r *Result) { r.Bytes--; r.Ends-- },
		"last changed":  func(r *Result) { r.Last = append([]byte("x"), r.Last...) },
	} {
		res := good
		bad(&res)
		if err := f.Check(c, res); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := f.Check(c, good); err != nil {
		t.Errorf("the reference itself: %v", err)
	}
	if err := f.Check(Contenders["LinesFNV"], good); err != nil {
		t.Errorf("the reference with its hash: %v", err)
	}
	hashed := good
	hashed.Hash++
	if err := f.Check(Contenders["LinesFNV"], hashed); err == nil {
		t.Error("a wrong hash: accepted")
	}
}

// Every row names two contenders that exist and a shape the suite makes.
func TestRowsNameContendersAndShapes(t *testing.T) {
	shapes := regexp.MustCompile("^(tall|wide|verywide|mixed|real)$")
	for _, r := range Rows {
		if _, ok := Contenders[r.A]; !ok {
			t.Errorf("row %s %s/%s: no contender %s", r.Shape, r.A, r.B, r.A)
		}
		if _, ok := Contenders[r.B]; !ok {
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
