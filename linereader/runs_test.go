package linereader

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// Runs yields the same bytes as the per-record loop, in runs of whole records, with the
// same line numbers, record count and error; breaking out and carrying on with Next loses
// nothing.
func TestRunsMatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	opts := []Options{
		{}, {Sep: []byte("ab")}, {Sep: []byte("\r\n")}, {Sep: []byte("aa")}, // "aa" overlaps: one record per run
		{Chomp: true}, {Limit: 3}, {Paragraph: true}, {Whole: true}, {MaxRecord: 50},
	}
	multi := 0
	for iter := range 400 {
		in := RandomInput(rng, rng.IntN(5000))
		for _, opt := range opts {
			opt.BufferSize = 1 + rng.IntN(200)
			want, wantStats, wantErr := plainRecords(in, opt, bytesSource)
			var wantAll bytes.Buffer
			for _, s := range want {
				wantAll.WriteString(s.Rec)
			}

			var src = bytesSource(in)
			if iter%3 == 0 {
				src = iotest.HalfReader(src)
			}
			r := New(src, opt)
			var got bytes.Buffer
			records := 0
			for run := range r.Runs() {
				got.Write(run)
				if r.Stats().Records-int64(records) > 1 {
					multi++
				}
				records = int(r.Stats().Records)
				// Every run but a piece ends where a record ends: its LineNo is that
				// record's.
				if !r.Partial() && records > 0 && r.LineNo() != want[records-1].LineNo {
					t.Fatalf("iter %d opt %+v: LineNo %d after %d records, want %d", iter, opt, r.LineNo(), records, want[records-1].LineNo)
				}
				if rng.IntN(50) == 0 {
					break
				}
			}
			for r.Next() { // carry on after a break, record by record
				got.Write(r.Bytes())
				records++
			}
			if got.String() != wantAll.String() {
				t.Fatalf("iter %d opt %+v: runs give %q, want %q", iter, opt, got.String(), wantAll.String())
			}
			if records != len(want) || r.Stats().Records != wantStats.Records || r.LineNo() != lastLine(want) {
				t.Fatalf("iter %d opt %+v: %d records, line %d; want %d, line %d", iter, opt, records, r.LineNo(), len(want), lastLine(want))
			}
			if r.Err() != wantErr {
				t.Fatalf("iter %d opt %+v: Err %v, want %v", iter, opt, r.Err(), wantErr)
			}
		}
	}
	if multi < 1000 {
		t.Fatalf("runs of several records hardly ever happened (%d)", multi)
	}
}

func lastLine(s []Seen) int64 {
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].LineNo
}

// A run never aliases anything but the reader's buffer, and a Lines loop after Runs still
// gets owned copies.
func TestRunsThenLines(t *testing.T) {
	in := bytes.Repeat([]byte("0123456789\n"), 1000)
	r := New(bytes.NewReader(in), Options{BufferSize: 100})
	n := 0
	for run := range r.Runs() {
		n += bytes.Count(run, []byte("\n"))
		if n > 300 {
			break
		}
	}
	for line := range r.Lines() {
		if string(line) != "0123456789\n" || cap(line) != len(line) {
			t.Fatalf("line %q cap %d", line, cap(line))
		}
		n++
	}
	if n != 1000 || r.Err() != nil {
		t.Fatalf("%d records, err %v", n, r.Err())
	}
}

func TestLastIndexByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 2000 {
		n := rng.IntN(3 * lastWindow)
		p := bytes.Repeat([]byte{'x'}, n)
		for range rng.IntN(4) {
			if n > 0 {
				p[rng.IntN(n)] = '\n'
			}
		}
		if got, want := lastIndexByte(p, '\n'), bytes.LastIndexByte(p, '\n'); got != want {
			t.Fatalf("lastIndexByte(%q) = %d, want %d", p, got, want)
		}
	}
}
