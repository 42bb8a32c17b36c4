package sections

import (
	"fmt"
	"sync"
	"testing"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		size               int64
		workers, perWorker int
		minLen             int64
		want               int
	}{
		{size: 0, workers: 1, perWorker: 8, minLen: 1 << 20, want: 1},
		{size: 100, workers: 4, perWorker: 8, minLen: 1 << 20, want: 4}, // one per worker however small
		{size: 10 << 20, workers: 2, perWorker: 8, minLen: 1 << 20, want: 10},
		{size: 1 << 30, workers: 2, perWorker: 8, minLen: 1 << 20, want: 16},
		{size: 1 << 30, workers: 2, perWorker: 8, minLen: 0, want: 16},
	} {
		if got := Count(tc.size, tc.workers, tc.perWorker, tc.minLen); got != tc.want {
			t.Errorf("Count(%d, %d, %d, %d) = %d, want %d", tc.size, tc.workers, tc.perWorker, tc.minLen, got, tc.want)
		}
	}
}

// Every index is taken exactly once, whichever goroutine takes it.
func TestQueueHandsOutEachOnce(t *testing.T) {
	const n = 10000
	q := NewQueue(n)
	var mu sync.Mutex
	seen := make([]int, n)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, ok := q.Take()
				if !ok {
					return
				}
				mu.Lock()
				seen[k]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for k, c := range seen {
		if c != 1 {
			t.Fatalf("index %d taken %d times", k, c)
		}
	}
	if _, ok := q.Take(); ok {
		t.Error("Take after the last index")
	}
	var zero Queue
	if _, ok := zero.Take(); ok {
		t.Error("the zero Queue handed out an index")
	}
}

func TestAtPoints(t *testing.T) {
	for _, tc := range []struct {
		size   int64
		n      int
		points []int64
		past   int64
		want   []int64
	}{
		{size: 100, n: 4, points: []int64{0, 20, 50, 80}, past: 1, want: []int64{0, 21, 51, 81, 100}},
		{size: 100, n: 2, points: []int64{0, 20, 45, 80}, past: 1, want: []int64{0, 46, 100}},
		{size: 100, n: 4, points: []int64{0}, past: 1, want: []int64{0, 100}},
		{size: 100, n: 8, points: []int64{0, 40}, past: 2, want: []int64{0, 42, 100}},
		{size: 100, n: 8, points: []int64{0, 40, 41, 42, 43}, past: 2, want: []int64{0, 42, 45, 100}},
		{size: 100, n: 3, points: nil, past: 1, want: []int64{0, 100}},
		{size: 100, n: 3, points: []int64{0, 99}, past: 1, want: []int64{0, 100}},
		{size: 100, n: 3, points: []int64{0, 98}, past: 1, want: []int64{0, 99, 100}},
		{size: 0, n: 3, points: []int64{0}, past: 1, want: []int64{0, 0}},
	} {
		got := AtPoints(tc.size, tc.n, tc.points, tc.past)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("AtPoints(%d, %d, %v, %d) = %v, want %v", tc.size, tc.n, tc.points, tc.past, got, tc.want)
		}
	}
}
