package ztext

import "io"

// NewOrdered is newOrdered, for the tests of the ordered stream alone.
func NewOrdered(ra io.ReaderAt, size int64, points []int64, workers int, end error) io.ReadCloser {
	return newOrdered(ra, size, points, workers, end)
}
