package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// event is what every contender decodes each record into.
type event struct {
	ID   int64  `json:"id"`
	Kind string `json:"kind"`
	TS   int64  `json:"ts"`
	User struct {
		Name  string   `json:"name"`
		Age   int      `json:"age"`
		Langs []string `json:"langs"`
	} `json:"user"`
	Tags  []string       `json:"tags"`
	Attrs map[string]any `json:"attrs"`
	Score float64        `json:"score"`
	Msg   string         `json:"msg"`
	Geo   *struct {
		Lat float64 `json:"lat"`
		Lon float64 `json:"lon"`
	} `json:"geo"`
	OK   bool   `json:"ok"`
	Blob string `json:"blob"`
}

// summary is what a contender computes: the records decoded, the sum of their ids,
// their count by kind, and the offsets of the malformed ones (reported and skipped).
type summary struct {
	records int64
	idSum   int64
	byKind  map[string]int64
	bad     []int64
}

func newSummary() summary { return summary{byKind: map[string]int64{}} }

// decode decodes one record.
func decode(rec []byte) (event, error) {
	var ev event
	err := json.Unmarshal(rec, &ev)
	return ev, err
}

// count adds a decoded record, or the offset of a malformed one, to s.
func (s *summary) count(ev event, err error, off int64) {
	if err != nil {
		s.bad = append(s.bad, off)
		return
	}
	s.records++
	s.idSum += ev.ID
	s.byKind[ev.Kind]++
}

// add decodes rec, at offset off, into s.
func (s *summary) add(rec []byte, off int64) {
	ev, err := decode(rec)
	s.count(ev, err, off)
}

// merge adds b to s.
func (s summary) merge(b summary) summary {
	s.records += b.records
	s.idSum += b.idSum
	for k, n := range b.byKind {
		s.byKind[k] += n
	}
	s.bad = append(s.bad, b.bad...)
	return s
}

// equal reports whether s and b are the same summary, the malformed records in any order.
func (s summary) equal(b summary) bool {
	sb, bb := slices.Sorted(slices.Values(s.bad)), slices.Sorted(slices.Values(b.bad))
	return s.records == b.records && s.idSum == b.idSum && maps.Equal(s.byKind, b.byKind) && slices.Equal(sb, bb)
}

// A contender decodes every record of the file at path. The code between "loop:" and
// "end" comments is the loop a program writes, counted by benchmarks/jsonl.sh.
type contender struct {
	name string
	run  func(path string, workers int) (summary, error)
}

var contenders = []contender{
	{"Scanner 1 MiB", scanner},
	{"Lines", lines},
	{"Views", views},
	{"Map", mapLoop},
	{"Foreach", foreach},
	{"Fold", fold},
	{"FoldViews", foldViews},
	{"errgroup pool", pool},
}

// loop: Scanner 1 MiB
func scanner(path string, _ int) (summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return summary{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	s, off := newSummary(), int64(0)
	for sc.Scan() {
		s.add(sc.Bytes(), off)
		off += int64(len(sc.Bytes())) + 1
	}
	return s, sc.Err()
}

// end

// loop: Lines
func lines(path string, _ int) (summary, error) {
	r, err := linereader.Open(path, linereader.Options{})
	if err != nil {
		return summary{}, err
	}
	defer r.Close()
	s := newSummary()
	for rec := range r.Lines() {
		s.add(rec, r.Offset())
	}
	return s, r.Err()
}

// end

// loop: Views
func views(path string, _ int) (summary, error) {
	r, err := linereader.Open(path, linereader.Options{})
	if err != nil {
		return summary{}, err
	}
	defer r.Close()
	s := newSummary()
	for rec := range r.Views() {
		s.add(rec, r.Offset())
	}
	return s, r.Err()
}

// end

// decoded is Map's result for one record: the event or its error, and the record's
// length, which the loop adds up into offsets.
type decoded struct {
	ev   event
	err  error
	size int
}

// loop: Map
func mapLoop(path string, workers int) (summary, error) {
	r, err := linereader.Open(path, linereader.Options{})
	if err != nil {
		return summary{}, err
	}
	defer r.Close()
	s, off := newSummary(), int64(0)
	for d := range parallel.Map(context.Background(), r, workers, func(rec []byte) decoded {
		ev, err := decode(rec)
		return decoded{ev, err, len(rec)}
	}) {
		s.count(d.ev, d.err, off)
		off += int64(d.size)
	}
	return s, r.Err()
}

// end

// loop: Foreach
func foreach(path string, workers int) (summary, error) {
	var mu sync.Mutex
	s := newSummary()
	err := parallel.Foreach(context.Background(), path, linereader.Options{}, workers, func(rec []byte, off int64) error {
		ev, err := decode(rec)
		mu.Lock()
		s.count(ev, err, off)
		mu.Unlock()
		return nil
	})
	return s, err
}

// end

// loop: Fold
func fold(path string, workers int) (summary, error) {
	return parallel.Fold(context.Background(), path, linereader.Options{}, workers, newSummary,
		func(s summary, rec []byte, off int64) (summary, error) {
			s.add(rec, off)
			return s, nil
		}, summary.merge)
}

// end

// loop: FoldViews
func foldViews(path string, workers int) (summary, error) {
	return parallel.FoldViews(context.Background(), path, linereader.Options{}, workers, newSummary,
		func(s summary, rec []byte, off int64) (summary, error) {
			s.add(rec, off) // json.Unmarshal keeps no part of rec
			return s, nil
		}, summary.merge)
}

// end

// line is a record of the pool's batches: its bytes and offset.
type line struct {
	rec []byte
	off int64
}

// loop: errgroup pool
func pool(path string, workers int) (summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return summary{}, err
	}
	defer f.Close()
	g, ctx := errgroup.WithContext(context.Background())
	batches := make(chan []line, 2*workers)
	g.Go(func() error {
		defer close(batches)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		batch, off := make([]line, 0, 256), int64(0)
		for sc.Scan() {
			batch = append(batch, line{bytes.Clone(sc.Bytes()), off})
			off += int64(len(sc.Bytes())) + 1
			if len(batch) == cap(batch) {
				select {
				case batches <- batch:
				case <-ctx.Done():
					return ctx.Err()
				}
				batch = make([]line, 0, 256)
			}
		}
		if len(batch) > 0 {
			batches <- batch
		}
		return sc.Err()
	})
	results := make([]summary, workers)
	for i := range workers {
		g.Go(func() error {
			s := newSummary()
			for b := range batches {
				for _, l := range b {
					s.add(l.rec, l.off)
				}
			}
			results[i] = s
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return summary{}, err
	}
	s := newSummary()
	for _, r := range results {
		s = s.merge(r)
	}
	return s, nil
}

// end
