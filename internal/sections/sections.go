// Package sections plans and hands out the byte ranges of one input that several
// goroutines read at once: how many sections an input is cut into, and which goroutine
// takes which. It is the one place that answers both for linereader's CountAt and the
// parallel package (each cuts the spans with linereader.Partition).
package sections

import (
	"sort"
	"sync/atomic"
)

// Count returns how many sections an input of size bytes is cut into for `workers`
// goroutines: perWorker per worker, so that a worker slowed by other load on the machine
// leaves its share of the input to the others, but no more than sections of minLen
// bytes allow (a section costs a reader, a buffer and a first read), and never fewer than
// one per worker, nor fewer than one.
func Count(size int64, workers, perWorker int, minLen int64) int {
	n := min(int64(workers)*int64(perWorker), max(int64(workers), size/max(minLen, 1)))
	return int(max(n, 1))
}

// AtPoints returns the bounds of about n sections of an input of size bytes whose reads
// cost least when they start at one of points (increasing offsets: the access points of
// a compressed file's index, where a read starts decoding without the bytes before it):
// 0, then each even cut moved to the point nearest it plus past, then size. A section
// then starts past bytes past a point, so that a reader that looks at the bytes just
// before its start (linereader.NewSection reads from len(Sep) before it) reads from the
// point, and no section decodes what the one before it decodes. Cuts that fall together
// are one; there are fewer sections when the points are fewer.
func AtPoints(size int64, n int, points []int64, past int64) []int64 {
	bounds := []int64{0}
	for i := 1; i < n; i++ {
		even := size / int64(n) * int64(i)
		k := sort.Search(len(points), func(k int) bool { return points[k] >= even })
		if k == len(points) || k > 0 && even-points[k-1] < points[k]-even {
			k--
		}
		if k < 0 || points[k] <= bounds[len(bounds)-1] {
			continue // before the start, or the cut before
		}
		if cut := points[k] + past; cut < size {
			bounds = append(bounds, cut)
		}
	}
	return append(bounds, size)
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
