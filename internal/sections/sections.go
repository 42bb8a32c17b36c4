// Package sections plans and hands out the byte ranges of one input that several
// goroutines read at once: how many sections an input is cut into, and which goroutine
// takes which. It is the one place that answers both for linereader's CountAt and the
// parallel package (each cuts the spans with linereader.Partition).
package sections

import "sync/atomic"

// Count returns how many sections an input of size bytes is cut into for `workers`
// goroutines: perWorker per worker, so that a worker slowed by other load on the machine
// leaves its share of the input to the others, but no more than sections of minLen
// bytes allow (a section costs a reader, a buffer and a first read), and never fewer than
// one per worker, nor fewer than one.
func Count(size int64, workers, perWorker int, minLen int64) int {
	n := min(int64(workers)*int64(perWorker), max(int64(workers), size/max(minLen, 1)))
	return int(max(n, 1))
}

// Queue hands out the indexes 0 to n-1, each once, in order, to any number of
// goroutines. The zero Queue has nothing to hand out.
type Queue struct {
	next atomic.Int64
	n    int64
}

// NewQueue returns a Queue of the indexes of n sections.
func NewQueue(n int) *Queue { return &Queue{n: int64(n)} }

// Take returns the next index not yet taken, and false once every one has been.
func (q *Queue) Take() (int, bool) {
	k := q.next.Add(1) - 1
	if k >= q.n {
		return 0, false
	}
	return int(k), true
}
