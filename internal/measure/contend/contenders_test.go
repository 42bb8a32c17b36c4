package contend

import (
	"os"
	"testing"
)

// read runs c over f's file once, as the suite's timed runs do, and checks what it saw.
func read(t *testing.T, c Contender, f *File) error {
	t.Helper()
	fd, err := os.Open(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	res, err := c.Run(fd, ReadSize)
	if err != nil {
		return err
	}
	return f.Check(c, res)
}

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
			if err := read(t, c, f); err != nil {
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
