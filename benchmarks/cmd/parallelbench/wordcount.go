package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"sync"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// counts is a word count: how many times each word occurs.
type counts map[string]int

// countWords adds the words of rec (split at ASCII white space) to c.
func countWords(c counts, rec []byte) {
	for _, w := range bytes.Fields(rec) {
		c[string(w)]++
	}
}

// wordCounter is one way of counting the words of a file.
type wordCounter struct {
	name string
	run  func(path string) (counts, error)
}

var sequentialWords = wordCounter{"Lines loop", func(path string) (counts, error) {
	r, err := linereader.Open(path, opt)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	c := counts{}
	for rec := range r.Views() {
		countWords(c, rec)
	}
	return c, r.Err()
}}

// foreachMutexWords is what a newcomer writes with Foreach: one map, behind a mutex.
func foreachMutexWords(workers int) wordCounter {
	return wordCounter{fmt.Sprintf("Foreach(%d)+mutex map", workers), func(path string) (counts, error) {
		var mu sync.Mutex
		c := counts{}
		err := parallel.Foreach(context.Background(), path, opt, workers, func(rec []byte, _ int64) error {
			mu.Lock()
			defer mu.Unlock()
			countWords(c, rec)
			return nil
		})
		return c, err
	}}
}

// foldWords gives each worker a map of its own and merges them.
func foldWords(workers int) wordCounter {
	return wordCounter{fmt.Sprintf("Fold(%d)", workers), func(path string) (counts, error) {
		return parallel.Fold(context.Background(), path, opt, workers,
			func() counts { return counts{} },
			func(c counts, rec []byte, _ int64) (counts, error) {
				countWords(c, rec)
				return c, nil
			},
			func(a, b counts) counts {
				for w, n := range b {
					a[w] += n
				}
				return a
			})
	}}
}

// wordCount checks every counter against the sequential loop, then measures Fold
// against each of the others in alternating pairs and prints a table.
func wordCount(label, path string, pairs int) error {
	want, err := sequentialWords.run(path)
	if err != nil {
		return err
	}
	fold := foldWords(2)
	others := []wordCounter{sequentialWords, foreachMutexWords(2), foreachMutexWords(1), foldWords(1)}
	for _, c := range append([]wordCounter{fold}, others...) {
		got, err := c.run(path)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if !maps.Equal(got, want) {
			return fmt.Errorf("%s: %d distinct words, the sequential loop %d", c.name, len(got), len(want))
		}
	}
	fmt.Printf("### %s: word count (%d distinct words)\n\n", label, len(want))
	fmt.Println("| base | contender | base wall | contender wall | wall ratio | base CPU | contender CPU | CPU ratio |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	for _, base := range others {
		rw := row{"words", asContender(base), asContender(fold), 0, 0}
		if err := measureRow(path, rw, nil, pairs, false); err != nil {
			return err
		}
	}
	fmt.Println()
	return nil
}

// asContender makes a word counter a contender of measure (its result is not checked
// again there: wordCount checked it).
func asContender(c wordCounter) contender {
	return contender{c.name, func(path string, _ func([]byte) uint64) (result, error) {
		_, err := c.run(path)
		return result{}, err
	}}
}
